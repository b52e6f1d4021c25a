/// Parsers for MPD argument forms: integers, booleans, `START:END` ranges and
/// relative `+N`/`-N` positions. Each throws the ACK that MPD sends for it,
/// except `range`, whose typed error says which check failed (callers word
/// range errors differently) and carries that ACK as `protocolError`.
public enum Arguments {
    /// Why a whole-number argument was refused; `text` is the refused word.
    /// Kept apart from its ACK so a caller that words a failure its own way
    /// (`Commands.range` does) chooses by kind, not by reading texts.
    public enum NumberError: Error, Equatable, Sendable {
        /// Not an optionally signed run of ASCII digits.
        case notInteger(String)
        /// Digits, but beyond ±`Int32.max`.
        case tooLarge(String)
        /// Below zero where only unsigned numbers are taken.
        case negative(String)

        /// MPD's ACK for it: `.argument` "Integer expected: X",
        /// "Number too large: X" or "Number too small: X".
        public var protocolError: ProtocolError {
            switch self {
            case .notInteger(let text): ProtocolError(.argument, "Integer expected: \(text)")
            case .tooLarge(let text): ProtocolError(.argument, "Number too large: \(text)")
            case .negative(let text): ProtocolError(.argument, "Number too small: \(text)")
            }
        }
    }

    /// Why a `START:END` argument was refused.
    public enum RangeError: Error, Equatable, Sendable {
        /// START or END (or the single position) is not an unsigned number.
        case bound(NumberError)
        /// END is below START.
        case endBeforeStart

        /// The ACK when the caller has no wording of its own: the bound's
        /// (see `NumberError.protocolError`), or `.argument` "Bad range".
        public var protocolError: ProtocolError {
            switch self {
            case .bound(let error): error.protocolError
            case .endBeforeStart: ProtocolError(.argument, "Bad range")
            }
        }
    }

    /// An unsigned integer argument (`Pos`, `Id`, ...).
    /// - Throws: `.argument` "Integer expected: X" when `text` is not a whole number.
    /// - Throws: also "Number too large: X" above `Int32.max`, so position
    ///   arithmetic (`START+1`, `+N` after the current song) cannot overflow.
    public static func unsigned(_ text: String) throws(ProtocolError) -> Int {
        do { return try checkedUnsigned(text) } catch { throw error.protocolError }
    }

    /// A queue version (`plchanges`): any integer, as mpd 0.23 reads it
    /// (C's `strtoul`): a client may start from 4294967295, or -1, to get
    /// the whole queue. Numbers wider than 32 bits keep their low 32 bits;
    /// past 64 bits the largest version.
    /// - Throws: `.argument` "Integer expected: X" for what is no integer.
    public static func version(_ text: String) throws(ProtocolError) -> UInt32 {
        if let v = Int64(text) { return UInt32(truncatingIfNeeded: v) }
        do { _ = try checkedInteger(text) } catch {
            if case .tooLarge = error { return .max }
            throw error.protocolError
        }
        return .max
    }

    /// A signed integer argument.
    /// - Throws: `.argument` "Integer expected: X".
    /// - Throws: "Number too large: X" beyond ±`Int32.max`.
    public static func integer(_ text: String) throws(ProtocolError) -> Int {
        do { return try checkedInteger(text) } catch { throw error.protocolError }
    }

    /// `unsigned`, with the failure's kind.
    static func checkedUnsigned(_ text: String) throws(NumberError) -> Int {
        let v = try checkedInteger(text)
        guard v >= 0 else { throw .negative(text) }
        return v
    }

    /// `integer`, with the failure's kind.
    static func checkedInteger(_ text: String) throws(NumberError) -> Int {
        guard let v = Int(text) else {
            let digits = text.drop(while: { $0 == "-" || $0 == "+" })
            if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) { throw .tooLarge(text) }
            throw .notInteger(text)
        }
        // No abs(): it traps on Int.min.
        guard v <= Int(Int32.max), v >= -Int(Int32.max) else { throw .tooLarge(text) }
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
    /// - Throws: `RangeError.bound` naming the bound's text (not the whole
    ///   argument's) when a bound is not an unsigned number;
    ///   `.endBeforeStart` for END < START.
    public static func range(_ text: String) throws(RangeError) -> Range<Int> {
        func bound(_ text: String) throws(RangeError) -> Int {
            do { return try checkedUnsigned(text) } catch { throw .bound(error) }
        }
        guard let colon = text.firstIndex(of: ":") else {
            let v = try bound(text)
            return v..<(v + 1)
        }
        let start = try bound(String(text[..<colon]))
        let endText = String(text[text.index(after: colon)...])
        if endText.isEmpty { return start..<Int.max }
        let end = try bound(endText)
        guard end >= start else { throw .endBeforeStart }
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
