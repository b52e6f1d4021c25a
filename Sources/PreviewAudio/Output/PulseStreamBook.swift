/// What `PulseOutput` keeps count of for its stream, with no PulseAudio
/// call in it: the frames written (for the clock `elapsed` comes from),
/// the PCM kept back to send with the next chunk, and when to ask the
/// server for its timing. One per output; `opened` starts it over for each
/// stream. Used under the output's mainloop lock.
struct PulseStreamBook {
    /// The stream's number: one more for each stream opened.
    private(set) var stream = 0
    /// Frames taken by `write` since the stream opened, and since it was
    /// last flushed.
    private(set) var accepted = 0
    private(set) var acceptedSinceFlush = 0
    /// PCM taken but kept back (s16 bytes): the end of a chunk too short
    /// to fill the server's request, sent with the next chunk as one block.
    /// Each block sent costs this process a wake-up to send it and another
    /// when the server gives it back.
    var staged: [UInt8] = []
    /// Half the stream's buffer, bytes: the server's usual request.
    private(set) var halfBuffer = 0
    /// When the server was last asked for its timing, and the time until
    /// the next ask (microseconds, PulseAudio's clock): short after the
    /// stream opens, is flushed, corked or uncorked, then doubling to
    /// `timingIntervalMax` as PulseAudio's interpolation has more to go on.
    private var timingAsked: UInt64 = 0
    private var timingInterval: UInt64 = 0
    /// Longest time between two asks while writing, microseconds.
    static let timingIntervalMax: UInt64 = 1_000_000
    /// The first interval after a fresh start, microseconds.
    static let timingIntervalMin: UInt64 = 20_000

    /// A new stream, with a buffer of `bufferBytes`.
    mutating func opened(bufferBytes: Int) {
        stream += 1
        accepted = 0
        acceptedSinceFlush = 0
        staged.removeAll()
        halfBuffer = bufferBytes / 2
        timingInterval = 0
    }

    /// The server dropped what it held (pa_stream_flush); so is what was kept back.
    mutating func flushed() {
        acceptedSinceFlush = 0
        staged.removeAll(keepingCapacity: true)
        timingInterval = 0
    }

    /// `bytes` more of PCM taken by `write`, in frames of `bytesPerFrame`.
    mutating func accept(_ bytes: Int, bytesPerFrame: Int) {
        accepted += bytes / bytesPerFrame
        acceptedSinceFlush += bytes / bytesPerFrame
    }

    /// Whether the `rest` bytes of a chunk are to be kept back rather than
    /// sent: together with what is kept already they do not fill the
    /// server's request of `writable` bytes, and the server still holds
    /// half a buffer or more (so a stream that is slow to come never
    /// starves it for want of what is kept here).
    func keepsBack(_ rest: Int, writable: Int) -> Bool {
        staged.count + rest < writable && writable <= halfBuffer
    }

    /// Whether to ask the server for its timing at `now` (microseconds):
    /// once the interval has passed, or at once when `afresh`, the interval
    /// then starting short again.
    mutating func asksTiming(at now: UInt64, afresh: Bool = false) -> Bool {
        if afresh { timingInterval = 0 }
        guard now &- timingAsked >= timingInterval else { return false }
        timingAsked = now
        timingInterval = min(max(2 * timingInterval, Self.timingIntervalMin), Self.timingIntervalMax)
        return true
    }

    /// The clock reading for a server latency of `latency` frames (nil
    /// while the server has not told it since the stream opened or was
    /// flushed: then nothing written since is taken as heard).
    func clock(latency: Int?, bytesPerFrame: Int) -> OutputClock {
        let unplayed = latency.map { $0 + staged.count / bytesPerFrame } ?? acceptedSinceFlush
        return OutputClock(stream: stream, accepted: accepted, unplayed: min(max(0, unplayed), accepted))
    }
}
