/// MPD's MixRamp settings (`mixrampdb`, `mixrampdelay`), kept and shown in
/// `status` as mpd shows them. They change nothing in playback: MixRamp
/// needs per-song ramp tags, which Deezer previews do not carry, and mpd
/// itself falls back to the plain crossfade without them.
public struct MixRamp: Equatable, Sendable {
    /// `mixrampdb`: the ramp's threshold in dB (mpd's default 0).
    public var decibels: Float = 0
    /// `mixrampdelay`: seconds; MixRamp is off unless it is above 0 (mpd
    /// takes `nan` and negative numbers for off).
    public var delaySeconds: Float = .nan

    public init() {}

    /// Whether `status` shows `mixrampdelay` (as mpd: only when above 0).
    public var delayIsOn: Bool { delaySeconds > 0 }

    /// A number as mpd's `status` prints a float: integral values without a
    /// fraction ("-17"), others in their shortest form ("1.25", "inf").
    public static func format(_ value: Float) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }

    /// A float argument as mpd reads one (`strtof`: "1e3", "inf", "nan" too).
    /// - Throws: `.argument` "Float expected: X".
    public static func parse(_ text: String) throws(ProtocolError) -> Float {
        guard let value = Float(text) else { throw ProtocolError(.argument, "Float expected: \(text)") }
        return value
    }
}
