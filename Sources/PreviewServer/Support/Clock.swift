/// The clocks the control side reads, injected so that tests can move time
/// by hand (`Harness.advance`) instead of sleeping.
struct Clock {
    /// Monotonic seconds (CLOCK_MONOTONIC): durations, deadlines, uptime.
    var monotonic: () -> Double
    /// Seconds since the Unix epoch (CLOCK_REALTIME): signed-URL expiry, dates.
    var wall: () -> Double

    /// The system's clocks.
    static var system: Clock { Clock(monotonic: monotonicTime, wall: unixTime) }
}
