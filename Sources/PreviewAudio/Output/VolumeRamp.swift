/// A volume change spread over `steps` equal steps, `stepMicroseconds`
/// apart, so it never clicks: each step goes a like share of the way left,
/// and a change during a ramp starts the steps over from where it is.
/// Volumes in percent (fractional while ramping). No PulseAudio call in it.
struct VolumeRamp: Equatable {
    /// Steps per change; 12 x 15 ms passes several of a sound server's
    /// render blocks.
    static let steps = 12
    /// Time between two steps, microseconds.
    static let stepMicroseconds: UInt64 = 15_000

    /// The volume the stream has now, and the one it goes to.
    private(set) var applied = 100.0
    private(set) var target = 100.0
    /// Steps still to take; 0 when no ramp runs.
    private(set) var left = 0

    /// Ramps from the applied volume to `percent`.
    mutating func start(to percent: Int) {
        target = Double(percent)
        left = VolumeRamp.steps
    }

    /// Takes the next step. - Returns: the volume to apply now, or nil when no ramp runs.
    mutating func step() -> Double? {
        guard left > 0 else { return nil }
        applied += (target - applied) / Double(left)
        left -= 1
        return applied
    }

    /// Ends the ramp at `percent` (its target, or a volume set with no stream to ramp).
    mutating func finish(at percent: Int) {
        applied = Double(percent)
        target = applied
        left = 0
    }
}
