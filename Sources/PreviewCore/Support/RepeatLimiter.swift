/// Lets a repeated log line through at most once per `interval` for each
/// kind, and counts the ones held back: a flood of refused connections
/// would otherwise flood the log (and the journal) one line each.
public struct RepeatLimiter: Sendable {
    /// Seconds between two lines of one kind.
    public let interval: Double
    private var last: [String: (time: Double, held: Int)] = [:]

    /// - Parameter interval: seconds between two lines of one kind.
    public init(interval: Double) { self.interval = interval }

    /// Whether a line of `kind` may be written at `now` (monotonic
    /// seconds): nil holds it back; a number lets it through and says how
    /// many were held back since the last one written.
    public mutating func admit(_ kind: String, now: Double) -> Int? {
        if let previous = last[kind], now - previous.time < interval {
            last[kind]!.held += 1
            return nil
        }
        let held = last[kind]?.held ?? 0
        last[kind] = (now, 0)
        return held
    }

    /// " (and N more like it since the last such line)" for `held` > 0, else "".
    public func suffix(held: Int) -> String {
        held > 0 ? " (and \(held) more like it since the last such line)" : ""
    }
}
