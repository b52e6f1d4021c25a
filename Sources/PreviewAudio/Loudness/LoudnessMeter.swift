import CEbur128
import PreviewCore

/// One libebur128 measurement (ebur128_init with EBUR128_MODE_I and
/// EBUR128_MODE_SAMPLE_PEAK): s16 PCM in, integrated loudness and sample
/// peak out. Owns the `ebur128_state`; not thread-safe.
final class LoudnessMeter {
    private var state: UnsafeMutablePointer<ebur128_state>?
    let format: AudioFormat
    /// Frames added so far.
    private(set) var frames = 0

    /// - Throws: `StreamFailure.decode` when libebur128 refuses the format
    ///   (it takes 1 to 64 channels, 16 Hz to 2.8 MHz).
    init(format: AudioFormat) throws(StreamFailure) {
        self.format = format
        let mode = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_SAMPLE_PEAK.rawValue)
        guard let s = ebur128_init(UInt32(format.channels), UInt(format.sampleRate), mode) else {
            throw .decode("ebur128_init refused \(format)")
        }
        state = s
    }

    deinit { ebur128_destroy(&state) }

    /// Adds whole frames of interleaved s16 PCM (ebur128_add_frames_short).
    func add(_ pcm: UnsafeRawBufferPointer) {
        let count = pcm.count / format.bytesPerFrame
        guard count > 0, let base = pcm.baseAddress else { return }
        ebur128_add_frames_short(state, base.assumingMemoryBound(to: Int16.self), count)
        frames += count
    }

    /// The loudness of what was added (ebur128_loudness_global,
    /// ebur128_sample_peak of each channel); nil before any audio.
    var loudness: Loudness? {
        guard frames > 0 else { return nil }
        var integrated = 0.0
        guard ebur128_loudness_global(state, &integrated) == Int32(EBUR128_SUCCESS.rawValue) else { return nil }
        var peak = 0.0
        for channel in 0..<format.channels {
            var p = 0.0
            if ebur128_sample_peak(state, UInt32(channel), &p) == Int32(EBUR128_SUCCESS.rawValue) { peak = max(peak, p) }
        }
        return Loudness(integrated: integrated, peak: peak, seconds: Double(frames) / Double(format.sampleRate))
    }
}
