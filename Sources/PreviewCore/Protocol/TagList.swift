/// `list TAG [FILTER] [group TAG]...` as mpd 0.23 parses and answers it.
public struct TagList: Equatable, Sendable {
    /// What is listed: a tag type, or the songs' URIs (`list file`).
    public enum Key: Equatable, Sendable {
        case file
        case tag(TagType)

        /// The reply's key (`Genre`, `file`).
        public var name: String {
            switch self {
            case .file: return "file"
            case .tag(let t): return t.mpdName
            }
        }

        /// A song's values; a song without the tag counts once as `""`, as
        /// mpd lists it (`Genre: `).
        func values(_ song: Song) -> [String] {
            switch self {
            case .file: return [song.uri]
            case .tag(let t):
                let found = song.values(of: t, fallback: true)
                return found.isEmpty ? [""] : found
            }
        }
    }

    /// The tag whose values are listed.
    public var key: Key
    /// The `group` tags, outermost first (mpd nests the last one given
    /// outermost).
    public var groups: [TagType]
    /// The songs to look at, or nil for the whole database.
    public var filter: SongFilter?

    /// Parses `list`'s arguments.
    /// - Throws: `.argument` with mpd's texts: "Unknown tag type: X",
    ///   `should be "Album" for 3 arguments`, "Conflicting group", and the
    ///   filter's own errors.
    public init(_ args: [String]) throws(ProtocolError) {
        guard let first = args.first else { throw ProtocolError(.argument, "too few arguments") }
        if first.lowercased() == "file" || first.lowercased() == "filename" {  // `filename`: mpd's older name
            key = .file
        } else if let tag = TagType(name: first) {
            key = .tag(tag)
        } else {
            throw ProtocolError(.argument, "Unknown tag type: \(first)")
        }
        var rest = Array(args.dropFirst())
        groups = []
        while rest.count >= 2, rest[rest.count - 2] == "group" {
            guard let group = TagType(name: rest[rest.count - 1]) else {
                throw ProtocolError(.argument, "Unknown tag type: \(rest[rest.count - 1])")
            }
            guard key != .tag(group), !groups.contains(group) else { throw ProtocolError(.argument, "Conflicting group") }
            groups.append(group)
            rest.removeLast(2)
        }
        if rest.count == 1, !rest[0].hasPrefix("(") {
            // mpd 0.23 still takes `list album ARTIST`, for that tag only.
            guard key == .tag(.album) else { throw ProtocolError(.argument, "should be \"Album\" for 3 arguments") }
            rest = ["artist", rest[0]]
        }
        filter = rest.isEmpty ? nil : try SongFilter.parse(rest, foldCase: false)
    }

    /// The reply's lines as (key, value) pairs: each group value, sorted
    /// bytewise as mpd's std::map does, followed by the values inside it.
    public func lines(for songs: [Song]) -> [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        let levels = groups.map(Key.tag) + [key]
        emit(levels[...], songs, into: &out)
        return out
    }

    private func emit(_ levels: ArraySlice<Key>, _ songs: [Song], into out: inout [(key: String, value: String)]) {
        guard let level = levels.first else { return }
        let name = level.name
        if levels.count == 1 {
            var seen = Set<String>()
            for song in songs { for v in level.values(song) { seen.insert(v) } }
            for v in seen.sorted(by: TagList.bytewise) { out.append((name, v)) }
            return
        }
        var buckets: [String: [Song]] = [:]
        for song in songs { for v in Set(level.values(song)) { buckets[v, default: []].append(song) } }
        for v in buckets.keys.sorted(by: TagList.bytewise) {
            out.append((name, v))
            emit(levels.dropFirst(), buckets[v]!, into: &out)
        }
    }

    /// mpd's order: by UTF-8 bytes.
    static func bytewise(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// `count [FILTER] group TAG`'s groups: each value of `tag` (sorted
    /// bytewise, `""` for songs without it) with its songs.
    public static func grouped(_ songs: [Song], by tag: TagType) -> [(value: String, songs: [Song])] {
        var buckets: [String: [Song]] = [:]
        for song in songs { for v in Set(Key.tag(tag).values(song)) { buckets[v, default: []].append(song) } }
        return buckets.keys.sorted(by: bytewise).map { ($0, buckets[$0]!) }
    }
}
