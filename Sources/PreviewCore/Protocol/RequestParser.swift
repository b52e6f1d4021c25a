/// Splits one MPD request line into words, following the tokenizer rules of
/// MPD's protocol: the command name is a bare word; each argument is either a
/// bare word (no whitespace or quotes) or a double-quoted string in which a
/// backslash escapes the next character.
public enum RequestParser {
    /// Parses `line` (without its trailing newline; a trailing `\r` is ignored).
    /// Whether `line` is one bare word (a command without arguments, like
    /// `status`), which `parse` would return unchanged as its only word.
    public static func isBareWord(_ line: String) -> Bool {
        !line.isEmpty && line.utf8.allSatisfy { $0 > 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "'") }
    }

    /// - Returns: the command name followed by its arguments; empty for a blank line.
    /// - Throws: `ProtocolError(.unknown, ...)` (MPD uses code 5 here) for an unbalanced quote or a
    ///   quote glued to a bare word.
    public static func parse(_ line: String) throws(ProtocolError) -> [String] {
        if isBareWord(line) { return [line] }
        var words: [String] = []
        var bytes = Array(line.utf8)
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        var i = 0
        let n = bytes.count
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        while i < n {
            while i < n, isSpace(bytes[i]) { i += 1 }
            if i >= n { break }
            if bytes[i] == UInt8(ascii: "\"") {
                if words.isEmpty { throw ProtocolError(.unknown, "No command given") }
                i += 1
                var word: [UInt8] = []
                var closed = false
                while i < n {
                    let b = bytes[i]
                    if b == UInt8(ascii: "\\") {
                        i += 1
                        if i < n { word.append(bytes[i]); i += 1 }
                        continue
                    }
                    if b == UInt8(ascii: "\"") { closed = true; i += 1; break }
                    word.append(b)
                    i += 1
                }
                if !closed { throw ProtocolError(.unknown, "Missing closing '\"'") }
                if i < n, !isSpace(bytes[i]) {
                    throw ProtocolError(.unknown, "Space expected after closing '\"'")
                }
                words.append(String(decoding: word, as: UTF8.self))
            } else {
                let start = i
                while i < n, !isSpace(bytes[i]) {
                    if bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                        throw ProtocolError(.unknown, "Invalid unquoted character")
                    }
                    i += 1
                }
                words.append(String(decoding: bytes[start..<i], as: UTF8.self))
            }
        }
        return words
    }

    /// Quotes `argument` for sending in a request line: wraps it in double
    /// quotes and escapes `"` and `\` with a backslash.
    public static func quote(_ argument: String) -> String {
        var out = "\""
        for ch in argument.unicodeScalars {
            if ch == "\"" || ch == "\\" { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(ch)
        }
        out += "\""
        return out
    }
}
