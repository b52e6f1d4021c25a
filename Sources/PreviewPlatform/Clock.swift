/// The clocks the control side reads, injected so that tests can move time
/// by hand (`Harness.advance`) instead of sleeping. Both read seconds as
/// `Double` (`SystemClock` for the real ones).
public struct Clock {
    /// Monotonic seconds (CLOCK_MONOTONIC): durations, deadlines, uptime.
    public var monotonic: () -> Double
    /// Seconds since the Unix epoch (CLOCK_REALTIME): signed-URL expiry, dates.
    public var wall: () -> Double

    /// - Parameters: monotonic, wall: the two clocks, in seconds.
    public init(monotonic: @escaping () -> Double, wall: @escaping () -> Double) {
        self.monotonic = monotonic
        self.wall = wall
    }

    /// The system's clocks (`SystemClock.monotonicSeconds`, `SystemClock.unixSeconds`).
    public static var system: Clock { Clock(monotonic: SystemClock.monotonicSeconds, wall: SystemClock.unixSeconds) }
}

extension SystemClock {
    /// Unix seconds as ISO 8601 UTC (`2026-11-30T04:00:00Z`), as MPD's `Last-Modified`.
    public static func iso8601(_ seconds: Int) -> String {
        format(seconds, "%Y-%m-%dT%H:%M:%SZ", utc: true)
    }
}
