/// Numbers that arrive from outside (stored playlists, the state file, API
/// answers, HTTP headers, protocol arguments, replies read by previewctl)
/// are checked where they enter: a value out of range is an error of that
/// source, never a trap. These are the checks and the conversions that
/// cannot trap, for the code that formats such values afterwards.
public enum Seconds {
    /// The longest time previewd takes from outside, in seconds (10^9,
    /// about 31 years): a duration, a seek target or a range end past it
    /// is refused. A whole number, so a valid time rounds to a valid time.
    /// Far beyond any stream, and far inside the range where
    /// seconds × 1000 or × a sample rate still fits an `Int`.
    public static let maximum: Double = 1e9

    /// Whether `value` is a time previewd accepts: in `0 ... maximum`
    /// seconds (so not NaN or infinite).
    public static func isValid(_ value: Double) -> Bool {
        value >= 0 && value <= maximum
    }

    /// `text` read as a decimal number of seconds (as `Double(_:)` reads
    /// it), when that is valid (`isValid`); nil for anything else,
    /// `inf`, `nan` and `1e400` included.
    public static func parse<S: StringProtocol>(_ text: S) -> Double? {
        guard let value = Double(text), isValid(value) else { return nil }
        return value
    }
}

extension Int {
    /// `value` rounded by `rule` and clamped to `Int`'s range; NaN gives 0.
    /// For writing a number that was checked where it entered, so that a
    /// value that slipped through shows as a wrong figure, not a crash.
    public init(clamping value: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        let r = value.rounded(rule)
        // Double(Int.max) is 2^63, one past Int.max.
        if r.isNaN {
            self = 0
        } else if r >= Double(Int.max) {
            self = .max
        } else if r < Double(Int.min) {
            self = .min
        } else {
            self = Int(r)
        }
    }

    /// `self + other`, or `Int.max` / `Int.min` where the sum would overflow.
    public func clampedAdding(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
