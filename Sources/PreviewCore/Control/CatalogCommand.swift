/// previewctl's catalog subcommands (`search`, `chart`, `album`, `artist`,
/// `related`, `info`): what to ask the daemon and how to show the answer.
public struct CatalogCommand: Equatable, Sendable {
    /// What to look up.
    public enum Query: Equatable, Sendable {
        /// A page of Deezer's search; `page` counts from 1.
        case search(kind: String, text: String, fields: [SearchField], limit: Int, page: Int)
        /// A page of Last.fm's chart of `kind` for a country or a tag
        /// (`limit` entries a page, `page` from 1), found on Deezer.
        case chart(kind: String, country: String?, tag: String?, limit: Int, page: Int)
        case album(Int)
        case artist(Int)
        /// "More like this" for an artist, album or track URI.
        case related(String)
        case info(String)
        /// Deezer's genres: all of them, or one page when `limit` or a page
        /// past the first is given (`page` from 1).
        case genres(limit: Int?, page: Int)
        /// A paged list: `command` (`catalogchart tracks genre "rock"`,
        /// `catalogeditorial picks`, `catalogradios top`, ...) is sent with
        /// `limit` and the index of `page` (from 1).
        case list(command: String, limit: Int, page: Int)
        /// An artist's mix (`deezer:artist:ID`) or a radio's tracks
        /// (`deezer:radio:ID`).
        case radio(String)
    }

    public var query: Query

    /// A command for `query` without flags.
    init(query: Query) { self.query = query }

    /// `--add`: queue the results.
    public var add = false
    /// `--play`: queue the results and play the first of them.
    public var play = false
    /// `--json`: one JSON document instead of a table.
    public var json = false
    /// `--shuffle` (album pages): queue in shuffled order and play.
    public var shuffle = false

    /// Parses the words after the subcommand name `name`.
    /// - Throws: `ControlCommand.UsageError`.
    public init(name: String, arguments: [String]) throws(ControlCommand.UsageError) {
        if name == "search" {
            self = try CatalogCommand(search: arguments)
            return
        }
        let o = try CatalogOptions(name: name, arguments: arguments)
        if CatalogCommand.browsingNames.contains(name) {
            self = try CatalogCommand(browsing: name, options: o)
            return
        }
        guard name == "info" else { throw ControlCommand.UsageError(message: "unknown command \"\(name)\"", unknownCommand: name) }
        guard o.words.count == 1 else { throw ControlCommand.UsageError(message: "info takes one URI") }
        self = CatalogCommand(query: .info(o.words[0]))
        (add, play, json) = (o.add, o.play, o.json)
    }

    /// What `--add`/`--play` queue: an album as itself (so its songs carry
    /// the album's title, in one request), other results one by one.
    public func urisToQueue(_ records: [CatalogRecord]) -> [String] {
        if case .album(let id) = query, !records.isEmpty { return ["deezer:album:\(id)"] }
        // A radio goes in as itself: one request instead of one per track.
        if case .radio(let uri) = query, uri.hasPrefix("deezer:radio:"), !records.isEmpty { return [uri] }
        return records.map(\.uri)
    }

    /// The requests to send, one reply each.
    public var requests: [String] {
        let q = RequestParser.quote
        switch query {
        case .search(let kind, let text, let fields, let limit, let page):
            return [Self.searchRequest(kind: kind, text: text, fields: fields, limit: limit, page: page)]
        case .chart(let kind, let country, let tag, let limit, let page):
            let window = " limit \(limit) page \(page)"
            if let country { return ["catalogchart \(kind) country \(q(country))" + window] }
            if let tag { return ["catalogchart \(kind) tag \(q(tag))" + window] }
            return ["catalogchart \(kind)"]
        case .info(let uri): return ["cataloginfo \(q(uri))"]
        default: return browsingRequests
        }
    }
}

/// One result: a song, album, artist or playlist record from a reply.
public struct CatalogRecord: Equatable, Sendable {
    /// `track`, `album`, `artist`, `playlist`, `radio` or `genre`.
    public var kind: String
    /// `deezer:KIND:ID`.
    public var uri: String
    /// Every field in reply order, the URI's first.
    public var fields: [(String, String)]

