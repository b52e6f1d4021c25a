import PreviewCore

/// previewctl's catalog subcommands (`search`, `chart`, `album`, `artist`,
/// `related`, `info`): what to ask the daemon and how to show the answer.
public struct CatalogCommand: Equatable, Sendable {
    /// What to look up.
    public enum Query: Equatable, Sendable {
        /// A page of Deezer's search of each of `kinds` (`tracks`, `albums`,
        /// ...; one request each, in order); `page` counts from 1.
        case search(kinds: [String], text: String, fields: [SearchField], limit: Int, page: Int)
        /// A page of Last.fm's chart of `kind` for a country or a tag
        /// (`limit` entries a page, `page` from 1), found on Deezer.
        case chart(kind: String, country: String?, tag: String?, limit: Int, page: Int)
        case album(Int)
        case artist(Int)
        /// "More like this" for an artist, album or track URI.
        case related(String)
        case info(String)
        /// `info ID`: a bare id, looked up as each of `CatalogCommand.idKinds`.
        case anyKind(Int)
        /// The songs of a URI (`lsinfo`): a Deezer playlist opened from a listing.
        case songs(String)
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
    /// `--play N`/`--add N`: entry N (from 1, as numbered) of this listing
    /// only; on an album page the whole album, played from its Nth track.
    public var pick: Int?

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
        guard o.words.count == 1 else { throw ControlCommand.UsageError(message: "info takes one URI or id") }
        if let id = Int(o.words[0]), id > 0 {
            self = CatalogCommand(query: .anyKind(id))
        } else {
            self = CatalogCommand(query: .info(o.words[0]))
        }
        (add, play, json, pick) = (o.add, o.play, o.json, o.pick)
    }

    /// The kinds `info ID` tries a bare id as, in this order.
    public static let idKinds = ["album", "track", "artist", "playlist"]

    /// What `--add`/`--play` queue: an album as itself (so its songs carry
    /// the album's title, in one request), other results one by one.
    /// With `pick`, entry N alone (an album page: the album).
    /// - Throws: `UsageError` when the listing has no entry N.
    public func urisToQueue(_ records: [CatalogRecord]) throws(ControlCommand.UsageError) -> [String] {
        var records = records
        if case .album = query, records.first?.kind == "album" { records.removeFirst() }  // the page's header
        if let pick {
            guard pick <= records.count else {
                throw ControlCommand.UsageError(
                    message: "the listing has \(records.count) \(records.count == 1 ? "entry" : "entries"), not \(pick)")
            }
            if case .album(let id) = query { return ["deezer:album:\(id)"] }
            return [records[pick - 1].uri]
        }
        if case .album(let id) = query, !records.isEmpty { return ["deezer:album:\(id)"] }
        // An artist's page queues its top tracks, not every album too.
        if case .artist = query { return records.filter { $0.kind == "track" }.map(\.uri) }
        // A radio goes in as itself: one request instead of one per track.
        if case .radio(let uri) = query, uri.hasPrefix("deezer:radio:"), !records.isEmpty { return [uri] }
        if case .songs(let uri) = query, !records.isEmpty { return [uri] }
        return records.map(\.uri)
    }

    /// The record `--play N`/`--add N` names, when it is one entry of the
    /// listing (not an album page's track: the album goes in whole).
    public func pickedRecord(_ records: [CatalogRecord]) -> CatalogRecord? {
        guard let pick, pick >= 1 else { return nil }
        if case .album = query { return nil }
        return pick <= records.count ? records[pick - 1] : nil
    }

    /// The requests to send, one reply each.
    public var requests: [String] {
        let q = RequestParser.quote
        switch query {
        case .search(let kinds, let text, let fields, let limit, let page):
            return kinds.map { Self.searchRequest(kind: $0, text: text, fields: fields, limit: limit, page: page) }
        case .chart(let kind, let country, let tag, let limit, let page):
            let window = " limit \(limit) page \(page)"
            if let country { return ["catalogchart \(kind) country \(q(country))" + window] }
            if let tag { return ["catalogchart \(kind) tag \(q(tag))" + window] }
            return ["catalogchart \(kind)"]
        case .info(let uri): return ["cataloginfo \(q(uri))"]
        case .anyKind(let id): return Self.idKinds.map { "cataloginfo deezer:\($0):\(id)" }
        case .songs(let uri): return ["lsinfo \(q(uri))"]
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

    /// Why the catalog says the song cannot be played here (its
    /// `Unplayable` field), or nil.
    public var unplayable: String? { value("Unplayable") }

    /// `Artist - Title`, or the title alone, for messages and short lists.
    public var label: String {
        let c = columns
        return c.artist.isEmpty ? c.title : "\(c.artist) - \(c.title)"
    }

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

    /// The fields of a piped line (`CatalogFormat.plain`): title (or name),
    /// artist (or creator), a detail (an album's type and date, an artist's
    /// fans, a playlist's tracks) and duration; the same six for every kind,
    /// so that scripts cut by position.
    var columns: (title: String, artist: String, album: String, duration: String) {
        let title = value("Title") ?? value("Name") ?? uri
        let seconds = kind == "track" ? value("Time").flatMap { Seconds.parse($0) } : nil
        var detail = value("Album") ?? ""
        if kind == "album" { detail = [value("Type"), value("Date")].compactMap { $0 }.joined(separator: ", ") }
        if kind == "artist" { detail = value("Fans").map { "\($0) fans" } ?? "" }
        if kind == "playlist" { detail = value("Tracks").map { "\($0) tracks" } ?? "" }
        return (
            title, value("Artist") ?? value("Creator") ?? "", detail,
            seconds.map { ControlFormat.clock($0) } ?? ""
        )
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
    public static func json(
        _ records: [CatalogRecord], total: Int?, unresolved: Int? = nil,
        unresolvedNames: [String]? = nil
    ) -> String {
        let names = [
            "Title": "title", "Name": "name", "Artist": "artist", "Album": "album", "Time": "duration",
            "Tracks": "tracks", "Date": "date", "Type": "type", "Fans": "fans", "Albums": "albums",
            "Creator": "creator", "Label": "label", "ISRC": "isrc", "Rank": "rank",
            "TrackDuration": "track_duration", "AlbumDuration": "album_duration",
            "Unplayable": "unplayable", "AlbumURI": "album_uri", "ArtistURI": "artist_uri", "BPM": "bpm",
        ]
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
                || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
            {
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
