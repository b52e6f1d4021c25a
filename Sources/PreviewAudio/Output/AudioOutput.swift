import PreviewCore
import PreviewPlatform

/// Where decoded PCM goes. Called from the decode thread only, except
/// `setPaused`, `setVolume` and `wake`, which the control thread may call.
protocol AudioOutput: AnyObject, Sendable {
    /// Prepares for PCM in `format`; reopens the device (or starts the next
    /// WAV file) when it differs from the open one.
    /// - Throws: `StreamFailure.output`.
    func configure(_ format: AudioFormat) throws(StreamFailure)

    /// Plays `pcm` (whole frames of s16 in the configured format). Blocks
    /// to pace playback; returns early, with the bytes taken so far, when
    /// `interrupted()` becomes true (pause, stop, skip).
    /// - Throws: `StreamFailure.output`.
    func write(_ pcm: UnsafeRawBufferPointer, interrupted: () -> Bool) throws(StreamFailure) -> Int

    /// Pauses (true) or resumes the device clock without dropping audio.
    func setPaused(_ paused: Bool)

    /// Drops audio written but not yet played (stop, skip to another song).
    func discard()

    /// A track ended cleanly: make what was written durable (WAV header).
    func trackEnded()

    /// Volume in percent, 0...100 (outputs with a mixer of their own).
    func setVolume(_ percent: Int)

    /// Whether the output applies volume itself; if not, the engine scales
    /// the samples (`SoftwareVolume`).
    var hasMixer: Bool { get }

    /// Whether a failed output may come back (a sound server restarting):
    /// the engine then calls `configure` again, with back-off, instead of
    /// failing the stream.
    var canReconnect: Bool { get }

    /// Wakes a `write` blocked waiting for the device, so it re-checks `interrupted`.
    func wake()

    /// Finishes and releases the device or file. Idempotent.
    func close()

    /// The stream about to play (its name for the sound server's volume
    /// controls); outputs without stream properties ignore it.
    func nowPlaying(_ info: StreamInfo)

    /// Lets the device go while another output plays (dropping what is
    /// buffered); the next `configure` opens it again.
    func release()

    /// Playback stopped (`stop`, or the end of the queue): play out what
    /// was written and not discarded, then let the device go; the next
    /// `configure` opens it again.
    func stopped()

    /// Where the listener is against what `write` took, for outputs that
    /// buffer ahead of what is heard (a sound server): nil for those that
    /// play what they are given as `write` takes it, or when the output
    /// cannot tell now (no stream, no timing from the server yet).
    /// Any thread may call it.
    func clock() -> OutputClock?
}

/// An output's clock reading (`AudioOutput.clock`), in frames of the
/// format it was configured for.
struct OutputClock: Equatable {
    /// The device stream the reading is of: a new number each time the
    /// output opens one (a format change, a reconnection).
    var stream: Int
    /// Frames `write` has taken since that stream opened (it only grows).
    var accepted: Int
    /// Of those, the frames not heard yet: the sound server's buffer and
    /// the sink's latency (0 while nothing is buffered).
    var unplayed: Int
}

extension AudioOutput {
    var canReconnect: Bool { false }
    func release() {}
    func stopped() {}
    func nowPlaying(_ info: StreamInfo) {}
    func clock() -> OutputClock? { nil }
}

/// Consumes PCM at the speed of a sound card, keeping a small lead like a
/// device buffer would. Waits on a condition so `wake()` (pause, stop,
/// skip) ends a wait at once instead of after a sleep slice.
final class PacingClock: @unchecked Sendable {
    /// How far ahead of real time writes may run, in seconds.
    let lead = 0.05
    private let monitor = Monitor()
    private var deadline: Double?
    private var resetPending = false

    /// Accounts for `frames` at `rate`, then waits while more than `lead`
    /// seconds of audio are "buffered" or until `interrupted()`.
    /// - Returns: the frames taken: all of them, or when interrupted (a
    ///   pause), those up to now and the lead, as a device would have
    ///   played them; the rest is not accounted for.
    @discardableResult
    func consume(frames: Int, rate: Int, interrupted: () -> Bool) -> Int {
        monitor.locked {
            let now = SystemClock.monotonicSeconds()
            if resetPending {
                resetPending = false
                deadline = nil
            }
            let perFrame = 1 / Double(max(rate, 1))
            let start = max(deadline ?? now, now)
            let d = start + Double(frames) * perFrame
            deadline = d
            while true {
                let ahead = d - SystemClock.monotonicSeconds() - lead
                if ahead <= 0 { return frames }
                if interrupted() {
                    let taken = max(0, frames - Int((ahead / perFrame).rounded(.up)))
                    deadline = start + Double(taken) * perFrame
                    return taken
                }
                monitor.wait(seconds: ahead)
            }
        }
    }

    /// Forgets buffered time (after a pause or a discard) and ends a wait.
    func reset() {
        monitor.locked {
            resetPending = true
            monitor.broadcast()
        }
    }

    /// Ends a wait so the writer re-checks `interrupted`.
    func wake() { monitor.locked { monitor.broadcast() } }
}

/// Volume applied to s16 samples, for outputs without a mixer: 100 % leaves
/// samples bit-exact; below, the gain follows PulseAudio's cubic scale,
/// `(percent / 100)^3`, in Q16 fixed point (`(sample * gain) >> 16`).
enum SoftwareVolume {
    /// The Q16 gain for `percent`; 65536 means unchanged.
    static func gain(percent: Int) -> Int32 {
        let p = Double(max(0, min(100, percent))) / 100
        return Int32((p * p * p * 65536).rounded())
    }
}

/// The one scale on the PCM before any output: the stream's replay gain
/// times, for outputs without a mixer, the software volume, as one Q16
/// factor (65536: unchanged, and the samples stay bit-exact).
enum PCMScale {
    /// The Q16 factor for a linear replay-gain `scale` and a Q16 `volume`.
    static func factor(replayGain scale: Double, volume: Int32) -> Int64 {
        let gain = scale == 1 ? 65536 : Int64((scale * 65536).rounded())
        return (gain * Int64(volume)) >> 16
    }

    /// Scales the s16 samples in `pcm` in place by the Q16 `factor`,
    /// `(sample * factor) >> 16`, clamped to the s16 range (a gain above 1
    /// is peak-limited when chosen; the clamp guards the rounding).
    static func apply(_ factor: Int64, to pcm: UnsafeMutableRawBufferPointer) {
        guard factor != 65536 else { return }
        let samples = pcm.bindMemory(to: Int16.self)
        for i in samples.indices {
            let scaled = (Int64(samples[i]) * factor) >> 16
            samples[i] = Int16(clamping: scaled)
        }
    }
}
