import PreviewCatalog
import PreviewCore

// previewd's own commands for looking around the Deezer catalog. Replies are
// `key: value` records opened by a URI key: `file: deezer:track:ID` for songs
// (with MPD's song tags), `album:`, `artist:` and `playlist:`
// (`deezer:KIND:ID`) for the rest, so MPD clients and previewctl parse them
// alike.
extension Commands {
    // `catalogsearch tracks|albums|artists|playlists|radios QUERY [FIELD
    // VALUE]...`: one page of Deezer's search, with its `total`.

    static func handleCatalogsearch(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let b = s.catalog
        let search = try CatalogSearch(call.args)
        // One page of KIND, each item written by `write`, then the total.
        func page<Item: Decodable & Sendable>(_: Item.Type, _ write: @escaping (Item) -> Void) {
            catalogRequest(b, search.path, as: DeezerPage<Item>.self, call: call) { page in
                // No more than asked for, whatever the catalog sent.
                page.data.prefix(search.limit).forEach(write)
                call.reply.total(page.total)
            }
        }
        switch search.kind {
        case .tracks: page(DeezerTrack.self) { call.reply.song($0.song(), tags: call.session.tags) }
        case .albums: page(DeezerAlbum.self) { call.reply.album($0) }
        case .artists: page(DeezerArtist.self) { call.reply.artist($0) }
        case .playlists: page(DeezerPlaylist.self) { call.reply.playlist($0) }
        case .radios: page(DeezerRadio.self) { call.reply.radio($0) }
        }
        return .pending
    }

    // Lists to start from: Deezer's charts, Last.fm's country and tag
    // charts (found on Deezer), and Deezer's genres.

    /// catalogchart [tracks|albums|artists|playlists]
    /// catalogchart KIND [genre G] [limit N] [index N] (Commands+Discovery.swift)
    /// catalogchart tracks|artists|albums country NAME|tag TAG [limit N] [page N]
    /// (`country ""`: the daemon's own; tracks by country without a Last.fm
    /// key: Deezer's "Top COUNTRY" playlist where there is one)
    static func handleCatalogchart(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let b = s.catalog
        let kind = call.args.first ?? "tracks"
        guard ["tracks", "albums", "artists", "playlists"].contains(kind) else {
            throw ProtocolError(.argument, "chart kinds are tracks, albums, artists and playlists")
        }
        if call.args.count > 1, call.args[1] != "country", call.args[1] != "tag" {
            try pagedChart(kind, call.args.dropFirst(), s, call: call)
            return .pending
        }
        if call.args.count > 1 {
            guard let lastfmKind = LastfmClient.Kind(rawValue: kind) else {
                throw ProtocolError(.argument, "country and tag charts list tracks, artists and albums")
            }
            var filter = try ChartFilter(call.args.dropFirst())
            if let text = filter.country {
                let country = try chartCountry(text, s)
                filter.country = country.lastfmName
                if lastfmKind == .tracks, let id = deezerChart(of: country.code, s) {
                    let window = try ListWindow(["limit", "\(filter.limit)", "index", "\((filter.page - 1) * filter.limit)"][...])
                    pagedList(b, "/playlist/\(id)/tracks", paged: true, window, as: DeezerTrack.self, call: call) { track in
                        call.reply.song(track.song(), tags: call.session.tags)
                    }
                    return .pending
                }
            }
            lastfmChart(lastfmKind, filter, s, call: call)
            return .pending
        }
        catalogRequest(b, "/chart", as: DeezerChart.self, call: call) { chart in
            switch kind {
            case "albums": for a in chart.albums?.data ?? [] { call.reply.album(a) }
            case "artists": for a in chart.artists?.data ?? [] { call.reply.artist(a) }
            case "playlists": for p in chart.playlists?.data ?? [] { call.reply.playlist(p) }
            default: for tr in chart.tracks?.data ?? [] { call.reply.song(tr.song(), tags: call.session.tags) }
            }
        }
        return .pending
    }

