import PreviewCatalog
import PreviewCore

// Discovery lists (issue 16, items 2 to 4): genre charts, editorial picks
// and releases, radios and "more like this" from an album or a track.
// Replies are records as in Commands+Catalog.swift, plus `radio:
// deezer:radio:ID` with `Title:`, and `total: N` where a total is known.
extension Commands {
    // `catalogeditorial picks|releases [genre G] [limit N] [index N]` and
    // `catalogradios [genre G | top] [limit N] [index N]`.

    static func handleCatalogeditorial(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let b = s.catalog
        let list = call.args[0]
        guard list == "picks" || list == "releases" else {
            throw ProtocolError(.argument, "editorial lists are picks and releases, not \"\(list)\"")
        }
        let w = try ListWindow(call.args.dropFirst())
        withGenre(w.genre, b, call: call) { id in
            // Picks come as one unpaged `{data}`; releases page as charts do.
            let path = list == "picks" ? "/editorial/\(id)/selection" : "/editorial/\(id)/releases"
            pagedList(b, path, paged: list == "releases", w, as: DeezerAlbum.self, call: call) { call.reply.album($0) }
        }
        return .pending
    }

    static func handleCatalogradios(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let b = s.catalog
        let w = try ListWindow(call.args[...], allowTop: true)
        if w.top {
            pagedList(b, "/radio/top", paged: true, w, as: DeezerRadio.self, call: call) { call.reply.radio($0) }
            return .pending
        }
        guard let genre = w.genre else {
            pagedList(b, "/radio", paged: false, w, as: DeezerRadio.self, call: call) { call.reply.radio($0) }
            return .pending
        }
        withGenre(genre, b, call: call) { id in
            pagedList(b, "/genre/\(id)/radios", paged: false, w, as: DeezerRadio.self, call: call) { call.reply.radio($0) }
        }
        return .pending
    }

    /// `catalogchart KIND [genre G] [limit N] [index N]`: one page of
    /// Deezer's chart of that kind for a genre (0, all, by default).
    /// - Throws: `.argument` for a bad window (`ListWindow`); an unknown
    ///   genre name is the call's ACK.
    static func pagedChart(_ kind: String, _ args: ArraySlice<String>, _ s: Services, call: CommandCall) throws(ProtocolError) {
        let w = try ListWindow(args)
        let b = s.catalog
        withGenre(w.genre, b, call: call) { id in
            let path = "/chart/\(id)/\(kind)"
            switch kind {
            case "albums": pagedList(b, path, paged: true, w, as: DeezerAlbum.self, call: call) { call.reply.album($0) }
            case "artists": pagedList(b, path, paged: true, w, as: DeezerArtist.self, call: call) { call.reply.artist($0) }
            case "playlists":
                pagedList(b, path, paged: true, w, as: DeezerPlaylist.self, call: call) { call.reply.playlist($0) }
            default:
                pagedList(b, path, paged: true, w, as: DeezerTrack.self, call: call) {
                    call.reply.song($0.song(), tags: call.session.tags)
                }
            }
        }
    }

    /// Calls `then` with the id of the genre `text` names: 0 (all) for
    /// nil, the number itself for an id, else the `/genre` entry whose name
    /// equals it without case (one request, cached). A name that matches
    /// none finishes the call with `.argument` listing the close names.
    static func withGenre(_ text: String?, _ b: CatalogBrowser, call: CommandCall, then: @escaping (Int) -> Void) {
        guard let text else { return then(0) }
        if let id = Int(text), id >= 0 { return then(id) }
        b.request("/genre", as: DeezerPage<DeezerGenre>.self, item: "genre \"\(text)\"") { result in
            switch result {
            case .failure(let e): call.finish(e)
            case .success(let page):
                let genres = page.data.compactMap { g in g.name.map { (id: g.id, name: $0) } }
                switch GenreMatch.find(text, in: genres) {
                case .found(let id): then(id)
                case .notFound(let close):
                    call.finish(ProtocolError(.argument, GenreMatch.refusal(text, close: close, all: genres.map(\.name))))
                }
            }
        }
    }

    /// One window of a list, each item written by `each`, then `total`.
    /// A `paged` endpoint is asked for the window (`index`, `limit`) and
    /// gives its own total; an unpaged one (`/radio`, `/genre/ID/radios`,
    /// `/editorial/ID/selection` answer `{data}` alone) is asked once, so
    /// every window shares one cached answer, and cut here, its length
    /// being the total.
    static func pagedList<T: Decodable & Sendable>(
        _ b: CatalogBrowser, _ path: String, paged: Bool, _ w: ListWindow,
        as type: T.Type, call: CommandCall, each: @escaping (T) -> Void
    ) {
        let full = paged ? path + "?index=\(w.index)&limit=\(w.limit)" : path
        // Errors name the list, not the command's first word (`tracks`).
        let item = w.genre.map { "\(path) (genre \"\($0)\")" } ?? path
        b.request(full, as: DeezerPage<T>.self, item: item) { result in
            call.answer(result) { page in
                let items = paged ? page.data.prefix(w.limit) : page.data.dropFirst(w.index).prefix(w.limit)
                items.forEach(each)
                call.reply.total(paged ? page.total : page.data.count)
            }
        }
    }
}

/// `genre G`, `top`, `limit N` and `index N` after a discovery command:
/// which genre (a name or an id, as given) and which window of the list.
struct ListWindow {
    var genre: String?
    var top = false
    var index = 0
    /// 1 ... 100; Deezer's own lists page by 25 at most by default.
    var limit = 25

    /// - Throws: `.argument` for a word without its value, an unknown word,
    ///   a limit outside 1...100, or both `genre` and `top`.
    init(_ args: ArraySlice<String>, allowTop: Bool = false) throws(ProtocolError) {
        let args = Array(args)
        var i = 0
        while i < args.count {
            if args[i] == "top", allowTop {
                top = true
                i += 1
                continue
            }
            guard i + 1 < args.count else { throw ProtocolError(.argument, "\(args[i]) needs a value") }
            let value = args[i + 1]
            switch args[i] {
            case "genre": genre = value
            case "index": index = try Arguments.unsigned(value)
            case "limit":
                limit = try Arguments.unsigned(value)
                guard (1...100).contains(limit) else { throw ProtocolError(.argument, "limit is 1 to 100") }
            default:
                throw ProtocolError(.argument, "unknown word \"\(args[i])\" (\(allowTop ? "genre, top" : "genre"), limit, index)")
            }
            i += 2
        }
        guard !(top && genre != nil) else { throw ProtocolError(.argument, "give a genre or top, not both") }
    }
}
