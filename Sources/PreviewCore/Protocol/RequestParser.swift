/// Splits one MPD request line into words, following the tokenizer rules of
/// MPD's protocol: the command name is a bare word; each argument is either a
/// bare word (no whitespace or quotes) or a double-quoted string in which a
/// backslash escapes the next character.
public enum RequestParser {
    /// Whether `line` is one bare word (a command without arguments, like
    /// `status`), which `parse` would return unchanged as its only word.
    public static func isBareWord(_ line: String) -> Bool {
        !line.isEmpty && line.utf8.allSatisfy { $0 > 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "'") }
    }

    /// Parses `line` (without its trailing newline; a trailing `\r` is ignored).
    /// - Returns: the command name followed by its arguments; empty for a blank line.
    /// - Throws: `ProtocolError(.unknown, ...)` (MPD uses code 5 here) for an unbalanced quote or a
    ///   quote glued to a bare word.
    public static func parse(_ line: String) throws(ProtocolError) -> [String] {
        if isBareWord(line) { return [line] }
        var text = line
        // Read in place from the string's own UTF-8 storage.
        return try text.withUTF8 { all in Result { () throws(ProtocolError) in try split(all) } }.get()
    }

    private static func split(_ all: UnsafeBufferPointer<UInt8>) throws(ProtocolError) -> [String] {
        var words: [String] = []
        var n = all.count
        if n > 0, all[n - 1] == UInt8(ascii: "\r") { n -= 1 }
        var i = 0
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        while i < n {
            while i < n, isSpace(all[i]) { i += 1 }
            if i >= n { break }
            if all[i] == UInt8(ascii: "\"") {
                if words.isEmpty { throw ProtocolError(.unknown, "No command given") }
                i += 1
                let start = i
                var escaped: [UInt8]?  // only built when a backslash occurs
                var closed = false
                while i < n {
                    let b = all[i]
                    if b == UInt8(ascii: "\\") {
                        if escaped == nil { escaped = Array(all[start..<i]) }
                        i += 1
                        if i < n { escaped!.append(all[i]); i += 1 }
                        continue
                    }
                    if b == UInt8(ascii: "\"") { closed = true; break }
                    escaped?.append(b)
                    i += 1
                }
                if !closed { throw ProtocolError(.unknown, "Missing closing '\"'") }
                let end = i
                i += 1
                if i < n, !isSpace(all[i]) {
                    throw ProtocolError(.unknown, "Space expected after closing '\"'")
                }
                if let escaped {
                    words.append(String(decoding: escaped, as: UTF8.self))
                } else {
                    words.append(String(decoding: UnsafeBufferPointer(rebasing: all[start..<end]), as: UTF8.self))
                }
            } else {
                let start = i
                while i < n, !isSpace(all[i]) {
                    if all[i] == UInt8(ascii: "\"") || all[i] == UInt8(ascii: "'") {
                        throw ProtocolError(.unknown, "Invalid unquoted character")
                    }
                    i += 1
                }
                words.append(String(decoding: UnsafeBufferPointer(rebasing: all[start..<i]), as: UTF8.self))
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