    /// cataloggenres: Deezer's genres.
    /// cataloggenres [limit N] [index N]: all genres, or a window of the
    /// list with its `total` (Deezer sends the list whole).
    static func handleCataloggenres(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let b = s.catalog
        let write = { (g: DeezerGenre) in
            call.reply.field("genre", g.id)
            if let name = g.name { call.reply.field("Name", name) }
        }
        guard !call.args.isEmpty else {
            catalogRequest(b, "/genre", as: DeezerPage<DeezerGenre>.self, call: call) { $0.data.forEach(write) }
            return .pending
        }
        let w = try ListWindow(call.args[...])
        guard w.genre == nil else { throw ProtocolError(.argument, "cataloggenres takes limit and index") }
        pagedList(b, "/genre", paged: false, w, as: DeezerGenre.self, call: call, each: write)
        return .pending
    }

    /// The country `text` names: "" is the daemon's own (`--country`, else
    /// the locale's), anything else a code, name or alias (`CountryTable`).
    /// Without Debian's iso-codes the text goes to Last.fm as typed.
    /// - Throws: `.noExist` for an unknown name, or "" without a country of one's own.
    static func chartCountry(_ text: String, _ s: Services) throws(ProtocolError) -> Country {
        if text.isEmpty {
            guard let own = s.defaultCountry else {
                // The settings file may be under $XDG_CONFIG_HOME or named by --config: --print-config says which.
                throw ProtocolError(
                    .noExist,
                    "no country of your own: set country = CODE in the settings file "
                        + "(previewd --print-config names it) or start previewd with --country CODE "
                        + "or a locale such as LANG=de_DE.UTF-8")
            }
            return own
        }
        guard !s.countries.countries.isEmpty else { return Country(code: "", code3: "", name: text) }
        guard let country = s.countries.find(text) else { throw s.countries.unknown(text) }
        return country
    }

    /// The playlist of Deezer's own chart of country `code`, where tracks by
    /// country come from it: without a Last.fm key, for the countries
    /// Deezer keeps one of (`DeezerCountryCharts`).
    static func deezerChart(of code: String, _ s: Services) -> Int? {
        s.lastfm.hasKey ? nil : DeezerCountryCharts.playlists[code]
    }

    /// Answers a `catalogchart` call with one page of Last.fm's chart, each
    /// entry found on Deezer (one search each), in Last.fm's order: the
    /// records, `total: N` where Last.fm gave its chart's size, one
    /// `unresolved_name: Artist - Title` (or `Artist`) per entry Deezer
    /// lacks, then `unresolved: N` counting them, so a client can tell a
    /// short list from a short chart and say which entries are missing.
    private static func lastfmChart(_ kind: LastfmClient.Kind, _ filter: ChartFilter, _ s: Services, call: CommandCall) {
        let b = s.catalog
        s.lastfm.top(kind, country: filter.country, tag: filter.tag, limit: filter.limit, page: filter.page) { result in
            switch result {
            case .failure(let e): call.finish(e.protocolError)
            case .success(let chart):
                let entries = chart.entries
                // Writes the found records, then the totals and the names of the rest.
                func finish(_ found: [Bool]) {
                    call.reply.total(chart.total)
                    let missing = zip(entries, found).filter { !$0.1 }.map(\.0)
                    for entry in missing { call.reply.field("unresolved_name", entry.name) }
                    // The count stays the reply's last line, where clients have always found it.
                    call.reply.field("unresolved", missing.count)
                    call.finish(nil)
                }
                let pairs = entries.map { (artist: $0.artist, title: $0.title ?? "") }
                switch kind {
                case .tracks:
                    b.resolve(pairs) { tracks in
                        for track in tracks.compactMap({ $0 }) { call.reply.song(track.song(), tags: call.session.tags) }
                        finish(tracks.map { $0 != nil })
                    }
                case .artists:
                    b.resolveArtists(entries.map(\.artist)) { artists in
                        for artist in artists.compactMap({ $0 }) { call.reply.artist(artist) }
                        finish(artists.map { $0 != nil })
                    }
                case .albums:
                    b.resolveAlbums(pairs) { albums in
                        for album in albums.compactMap({ $0 }) { call.reply.album(album) }
                        finish(albums.map { $0 != nil })
                    }
                }
            }
        }
    }