    public static func == (a: CatalogRecord, b: CatalogRecord) -> Bool {
        a.kind == b.kind && a.uri == b.uri && a.fields.elementsEqual(b.fields, by: ==)
    }

    public func value(_ key: String) -> String? { fields.first { $0.0 == key }?.1 }

    /// Splits reply fields into records; each `file`, `album`, `artist`,
    /// `playlist` or `radio` key opens one. Fields before the first record are dropped.
    public static func split(_ fields: [(String, String)]) -> [CatalogRecord] {
        let openers = ["file": "track", "album": "album", "artist": "artist", "playlist": "playlist", "radio": "radio"]
        var out: [CatalogRecord] = []
        for (k, v) in fields {
            if k == "genre", let id = Int(v) {  // `cataloggenres` names genres by id alone
                out.append(CatalogRecord(kind: "genre", uri: "deezer:genre:\(id)", fields: [(k, v)]))
            } else if let kind = openers[k], v.hasPrefix("deezer:") || k == "file" {
                out.append(CatalogRecord(kind: kind, uri: v, fields: [(k, v)]))
            } else if !out.isEmpty {
                out[out.count - 1].fields.append((k, v))
            }
        }
        return out
    }

    /// The columns previewctl shows: title (or name), artist, album, duration.
    var columns: (title: String, artist: String, album: String, duration: String) {
        let title = value("Title") ?? value("Name") ?? uri
        let seconds = kind == "track" ? value("Time").flatMap { Seconds.parse($0) } : nil
        var detail = value("Album") ?? ""
        if kind == "album" { detail = [value("Type"), value("Date")].compactMap { $0 }.joined(separator: ", ") }
        if kind == "artist" { detail = value("Fans").map { "\($0) fans" } ?? "" }
        if kind == "playlist" { detail = value("Tracks").map { "\($0) tracks" } ?? "" }
        return (title, value("Artist") ?? value("Creator") ?? "", detail,
                seconds.map { ControlFormat.clock($0) } ?? "")
    }
}

/// Text and JSON renderings of catalog results.
public enum CatalogFormat {
    /// Where a page of results stands in the whole list, as the table's
    /// last line: `21–40 of 199` (positions from 1). Nil without a total
    /// or without results.
    public static func range(first index: Int, count: Int, total: Int?) -> String? {
        guard let total, count > 0 else { return nil }
        return "\(index + 1)–\(index + count) of \(total)"
    }

    /// Columns aligned to `width` terminal cells (no colours), titles cut
    /// with `…`; one header line.
    /// `width` is taken within 1 ... 1000 (a `COLUMNS` of any size).
    public static func table(_ records: [CatalogRecord], width: Int) -> String {
        guard !records.isEmpty else { return "no results\n" }
        let width = min(max(width, 1), 1000)
        let rows = records.map(\.columns)
        let numberWidth = String(records.count).count + 1
        let uriWidth = records.map { displayWidth($0.uri) }.max()!
        let durationWidth = 5
        let fixed = numberWidth + durationWidth + uriWidth + 8  // separators
        let flexible = max(30, width - fixed)
        let titleWidth = flexible * 4 / 10, artistWidth = flexible * 3 / 10
        let albumWidth = flexible - titleWidth - artistWidth
        func line(_ n: String, _ t: String, _ a: String, _ al: String, _ d: String, _ u: String) -> String {
            pad(n, numberWidth, right: true) + "  " + pad(t, titleWidth) + " " + pad(a, artistWidth) + " "
                + pad(al, albumWidth) + " " + pad(d, durationWidth, right: true) + "  " + u
        }
        var out = line("#", "TITLE", "ARTIST", "ALBUM", "TIME", "URI") + "\n"
        for (i, r) in rows.enumerated() {
            out += line("\(i + 1)", r.title, r.artist, r.album, r.duration, records[i].uri) + "\n"
        }
        return out
    }

