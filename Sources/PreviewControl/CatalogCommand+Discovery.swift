import PreviewCore

/// The browsing subcommands of previewctl: `chart`, `genres`, `picks`,
/// `releases`, `radios`, `radio`, `album`, `artist` and `related` (issue 16,
/// items 2 to 5), and how their answers are shown.
extension CatalogCommand {
    typealias UsageError = ControlCommand.UsageError

    /// The subcommands `init(browsing:options:)` parses.
    static let browsingNames: Set<String> = [
        "chart", "genres", "picks", "releases", "radios", "radio",
        "album", "artist", "related",
    ]
    static let chartKinds = ["tracks", "albums", "artists", "playlists"]

    /// Parses one of `browsingNames` from its options and words.
    /// - Throws: `UsageError` naming the word or option that is wrong.
    init(browsing name: String, options o: CatalogOptions) throws(UsageError) {
        query = try CatalogCommand.browsingQuery(name, o)
        add = o.add
        play = o.play || o.shuffle
        json = o.json
        shuffle = o.shuffle
        pick = o.pick
    }

    private static func browsingQuery(_ name: String, _ o: CatalogOptions) throws(UsageError) -> Query {
        let paging = ["--limit", "--page"]
        func noWords() throws(UsageError) {
            guard o.words.isEmpty else { throw UsageError(message: "\(name) takes no words, not \"\(o.words[0])\"") }
        }
        func genre() -> String { o.genre.map { " genre \(RequestParser.quote($0))" } ?? "" }
        switch name {
        case "genres":
            try noWords()
            try o.only(paging, for: name)
            let paged = o.given.contains("--limit") || o.page > 1
            return .genres(limit: paged ? o.limit : nil, page: o.page)
        case "chart":
            return try chartQuery(o)
        case "picks", "releases":
            try noWords()
            try o.only(["--genre"] + paging, for: name)
            return .list(command: "catalogeditorial \(name)" + genre(), limit: o.limit, page: o.page)
        case "radios":
            try noWords()
            try o.only(["--genre", "--top"] + paging, for: name)
            guard o.genre == nil || !o.top else { throw UsageError(message: "radios takes --genre or --top, not both") }
            return .list(command: "catalogradios" + (o.top ? " top" : genre()), limit: o.limit, page: o.page)
        case "radio":
            try o.only([], for: name)
            let uri = try itemURI(name, o.words, kinds: ["artist", "radio"])
            return .radio(uri)
        case "artist":
            try o.only(["--radio"], for: name)
            let id = try catalogID("artist", name, o.words)
            return o.radio ? .radio("deezer:artist:\(id)") : .artist(id)
        case "album":
            try o.only(["--shuffle"], for: name)
            return .album(try catalogID("album", name, o.words))
        default:  // related
            try o.only([], for: name)
            return .related(try itemURI(name, o.words, kinds: ["artist", "album", "track"]))
        }
    }

    /// `chart [KIND] [--genre G] [--limit N] [--page N]` (Deezer's), or
    /// `chart [tracks|artists|albums] --country NAME | --tag TAG [--limit N]
    /// [--page N]` (Last.fm's; albums by tag only, as Last.fm has no album
    /// chart by country).
    private static func chartQuery(_ o: CatalogOptions) throws(UsageError) -> Query {
        guard o.words.count <= 1 else { throw UsageError(message: "chart takes at most one kind") }
        let kind = o.words.first ?? "tracks"
        guard chartKinds.contains(kind) else {
            throw UsageError(message: "chart kinds are tracks, albums, artists and playlists, not \"\(kind)\"")
        }
        guard o.country != nil || o.tag != nil else {
            try o.only(["--genre", "--limit", "--page"], for: "chart")
            let genre = o.genre.map { " genre \(RequestParser.quote($0))" } ?? ""
            return .list(command: "catalogchart \(kind)" + genre, limit: o.limit, page: o.page)
        }
        guard o.country == nil || o.tag == nil else { throw UsageError(message: "chart takes --country or --tag, not both") }
        guard o.genre == nil else { throw UsageError(message: "chart takes --genre or --country/--tag, not both") }
        try o.only(["--country", "--tag", "--limit", "--page"], for: "chart --country/--tag")
        guard kind != "playlists" else { throw UsageError(message: "country and tag charts list tracks, artists and albums") }
        guard kind != "albums" || o.country == nil else {
            throw UsageError(message: "Last.fm has no album chart by country: use --tag")
        }
        return .chart(kind: kind, country: o.country, tag: o.tag, limit: o.limit, page: o.page)
    }