    // One item and what hangs off it: `cataloginfo` for any URI (or
    // `isrc:CODE`), and an artist's albums, related artists and radio.

    /// cataloginfo URI (or isrc:CODE): one record with the item's details.
    static func handleCataloginfo(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let b = s.catalog
        let arg = call.args[0]
        if let trackPath = try trackInfoPath(arg) {
            catalogRequest(b, trackPath, as: DeezerTrack.self, call: call) { track in
                call.reply.trackDetails(track, tags: call.session.tags)
            }
            return .pending
        }
        switch try CatalogURI(parsing: arg) {
        case .album(let id):
            catalogRequest(b, "/album/\(id)", as: DeezerAlbum.self, call: call) { album in
                call.reply.album(album, details: true)
            }
        case .artist(let id):
            catalogRequest(b, "/artist/\(id)", as: DeezerArtist.self, call: call) { artist in
                call.reply.artist(artist)
            }
        case .playlist(let id):
            catalogRequest(b, "/playlist/\(id)", as: DeezerPlaylist.self, call: call) { playlist in
                call.reply.playlist(playlist)
            }
        default:
            throw ProtocolError(.argument, "cataloginfo takes deezer:track, album, artist or playlist URIs")
        }
        return .pending
    }

    /// catalogalbums deezer:artist:ID: the artist's albums (every page).
    static func handleCatalogalbums(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let b = s.catalog
        guard case .artist(let id) = try CatalogURI(parsing: call.args[0]) else {
            throw ProtocolError(.argument, "catalogalbums takes a deezer:artist:ID URI")
        }
        b.pages("/artist/\(id)/albums?index=0&limit=100", as: DeezerAlbum.self, item: call.args[0]) { result in
            switch result {
            case .failure(let e): call.finish(e)
            case .success(let albums):
                for a in albums { call.reply.album(a) }
                call.finish(nil)
            }
        }
        return .pending
    }

    /// catalogrelated deezer:artist:ID: "more like this" (albums and
    /// tracks: Commands+Related.swift).
    static func handleCatalogrelated(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let b = s.catalog
        let uri = try CatalogURI(parsing: call.args[0])
        if related(to: uri, s, call: call) { return .pending }
        guard case .artist(let id) = uri else {
            throw ProtocolError(.argument, "catalogrelated takes a deezer:artist, album or track URI")
        }
        catalogRequest(b, "/artist/\(id)/related", as: DeezerPage<DeezerArtist>.self, call: call) { page in
            for a in page.data { call.reply.artist(a) }
        }
        return .pending
    }

    /// catalogradio deezer:artist:ID: a mix of tracks like the artist's.
    static func handleCatalogradio(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let b = s.catalog
        guard case .artist(let id) = try CatalogURI(parsing: call.args[0]) else {
            throw ProtocolError(.argument, "catalogradio takes a deezer:artist:ID URI")
        }
        catalogRequest(b, "/artist/\(id)/radio", as: DeezerPage<DeezerTrack>.self, call: call) { page in
            for track in page.data { call.reply.song(track.song(), tags: call.session.tags) }
        }
        return .pending
    }

