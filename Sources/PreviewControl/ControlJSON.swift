import PreviewCore

/// previewctl's `--json` documents for `status`, `queue`, `want`,
/// `library` and `playlists`, built from the daemon's reply fields. Numbers
/// are JSON numbers, switches booleans, absent values `null` or left out
/// (the shapes are in docs/clients.md, "JSON").
public enum ControlJSON {
    /// A JSON value.
    public indirect enum Value: Equatable, Sendable {
        case string(String)
        /// A number, written as given (already in JSON's syntax).
        case number(String)
        case bool(Bool)
        case null
        case array([Value])
        case object([(String, Value)])

        public static func == (a: Value, b: Value) -> Bool { a.text == b.text }

        /// The value as JSON text, keys in the order given.
        public var text: String {
            switch self {
            case .string(let s): return CatalogFormat.jsonString(s)
            case .number(let n): return n
            case .bool(let b): return b ? "true" : "false"
            case .null: return "null"
            case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
            case .object(let pairs):
                return "{" + pairs.map { CatalogFormat.jsonString($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
            }
        }
    }

    /// `text` as a JSON number when it is one in JSON's own syntax (not
    /// `inf`, `0x10` or `1.`), else nil.
    public static func number(_ text: String?) -> Value? {
        guard let text, let x = Double(text), x.isFinite,
            text.allSatisfy({ "-0123456789.eE+".contains($0) }), text.last?.isNumber == true,
            text.first?.isNumber == true || text.first == "-"
        else { return nil }
        return .number(text)
    }

    /// `status`: state, volume, modes, the queue's length, the current
    /// song (position from 1, id, times in seconds, its tags) or null.
    public static func status(status s: [String: String], song: [String: String]) -> String {
        var pairs: [(String, Value)] = [
            ("state", .string(s["state"] ?? "stop")),
            ("volume", number(s["volume"]) ?? .null),
            ("repeat", .bool(s["repeat"] == "1")), ("random", .bool(s["random"] == "1")),
            ("single", .string(s["single"] ?? "0")), ("consume", .bool(s["consume"] == "1")),
            ("autoplay", .bool(s["autoplay"] == "1")),
            ("crossfade", number(s["xfade"]) ?? .number("0")),
            ("length", number(s["playlistlength"]) ?? .number("0")),
        ]
        if s["state"] != "stop", !song.isEmpty {
            var current = songObject(song)
            if let pos = s["song"].flatMap({ Int($0) }) { current.insert(("position", .number(String(pos + 1))), at: 0) }
            current += [
                ("elapsed", number(s["elapsed"]) ?? .null), ("bitrate", number(s["bitrate"]) ?? .null),
                ("audio", s["audio"].map(Value.string) ?? .null),
            ]
            pairs.append(("song", .object(current)))
        } else {
            pairs.append(("song", .null))
        }
        pairs.append(("error", s["error"].map(Value.string) ?? .null))
        return Value.object(pairs).text + "\n"
    }

    /// One song's fields as JSON: id, uri, title, artist, album, duration
    /// (seconds), the ones it has.
    static func songObject(_ song: [String: String]) -> [(String, Value)] {
        var pairs: [(String, Value)] = []
        if let id = number(song["Id"]) { pairs.append(("id", id)) }
        pairs.append(("uri", .string(song["file"] ?? "")))
        for (key, field) in [("title", "Title"), ("artist", "Artist"), ("album", "Album")] {
            if let v = song[field] { pairs.append((key, .string(v))) }
        }
        if let d = number(song["duration"]) { pairs.append(("duration", d)) }
        return pairs
    }

    /// `queue`: every song in order, with its position (from 1) and
    /// whether it is the current one.
    public static func queue(_ songs: [[String: String]], current: Int?) -> String {
        let items = songs.enumerated().map { i, song in
            Value.object([("position", .number(String(i + 1)))] + songObject(song) + [("current", .bool(i == current))])
        }
        return Value.object([("songs", .array(items))]).text + "\n"
    }

    /// `want` and `library`: each record (newest first) with its kind, URI,
    /// title, artist and when it was added (ISO 8601, as the daemon says).
    public static func saved(_ records: [CatalogRecord]) -> String {
        let items = records.map { r in
            var pairs: [(String, Value)] = [("kind", .string(r.kind)), ("uri", .string(r.uri))]
            for (key, field) in [("title", "Title"), ("artist", "Artist"), ("added", "added")] {
                if let v = r.value(field) { pairs.append((key, .string(v))) }
            }
            return Value.object(pairs)
        }
        return Value.object([("items", .array(items))]).text + "\n"
    }

    /// `playlists`: each stored playlist's name and last change.
    public static func playlists(_ fields: [(String, String)]) -> String {
        var items: [[(String, Value)]] = []
        for (k, v) in fields {
            if k == "playlist" { items.append([("name", .string(v))]) }
            if k == "Last-Modified", !items.isEmpty { items[items.count - 1].append(("modified", .string(v))) }
        }
        return Value.object([("playlists", .array(items.map(Value.object)))]).text + "\n"
    }

    /// Takes `--json` out of the words of the commands that list things
    /// (`status`, `queue`, `want`, `library`, `playlists`).
    /// - Returns: the other words, and whether `--json` was among them.
    public static func takeFlag(_ arguments: [String]) -> (arguments: [String], json: Bool) {
        guard let name = arguments.first, ["status", "queue", "want", "library", "playlists"].contains(name),
            arguments.contains("--json")
        else { return (arguments, false) }
        return (arguments.filter { $0 != "--json" }, true)
    }
}
