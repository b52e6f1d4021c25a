/// Builds the body of an MPD reply: `key: value` lines. The terminating `OK`
/// or `list_OK` is added by the session, not here.
public struct Reply: Sendable {
    /// The reply text so far.
    public private(set) var text: String = ""

    /// An empty reply.
    public init() {}

    /// Appends `key: value\n`. Newlines inside `value` are replaced by spaces,
    /// since one would end the field early for every client.
    public mutating func field(_ key: String, _ value: String) {
        text += key
        text += ": "
        if value.contains(where: { $0 == "\n" || $0 == "\r" }) {
            text += value.map { $0 == "\n" || $0 == "\r" ? " " : $0 }.map(String.init).joined()
        } else {
            text += value
        }
        text += "\n"
    }

    /// Appends `key: value\n` for an integer value.
    public mutating func field(_ key: String, _ value: Int) { field(key, String(value)) }

    /// Appends raw, already formatted lines.
    public mutating func append(raw: String) { text += raw }
}

/// Formats seconds as MPD does for `elapsed`/`duration`: three decimals.
public func formatSeconds(_ seconds: Double) -> String {
    let millis = Int((max(0, seconds) * 1000).rounded())
    let frac = millis % 1000
    let fracText = frac < 10 ? "00\(frac)" : frac < 100 ? "0\(frac)" : "\(frac)"
    return "\(millis / 1000).\(fracText)"
}