    /// The API path of the track `cataloginfo` asks about, or nil when the
    /// argument names another kind of item. An ISRC is looked up by Deezer
    /// itself (`/track/isrc:CODE`), upper-cased as Deezer stores them.
    /// - Throws: `.argument` for an ISRC that is not letters and digits, and
    ///   `CatalogURI`'s ACK for text that is no catalog URI.
    private static func trackInfoPath(_ arg: String) throws(ProtocolError) -> String? {
        if arg.lowercased().hasPrefix("isrc:") {
            let code = String(arg.dropFirst(5))
            guard !code.isEmpty, code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw ProtocolError(.argument, "an ISRC is letters and digits, not \"\(code)\"")
            }
            return "/track/isrc:\(code.uppercased())"
        }
        if case .track(let id) = try CatalogURI(parsing: arg) { return "/track/\(id)" }
        return nil
    }

    // `catalogstats`: how the API was used (requests sent, cache hits), to
    // see the cache at work.

    static func handleCatalogstats(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let b = s.catalog
        call.reply.field("requests", b.counts.requests)
        call.reply.field("cache_hits", b.counts.cacheHits)
        return .done
    }
}

extension Commands {
    /// One catalog request for a command: `fill` writes the reply from the
    /// answer; an error becomes the command's ACK, naming the command's
    /// first argument (the URI asked about) or "catalog".
    static func catalogRequest<T: Decodable>(
        _ browser: CatalogBrowser, _ path: String, as type: T.Type, call: CommandCall,
        fill: @escaping (T) -> Void
    ) {
        let item = call.args.first.map { (try? CatalogURI(parsing: $0))?.text ?? $0 } ?? "catalog"
        browser.request(path, as: type, item: item) { call.answer($0, fill: fill) }
    }
}

/// `catalogsearch KIND QUERY [FIELD VALUE]...` with Deezer's advanced fields.
struct CatalogSearch {
    let kind: DeezerSearch.Kind
    let path: String
    /// Entries asked for: no more are written, whatever the catalog sends.
    let limit: Int

    init(_ args: [String]) throws(ProtocolError) {
        let kindName = args[0].hasSuffix("s") ? args[0] : args[0] + "s"
        guard let kind = DeezerSearch.Kind(rawValue: kindName) else {
            throw ProtocolError(.argument, "search kinds are tracks, albums, artists, playlists and radios")
        }
        self.kind = kind
        var terms: [String] = []
        if !args[1].isEmpty { terms.append(args[1]) }
        var limit = DeezerSearch.defaultLimit
        var index = 0
        var i = 2
        while i < args.count {
            let field = args[i]
            guard i + 1 < args.count else { throw ProtocolError(.argument, "\(field) needs a value") }
            let value = args[i + 1]
            if DeezerSearch.textFields.contains(field) {
                terms.append(DeezerSearch.term(field, value))
            } else if DeezerSearch.numberFields.contains(field) {
                terms.append("\(field):\(try Arguments.unsigned(value))")
            } else if field == "limit" {
                limit = try Arguments.unsigned(value)
                guard DeezerSearch.limits.contains(limit) else {
                    throw ProtocolError(.argument, "limit is \(DeezerSearch.limits.lowerBound) to \(DeezerSearch.limits.upperBound)")
                }
            } else if field == "index" {
                index = try Arguments.unsigned(value)
            } else {
                throw ProtocolError(
                    .argument,
                    "unknown search field \"\(field)\" (artist, album, track, label, dur_min, dur_max, bpm_min, bpm_max, limit, index)")
            }
            i += 2
        }
        guard !terms.isEmpty else { throw ProtocolError(.argument, "empty search") }
        let endpoint = "/search/" + kind.rawValue.dropLast()
        path = endpoint + "?q=" + percentEncodeQueryValue(terms.joined(separator: " ")) + "&index=\(index)&limit=\(limit)"
        self.limit = limit
    }
}

/// `country NAME | tag TAG [limit N] [page N]` after `catalogchart KIND`:
/// which Last.fm chart, how many entries a page holds (1 to 100, default
/// 20) and which page (from 1; Last.fm's own `page`).
struct ChartFilter {
    var country: String?
    var tag: String?
    /// Entries of a page when no `limit` is given (each costs a Deezer search).
    static let defaultLimit = 20
    var limit = ChartFilter.defaultLimit
    var page = 1

