import PreviewCore

/// Discards PCM; with pacing it takes as long as a sound card would, so
/// `elapsed` and track changes behave as with real output.
final class NullOutput: AudioOutput, @unchecked Sendable {
    private let paced: Bool
    private let clock = PacingClock()
    private var format = AudioFormat(sampleRate: 44100, channels: 2)

    /// - Parameter paced: consume at real-time speed (true) or instantly.
    init(paced: Bool) { self.paced = paced }

    func configure(_ format: AudioFormat) throws(StreamFailure) { self.format = format }

    func write(_ pcm: UnsafeRawBufferPointer, interrupted: () -> Bool) throws(StreamFailure) -> Int {
        guard paced else { return pcm.count }
        // A pause takes only what a device would have played by then: the
        // rest is written again when playback resumes.
        return clock.consume(
            frames: pcm.count / format.bytesPerFrame, rate: format.sampleRate,
            interrupted: interrupted) * format.bytesPerFrame
    }

    func setPaused(_ paused: Bool) { clock.reset() }
    func discard() { clock.reset() }
    func trackEnded() {}
    func setVolume(_ percent: Int) {}
    var hasMixer: Bool { false }
    func wake() { clock.wake() }
    func close() {}
}
