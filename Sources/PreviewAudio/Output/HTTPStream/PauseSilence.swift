import PreviewPlatform

/// What keeps a paused HTTP stream alive: silence, at the stream's own
/// pace, as MPD's httpd output sends while paused. A player that hears
/// nothing for a while gives up (browsers stall, previewweb's relay closes
/// a connection silent for 15 s); one fed silence waits for `play`.
///
/// The arithmetic is pure (a clock reading in, frames owed out); the
/// thread that acts on it is `HTTPStreamOutput`'s.
struct PauseSilence {
    /// Seconds between two pieces of silence: small enough that no
    /// player's buffer runs dry, large enough to cost nothing.
    static let tick = 0.1
    /// Frames owed at most in one piece: a thread held up for a long time
    /// (a suspended machine) does not flood the listeners afterwards.
    static let maxFrames = 44100 / 2
    /// Frames a second (the stream's sample rate).
    let sampleRate: Int
    /// Monotonic seconds since which silence is owed: the pause, or the
    /// last audio written after it.
    private(set) var since: Double
    /// Frames of silence fed since `since`.
    private(set) var fed = 0

    /// - Parameters: sampleRate: frames a second; now: monotonic seconds of the pause.
    init(sampleRate: Int, now: Double) {
        self.sampleRate = sampleRate
        since = now
    }

    /// Audio was written at `now` (what was queued before the pause):
    /// silence is owed from then on.
    mutating func restart(now: Double) {
        since = now
        fed = 0
    }

    /// The frames to feed at `now` (0 when none are due), counted as fed;
    /// at most `maxFrames`, the rest forgiven.
    mutating func take(now: Double) -> Int {
        let due = Int(((now - since) * Double(sampleRate)).rounded()) - fed
        guard due > 0 else { return 0 }
        if due > Self.maxFrames {
            fed += due
            return Self.maxFrames
        }
        fed += due
        return due
    }
}