    /// One tab-separated line per result, for scripts reading a pipe.
    public static func plain(_ records: [CatalogRecord]) -> String {
        records.enumerated().map { i, r in
            let c = r.columns
            return ["\(i + 1)", c.title, c.artist, c.album, c.duration, r.uri]
                .map { $0.replacingTabs }.joined(separator: "\t") + "\n"
        }.joined()
    }

    /// `{"results":[{"kind":…,"uri":…,"title":…,…}],"total":N}` with stable
    /// lower-case field names; numbers stay strings only where Deezer's are.
    /// `unresolved`: how many entries the daemon could not find (`unresolved: N`);
    /// `unresolvedNames`, when given, names them (`"unresolved_names":["Artist - Title",…]`).
    public static func json(_ records: [CatalogRecord], total: Int?, unresolved: Int? = nil,
                            unresolvedNames: [String]? = nil) -> String {
        let names = ["Title": "title", "Name": "name", "Artist": "artist", "Album": "album", "Time": "duration",
                     "Tracks": "tracks", "Date": "date", "Type": "type", "Fans": "fans", "Albums": "albums",
                     "Creator": "creator", "Label": "label", "ISRC": "isrc", "Rank": "rank",
                     "TrackDuration": "track_duration", "AlbumDuration": "album_duration",
                     "Unplayable": "unplayable", "AlbumURI": "album_uri", "ArtistURI": "artist_uri", "BPM": "bpm"]
        let numeric: Set<String> = ["duration", "tracks", "fans", "albums", "rank", "track_duration", "album_duration"]
        var items: [String] = []
        for r in records {
            var members = ["\"kind\":" + jsonString(r.kind), "\"uri\":" + jsonString(r.uri)]
            // An album's page names each of its genres (one `Genre` line each).
            let genres = r.kind == "album" ? r.fields.filter { $0.0 == "Genre" }.map { jsonString($0.1) } : []
            for (k, v) in r.fields.dropFirst() {
                guard let name = names[k] else { continue }
                if numeric.contains(name), let n = Int(v) {
                    members.append("\"\(name)\":\(n)")
                } else {
                    members.append("\"\(name)\":" + jsonString(v))
                }
            }
            if !genres.isEmpty { members.append("\"genres\":[" + genres.joined(separator: ",") + "]") }
            items.append("{" + members.joined(separator: ",") + "}")
        }
        var doc = "{\"results\":[" + items.joined(separator: ",") + "]"
        if let total { doc += ",\"total\":\(total)" }
        if let unresolved { doc += ",\"unresolved\":\(unresolved)" }
        if let unresolvedNames { doc += ",\"unresolved_names\":[" + unresolvedNames.map(jsonString).joined(separator: ",") + "]" }
        return doc + "}\n"
    }

    /// A JSON string literal (RFC 8259 escapes).
    public static func jsonString(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // C0 as JSON requires; DEL and C1 too, so that no raw control
            // character reaches a terminal that shows the document.
            case _ where u.value < 0x20 || (0x7F...0x9F).contains(u.value):
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// Terminal cells `s` takes: East Asian wide characters take two,
    /// combining marks none.
    public static func displayWidth(_ s: String) -> Int {
        var w = 0
        for u in s.unicodeScalars {
            let v = u.value
            if u.properties.generalCategory == .nonspacingMark || u.properties.generalCategory == .enclosingMark { continue }
            if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
                || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v) {
                w += 2
            } else {
                w += 1
            }
        }
        return w
    }

    /// `s` cut (with `…`) or padded with spaces to exactly `width` cells.
    static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        var text = s
        if displayWidth(text) > width {
            var cut = ""
            for ch in text {
                if displayWidth(cut + String(ch)) > width - 1 { break }
                cut.append(ch)
            }
            text = cut + "…"
        }
        let fill = String(repeating: " ", count: max(0, width - displayWidth(text)))
        return right ? fill + text : text + fill
    }
}

extension String {
    var replacingTabs: String { String(map { $0 == "\t" || $0 == "\n" ? " " : $0 }) }
}