    /// The one id of `album ID` or `artist ID`: a positive number or the
    /// item's `deezer:KIND:ID`.
    private static func catalogID(_ kind: String, _ name: String, _ words: [String]) throws(UsageError) -> Int {
        guard words.count == 1 else { throw UsageError(message: "\(name) takes one \(kind) id") }
        if let n = Int(words[0]), n > 0 { return n }
        switch (kind, try? CatalogURI(parsing: words[0])) {
        case ("album", .album(let n)?), ("artist", .artist(let n)?): return n
        default: throw UsageError(message: "\(name) takes a \(kind) id or deezer:\(kind):ID, not \"\(words[0])\"")
        }
    }

    /// The one URI of `radio` and `related`, of one of `kinds`; a bare
    /// number is an artist id.
    private static func itemURI(_ name: String, _ words: [String], kinds: [String]) throws(UsageError) -> String {
        guard words.count == 1 else { throw UsageError(message: "\(name) takes one URI") }
        if let n = Int(words[0]), n > 0 { return "deezer:artist:\(n)" }
        let text = (try? CatalogURI(parsing: words[0]))?.text ?? ""
        guard kinds.contains(where: { text.hasPrefix("deezer:\($0):") }) else {
            let list = kinds.map { "deezer:\($0):ID" }.joined(separator: ", ")
            throw UsageError(message: "\(name) takes an artist id or \(list), not \"\(words[0])\"")
        }
        return text
    }

    /// The requests of the browsing queries, one reply each.
    var browsingRequests: [String] {
        switch query {
        case .genres(let limit?, let page): return ["cataloggenres limit \(limit) index \((page - 1) * limit)"]
        case .genres: return ["cataloggenres"]
        case .list(let command, let limit, let page): return ["\(command) limit \(limit) index \((page - 1) * limit)"]
        case .radio(let uri):
            return uri.hasPrefix("deezer:artist:") ? ["catalogradio \(uri)"] : ["lsinfo \(uri)"]
        case .related(let uri): return ["catalogrelated \(uri)"]
        case .album(let id): return ["cataloginfo deezer:album:\(id)", "lsinfo deezer:album:\(id)"]
        case .artist(let id):
            return ["lsinfo deezer:artist:\(id)", "catalogalbums deezer:artist:\(id)", "catalogrelated deezer:artist:\(id)"]
        default: return []
        }
    }

    /// The heading over each request's results on a terminal (nil: none):
    /// an artist's page has three sections, a search of several kinds one
    /// a kind.
    var headings: [String?] {
        switch query {
        case .search(let kinds, _, _, _, _) where kinds.count > 1: return kinds.map { $0.prefix(1).uppercased() + $0.dropFirst() }
        case .artist: return ["Top tracks", "Albums", "Related artists"]
        default: return requests.map { _ in nil }
        }
    }

    /// The numbered entries of the replies, as `render` numbers them (an
    /// album page's header record is not one): what `open N`, `--play N`
    /// and `playlist NAME add N` count in.
    public func entries(_ replies: [[(String, String)]]) -> [CatalogRecord] {
        var records = CatalogRecord.split(replies.flatMap { $0 })
        if case .album = query, records.first?.kind == "album" { records.removeFirst() }
        return records
    }

    /// What previewctl prints for `fields`, the replies of a command of one
    /// request (see `render(replies:terminal:width:)`).
    public func render(_ fields: [(String, String)], terminal: Bool, width: Int) -> String {
        render(replies: [fields], terminal: terminal, width: width)
    }

