/// How fast a stream's bytes must come for it to play without running dry:
/// what tells a modest link (a long wait, but fast enough) from a trickle.
public enum StreamRate {
    /// Bytes per second that playing consumes.
    ///
    /// Once a second of audio or more has been decoded, the mean so far:
    /// `fedBytes` (bytes fed after the stream's format was known) over the
    /// `decodedFrames` PCM frames they gave at `sampleRate`. A VBR stream's
    /// frames range from 32 to 320 kbit/s, so the current frame's rate can
    /// be far above the mean. Asked when the decoder wants more input, so
    /// less than a frame of what was fed is still undecoded.
    ///
    /// Before that, the current frame's `frameBitrate` (kbit/s), or 128
    /// kbit/s when it is unknown (0).
    public static func bytesPerSecondNeeded(fedBytes: Int, decodedFrames: Int, sampleRate: Int, frameBitrate: Int) -> Double {
        if sampleRate > 0, decodedFrames >= sampleRate, fedBytes > 0 {
            return Double(fedBytes) / (Double(decodedFrames) / Double(sampleRate))
        }
        return Double(frameBitrate > 0 ? frameBitrate : 128) * 1000 / 8
    }
}