    /// - Throws: `.argument` for an option without a value, an unknown
    ///   option, a limit outside 1...100, a page of 0, or not exactly one of
    ///   country and tag.
    init(_ args: ArraySlice<String>) throws(ProtocolError) {
        let args = Array(args)
        var i = 0
        while i < args.count {
            guard i + 1 < args.count else { throw ProtocolError(.argument, "\(args[i]) needs a value") }
            switch args[i] {
            case "country": country = args[i + 1]
            case "tag": tag = args[i + 1]
            case "limit":
                limit = try Arguments.unsigned(args[i + 1])
                guard (1...100).contains(limit) else { throw ProtocolError(.argument, "limit is 1 to 100") }
            case "page":
                page = try Arguments.unsigned(args[i + 1])
                guard page >= 1 else { throw ProtocolError(.argument, "pages count from 1") }
            default: throw ProtocolError(.argument, "chart filters are country, tag, limit and page")
            }
            i += 2
        }
        guard (country == nil) != (tag == nil) else { throw ProtocolError(.argument, "give a country or a tag") }
    }
}

extension Reply {
    /// `cataloginfo`'s record for a track: the song, then what only the
    /// track's own page has (ISRC, rank, BPM, the album's and artist's
    /// URIs, and its own release date when the album gave the song none).
    mutating func trackDetails(_ track: DeezerTrack, tags: TagSelection) {
        let song = track.song()
        self.song(song, tags: tags)
        if let d = track.duration { field("TrackDuration", d) }
        if let date = track.release_date, song.albumTags?.date == nil { field("Date", date) }
        if let isrc = track.isrc { field("ISRC", isrc) }
        if let rank = track.rank { field("Rank", rank) }
        if let bpm = track.bpm, bpm > 0 { field("BPM", formatSeconds(bpm)) }
        if let albumID = track.album?.id { field("AlbumURI", "deezer:album:\(albumID)") }
        if let artistID = track.artist?.id { field("ArtistURI", "deezer:artist:\(artistID)") }
    }

    mutating func album(_ a: DeezerAlbum, details: Bool = false) {
        field("album", "deezer:album:\(a.id)")
        if let v = a.title { field("Title", v) }
        if let v = a.artist?.name { field("Artist", v) }
        if let v = a.nb_tracks { field("Tracks", v) }
        if let v = a.release_date { field("Date", v) }
        if let v = a.record_type { field("Type", v) }
        if details {
            for g in a.genres?.data ?? [] { if let name = g.name { field("Genre", name) } }
            if let v = a.label { field("Label", v) }
            if let v = a.duration { field("AlbumDuration", v) }
            if let v = a.fans { field("Fans", v) }
            if let v = a.artist?.id { field("ArtistURI", "deezer:artist:\(v)") }
        }
    }

    mutating func artist(_ a: DeezerArtist) {
        field("artist", "deezer:artist:\(a.id)")
        if let v = a.name { field("Name", v) }
        if let v = a.nb_album { field("Albums", v) }
        if let v = a.nb_fan { field("Fans", v) }
    }

    mutating func playlist(_ p: DeezerPlaylist) {
        field("playlist", "deezer:playlist:\(p.id)")
        if let v = p.title { field("Title", v) }
        if let v = p.nb_tracks { field("Tracks", v) }
        if let v = (p.creator ?? p.user)?.name { field("Creator", v) }
        if let v = p.fans { field("Fans", v) }
    }

    mutating func radio(_ r: DeezerRadio) {
        field("radio", "deezer:radio:\(r.id)")
        if let v = r.displayTitle { field("Title", v) }
    }

    mutating func total(_ n: Int?) {
        if let n { field("total", n) }
    }
}