    /// What previewctl prints for the replies (one a request, in order):
    /// JSON, the `info` fields as they came, a table on a terminal (`width`
    /// cells; an album page's header above it, headed sections for an
    /// artist's page and a search of several kinds, the range of a paged
    /// list below it), or tab-separated lines for a pipe. Entries are
    /// numbered from 1 through every section. The range is where the page
    /// stands in the whole list (`CatalogFormat.range`), shown where a
    /// total is known.
    public func render(replies: [[(String, String)]], terminal: Bool, width: Int) -> String {
        let fields = replies.flatMap { $0 }
        let number = { (key: String) in fields.first { $0.0 == key }.flatMap { Int($0.1) } }
        let total = number("total"), unresolved = number("unresolved")
        if json {
            return CatalogFormat.json(
                CatalogRecord.split(fields), total: total, unresolved: unresolved,
                unresolvedNames: unresolvedNames(fields))
        }
        if case .info = query { return fields.map { "\($0.0): \($0.1)\n" }.joined() }
        let records = entries(replies)
        guard terminal else { return CatalogFormat.plain(records) }
        var header = ""
        if case .album = query, let album = CatalogRecord.split(fields).first, album.kind == "album" {
            header = CatalogFormat.albumHeader(album)
        }
        let headings = self.headings
        if headings.contains(where: { $0 != nil }) {
            var out = "", first = 1
            for (i, reply) in replies.enumerated() {
                let section = CatalogRecord.split(reply)
                if !out.isEmpty { out += "\n" }
                if let heading = headings[i] { out += heading + "\n" }
                out += CatalogFormat.table(section, width: width, first: first)
                first += section.count
            }
            return header + out
        }
        var start = firstIndex
        var count = records.count
        if case .list(_, let limit, let page) = query { start = (page - 1) * limit }
        if case .genres(let limit?, let page) = query { start = (page - 1) * limit }
        if case .chart(_, _, _, let limit, let page) = query {
            // The range counts Last.fm's entries, those Deezer lacks too.
            start = (page - 1) * limit
            count += unresolved ?? 0
        }
        let footer = CatalogFormat.range(first: start, count: count, total: total).map { $0 + "\n" } ?? ""
        return header + CatalogFormat.table(records, width: width) + footer
    }

    /// The entries of a Last.fm chart that Deezer lacks (`unresolved_name:`
    /// lines), for a `.chart` query; nil for the rest.
    func unresolvedNames(_ fields: [(String, String)]) -> [String]? {
        guard case .chart = query else { return nil }
        return fields.filter { $0.0 == "unresolved_name" }.map(\.1)
    }

    /// What previewctl writes on stderr for the replies' `fields`: one
    /// `previewctl: not found on Deezer: Artist - Title` line per entry of
    /// a Last.fm chart that Deezer lacks; empty for the rest.
    public func notices(_ fields: [(String, String)]) -> String {
        (unresolvedNames(fields) ?? []).map { "previewctl: not found on Deezer: \($0)\n" }.joined()
    }
}

extension CatalogFormat {
    /// An album page's header: title, artist, `genre · year`, label and
    /// the number of tracks, one line each (lines Deezer gave nothing for
    /// are left out), then an empty line.
    public static func albumHeader(_ album: CatalogRecord) -> String {
        let genres = album.fields.filter { $0.0 == "Genre" }.map(\.1).joined(separator: ", ")
        let year = album.value("Date").map { String($0.prefix(4)) }
        let lines: [String?] = [
            album.value("Title") ?? album.uri, album.value("Artist"),
            [genres.isEmpty ? nil : genres, year].compactMap { $0 }.joined(separator: " · "),
            album.value("Label"), album.value("Tracks").map { $0 == "1" ? "1 track" : "\($0) tracks" },
        ]
        return lines.compactMap { $0 }.filter { !$0.isEmpty }.map { $0 + "\n" }.joined() + "\n"
    }
}
