/// The client side of the protocol: reads one reply (`key: value` lines up
/// to `OK` or an `ACK` line) from text received so far.
public enum ResponseParser {
    /// A complete reply.
    public enum Reply: Equatable, Sendable {
        /// `OK`, with the fields before it in order.
        case ok([(String, String)])
        /// `ACK [code@index] {command} message`, with the fields before it.
        case ack(code: Int, index: Int, command: String, message: String, fields: [(String, String)])

        public static func == (a: Reply, b: Reply) -> Bool {
            switch (a, b) {
            case (.ok(let x), .ok(let y)): return x.elementsEqual(y, by: ==)
            case (.ack(let c1, let i1, let m1, let t1, let f1), .ack(let c2, let i2, let m2, let t2, let f2)):
                return c1 == c2 && i1 == i2 && m1 == m2 && t1 == t2 && f1.elementsEqual(f2, by: ==)
            default: return false
            }
        }
    }

    /// Parses the reply at the start of `lines` (each without its newline).
    /// - Returns: the reply and how many lines it used, or nil when it is not complete yet.
    public static func parse(_ lines: ArraySlice<String>) -> (Reply, Int)? {
        var fields: [(String, String)] = []
        var used = 0
        for line in lines {
            used += 1
            if line == "OK" || line == "list_OK" { return (.ok(fields), used) }
            if isAck(line) { return (parseAck(line, fields), used) }
            if let field = field(line[...]) { fields.append(field) }
        }
        return nil
    }

    /// The fields of a reply as a dictionary: the first value of each name.
    public static func dictionary(_ fields: [(String, String)]) -> [String: String] {
        var d: [String: String] = [:]
        for (k, v) in fields where d[k] == nil { d[k] = v }
        return d
    }

    /// Whether `line` is an error reply: `ACK [code@index] {command} message`,
    /// or a bare `ACK` from a server that says no more.
    public static func isAck(_ line: String) -> Bool { line == "ACK" || line.hasPrefix("ACK ") }

    /// The `key: value` pairs of reply text (lines without `: ` are skipped).
    public static func fields(of text: String) -> [(String, String)] {
        text.split(separator: "\n").compactMap(field)
    }

    /// A reply line's `NAME: VALUE`, split at the first ": ", or nil
    /// without one. A byte scan: `firstRange(of:)` would bring
    /// _StringProcessing's searcher, which costs previewctl's every start.
    public static func field(_ line: Substring) -> (String, String)? {
        let bytes = line.utf8
        var from = bytes.startIndex
        while let colon = bytes[from...].firstIndex(of: UInt8(ascii: ":")) {
            let next = bytes.index(after: colon)
            guard next < bytes.endIndex else { return nil }
            if bytes[next] == UInt8(ascii: " ") {
                return (String(line[..<colon]), String(line[bytes.index(after: next)...]))
            }
            from = next
        }
        return nil
    }

    private static func parseAck(_ line: String, _ fields: [(String, String)]) -> Reply {
        // ACK [code@index] {command} message
        var code = 0, index = 0
        var command = ""
        var message = line
        if let open = line.firstIndex(of: "["), let at = line[open...].firstIndex(of: "@"),
            let close = line[at...].firstIndex(of: "]")
        {
            code = Int(line[line.index(after: open)..<at]) ?? 0
            index = Int(line[line.index(after: at)..<close]) ?? 0
            let rest = line[line.index(after: close)...].drop(while: { $0 == " " })
            if rest.first == "{", let end = rest.firstIndex(of: "}") {
                command = String(rest[rest.index(after: rest.startIndex)..<end])
                message = String(rest[rest.index(after: end)...].drop(while: { $0 == " " }))
            } else {
                message = String(rest)
            }
        }
        return .ack(code: code, index: index, command: command, message: message, fields: fields)
    }
}
