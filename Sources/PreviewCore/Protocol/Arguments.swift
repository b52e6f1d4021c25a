/// Parsers for MPD argument forms: integers, booleans, `START:END` ranges and
/// relative `+N`/`-N` positions. Each throws the ACK that MPD sends for it.
public enum Arguments {
    /// An unsigned integer argument (`Pos`, `Id`, ...).
    /// - Throws: `.argument` "Integer expected: X" when `text` is not a whole number.
    /// - Throws: also "Number too large: X" above `Int32.max`, so position
    ///   arithmetic (`START+1`, `+N` after the current song) cannot overflow.
    public static func unsigned(_ text: String) throws(ProtocolError) -> Int {
        let v = try integer(text)
        guard v >= 0 else { throw ProtocolError(.argument, "Number too small: \(text)") }
        return v
    }

    /// A signed integer argument.
    /// - Throws: `.argument` "Integer expected: X".
    /// - Throws: "Number too large: X" beyond ±`Int32.max`.
    public static func integer(_ text: String) throws(ProtocolError) -> Int {
        guard let v = Int(text) else {
            let digits = text.drop(while: { $0 == "-" || $0 == "+" })
            if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
                throw ProtocolError(.argument, "Number too large: \(text)")
            }
            throw ProtocolError(.argument, "Integer expected: \(text)")
        }
        // No abs(): it traps on Int.min.
        guard v <= Int(Int32.max), v >= -Int(Int32.max) else { throw ProtocolError(.argument, "Number too large: \(text)") }
        return v
    }

    /// MPD's boolean: exactly `0` or `1`.
    /// - Throws: `.argument` "Boolean (0/1) expected: X".
    public static func boolean(_ text: String) throws(ProtocolError) -> Bool {
        switch text {
        case "0": return false
        case "1": return true
        default: throw ProtocolError(.argument, "Boolean (0/1) expected: \(text)")
        }
    }

    /// A position range: `N` (one song), `START:END` (END exclusive) or `START:`
    /// (to the end, given as `Int.max`).
    /// - Throws: `.argument` for malformed text or END < START.
    public static func range(_ text: String) throws(ProtocolError) -> Range<Int> {
        guard let colon = text.firstIndex(of: ":") else {
            let v = try unsigned(text)
            return v..<(v + 1)
        }
        let startText = String(text[..<colon])
        let endText = String(text[text.index(after: colon)...])
        let start = try unsigned(startText)
        if endText.isEmpty { return start..<Int.max }
        let end = try unsigned(endText)
        guard end >= start else { throw ProtocolError(.argument, "Bad range") }
        return start..<end
    }

    /// A position that may be relative to the current song (`+N` after it,
    /// `-N` before it), as `addid`/`move` accept.
    public enum Position: Equatable, Sendable {
        /// An absolute queue position.
        case absolute(Int)
        /// `+N`: N songs after the current one (`+0` is right after it).
        case afterCurrent(Int)
        /// `-N`: N songs before the current one (`-0` is right before it).
        case beforeCurrent(Int)
    }

    /// Parses an absolute or relative position.
    /// - Throws: `.argument` "Integer expected: X".
    public static func position(_ text: String) throws(ProtocolError) -> Position {
        if text.hasPrefix("+") { return .afterCurrent(try unsigned(String(text.dropFirst()))) }
        if text.hasPrefix("-") { return .beforeCurrent(try unsigned(String(text.dropFirst()))) }
        return .absolute(try unsigned(text))
    }
}
