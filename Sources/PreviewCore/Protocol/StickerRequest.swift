/// One `sticker` command (MPD's protocol, "Stickers"), parsed and checked
/// before anything is read or written: `sticker get|set|delete|list|find`
/// as mpd 0.23 takes them, and `inc`/`dec` as mpd 0.24 added them. Only the
/// `song` type exists, as in mpd 0.23.
public enum StickerRequest: Equatable, Sendable {
    /// How `find` compares the stored value with the one given.
    public enum Comparison: Equatable, Sendable {
        /// `=`: the same text.
        case equals(String)
        /// `<`, `>`: mpd compares the text as SQLite does (`value < ?`).
        case lessThan(String), greaterThan(String)
    }

    /// `sticker get song URI NAME`.
    case get(uri: String, name: String)
    /// `sticker set song URI NAME VALUE`.
    case set(uri: String, name: String, value: String)
    /// `sticker inc|dec song URI NAME DELTA`: adds `delta` (negative for
    /// `dec`) to the stored integer, or sets it when there is none.
    case add(uri: String, name: String, delta: Int64)
    /// `sticker delete song URI [NAME]`: one sticker, or all of the song's.
    case delete(uri: String, name: String?)
    /// `sticker list song URI`.
    case list(uri: String)
    /// `sticker find song BASE NAME [OP VALUE]`: songs under `base` ("" for
    /// all) that have `name`, and whose value compares so.
    case find(base: String, name: String, comparison: Comparison?)

    /// The longest sticker name, in UTF-8 bytes.
    public static let maxNameBytes = 255
    /// The longest value, in UTF-8 bytes: a rating or a count needs a few,
    /// and the store's size stays bounded (`maxNameBytes`, `maxValueBytes`
    /// and the store's count of stickers).
    public static let maxValueBytes = 1024

    /// Parses `sticker`'s arguments (the words after `sticker`).
    /// - Throws: `.argument` with mpd's words: "unknown sticker domain" for a
    ///   type other than `song`, "bad request" for an unknown subcommand or
    ///   the wrong count for it, "bad operator" in `find`, "Integer
    ///   expected: X" for `inc`/`dec`; and previewd's bounds: names of at
    ///   most `maxNameBytes`, values of at most `maxValueBytes`, no control
    ///   characters (the store is read back line by line).
    public static func parse(_ args: [String]) throws(ProtocolError) -> StickerRequest {
        guard args.count >= 3 else { throw ProtocolError(.argument, "too few arguments for \"sticker\"") }
        guard args[1] == "song" else { throw ProtocolError(.argument, "unknown sticker domain") }
        let uri = args[2]
        let request: StickerRequest
        switch (args[0], args.count) {
        case ("get", 4): request = .get(uri: uri, name: args[3])
        case ("set", 5): request = .set(uri: uri, name: args[3], value: args[4])
        case ("inc", 5), ("dec", 5):
            guard let n = Int64(args[4]), n != .min else { throw ProtocolError(.argument, "Integer expected: \(args[4])") }
            request = .add(uri: uri, name: args[3], delta: args[0] == "inc" ? n : -n)
        case ("delete", 3): request = .delete(uri: uri, name: nil)
        case ("delete", 4): request = .delete(uri: uri, name: args[3])
        case ("list", 3): request = .list(uri: uri)
        case ("find", 4): request = .find(base: uri, name: args[3], comparison: nil)
        case ("find", 6):
            let value = args[5]
            let comparison: Comparison
            switch args[4] {
            case "=": comparison = .equals(value)
            case "<": comparison = .lessThan(value)
            case ">": comparison = .greaterThan(value)
            default: throw ProtocolError(.argument, "bad operator")
            }
            request = .find(base: uri, name: args[3], comparison: comparison)
        default: throw ProtocolError(.argument, "bad request")
        }
        try request.checkBounds()
        return request
    }

    /// The sticker name the request is about, when it names one.
    public var name: String? {
        switch self {
        case .get(_, let name), .set(_, let name, _), .add(_, let name, _), .find(_, let name, _): return name
        case .delete(_, let name): return name
        case .list: return nil
        }
    }

    private func checkBounds() throws(ProtocolError) {
        if let name {
            guard !name.isEmpty else { throw ProtocolError(.argument, "empty sticker name") }
            guard name.utf8.count <= Self.maxNameBytes else {
                throw ProtocolError(.argument, "sticker name too long (at most \(Self.maxNameBytes) bytes)")
            }
            try Self.checkText(name, what: "sticker name")
        }
        if case .set(_, _, let value) = self {
            guard value.utf8.count <= Self.maxValueBytes else {
                throw ProtocolError(.argument, "sticker value too long (at most \(Self.maxValueBytes) bytes)")
            }
            try Self.checkText(value, what: "sticker value")
        }
    }

    private static func checkText(_ text: String, what: String) throws(ProtocolError) {
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw ProtocolError(.argument, "control characters in the \(what)")
        }
    }
}
