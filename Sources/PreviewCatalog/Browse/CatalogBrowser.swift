import PreviewCore

/// Looking around the Deezer catalog: the songs a URI stands for, searches,
/// paged lists, details and covers. Answers are models (`Song`,
/// `DeezerTrack`, ...) or a `ProtocolError` naming the item asked for; the
/// command layer turns them into replies.
///
/// Every track seen on the way leaves its preview URL in `previewURLs`, so
/// that playing it later needs no request.
package final class CatalogBrowser {
    /// What `describe` found for one URI.
    package enum Description {
        /// A track, as a song with its album's tags.
        case track(Song)
        case album(DeezerAlbum)
        /// An album the catalog could not describe: listed by its URI.
        case unknownAlbum(String)
        /// Anything else the catalog could not describe: listed by its URI.
        case unknown(String)
    }

    package let client: DeezerClient
    package let previewURLs: PreviewURLCache
    /// The album tags looked up so far (and the lookups of missing ones).
    package let tags: TagLookup
    /// Most songs one URI expands to (the queue's length limit).
    let maxSongs: Int
    /// Album covers by URI, with their content type (most recent last).
    private var covers: [(uri: String, bytes: [UInt8], type: String?)] = []
    /// Covers kept in memory.
    static let coverCapacity = 32
    /// Songs built lately by `cachedSong`, by Deezer track id, with the
    /// expiry of the cached answer they came from. Queued again, a track
    /// shares its strings (the URI above all) with its earlier copies
    /// instead of allocating them per queued song.
    private var recentSongs: [Int: RecentSong] = [:]
    /// One entry of `recentSongs`, boxed: a lookup then copies a reference,
    /// not a track and a song of a dozen strings each (100,000 `addid` in
    /// one command list look it up 100,000 times).
    private final class RecentSong {
        let track: DeezerTrack
        let song: Song
        /// When the cached answer the song came from expires.
        let expires: Double
        init(track: DeezerTrack, song: Song, expires: Double) {
            (self.track, self.song, self.expires) = (track, song, expires)
        }
    }
    /// Most songs `recentSongs` holds before it starts over.
    static let recentSongCapacity = 4096

    package init(client: DeezerClient, previewURLs: PreviewURLCache, maxSongs: Int) {
        self.client = client
        self.previewURLs = previewURLs
        self.maxSongs = maxSongs
        tags = TagLookup(client: client)
    }

    /// Requests sent to the Deezer API and answers served from the cache.
    package var counts: (requests: Int, cacheHits: Int) { (client.requestsSent, client.cacheHits) }

    /// The track as a song when the catalog answered for it lately, at once
    /// (long command lists of `addid` skip the asynchronous round).
    package func cachedSong(track id: Int) -> Song? {
        let path = "/track/\(id)"
        if let recent = recentSongs[id], client.liveExpiry(path) == recent.expires {
            previewURLs.remember(recent.track)
            return recent.song
        }
        guard let (track, expires) = client.cachedEntry(path, as: DeezerTrack.self) else { return nil }
        previewURLs.remember(track)
        let song = tags.completed([track.song()])[0]
        // Only a song whose tags are all in is kept: the album lookup may still complete the others.
        if song.albumTags?.complete ?? true, song.track != nil {
            if recentSongs.count >= CatalogBrowser.recentSongCapacity { recentSongs.removeAll(keepingCapacity: true) }
            recentSongs[id] = RecentSong(track: track, song: song, expires: expires)
        }
        return song
    }

    /// One catalog answer, decoded as `T`; errors name `item` (the URI the
    /// client gave, e.g. `deezer:album:1`). `fresh` skips the cache (a
    /// Library `update` asks Deezer anew).
    package func request<T: Decodable>(
        _ path: String, as type: T.Type, item: String, fresh: Bool = false,
        completion: @escaping (Result<T, ProtocolError>) -> Void
    ) {
        client.request(path, as: type, fresh: fresh) { result in
            completion(result.mapError { $0.protocolError(item: item) })
        }
    }

    /// The most entries one paged list (an album's, a playlist's tracks)
    /// may bring: Deezer's playlists hold at most 10,000 tracks, and a
    /// catalog that lied with endless pages once queued 1,000,000 songs
    /// from one `add`.
    package static let maxListEntries = 10_000
    /// The most catalog text (bytes of UTF-8, `DeezerTrack.textBytes`) one
    /// paged list of tracks may bring, whatever its entries' count.
    package static let maxListTextBytes = 16 << 20

    /// Every item of a paged list, following `next` links (at most
    /// `maxPages`), refused past `maxListEntries` entries or, with `weigh`
    /// (an entry's bytes), past `maxListTextBytes`.
    /// - Parameter completion: the entries, or the ACK: the catalog's, or
    ///   `.playlistMax` "ITEM: over 10000 entries ...".
    package func pages<T: Decodable & Sendable>(
        _ first: String, as type: T.Type, item: String, maxPages: Int = 20,
        fresh: Bool = false, weigh: (@Sendable (T) -> Int)? = nil,
        completion: @escaping (Result<[T], ProtocolError>) -> Void
    ) {
        let client = self.client
        /// The page at `path` and, while more are listed, those after it.
        func pages(from path: String, read: Int, collected: [T], bytes: Int) -> Later<Result<[T], ProtocolError>> {
            Later { done in client.request(path, as: DeezerPage<T>.self, fresh: fresh) { done($0) } }.then { result in
                switch result {
                case .failure(let e): return .now(.failure(e.protocolError(item: item)))
                case .success(let page):
                    let all = collected + page.data
                    let weight = bytes + (weigh.map { w in page.data.reduce(0) { $0 + w($1) } } ?? 0)
                    if let refusal = Self.overBounds(item: item, entries: all.count, bytes: weight) { return .now(.failure(refusal)) }
                    guard !page.data.isEmpty, read + 1 < maxPages, all.count < (page.total ?? Int.max),
                        let next = page.next.flatMap(client.path(ofNextLink:))
                    else { return .now(.success(all)) }
                    return pages(from: next, read: read + 1, collected: all, bytes: weight)
                }
            }
        }
        pages(from: first, read: 0, collected: [], bytes: 0).run(completion)
    }

    /// The refusal of a list past `maxListEntries` or `maxListTextBytes`.
    private static func overBounds(item: String, entries: Int, bytes: Int) -> ProtocolError? {
        if entries > maxListEntries {
            return ProtocolError(.playlistMax, "\(item): over \(maxListEntries) entries; previewd takes at most that many from one item")
        }
        if bytes > maxListTextBytes {
            return ProtocolError(
                .playlistMax, "\(item): over \(maxListTextBytes) bytes of text; previewd takes at most that much from one item")
        }
        return nil
    }

    /// The songs a URI stands for: a track, an album's or a playlist's
    /// tracks, an artist's top tracks, the chart, a radio, or a direct URL.
    /// - Parameters:
    ///   - fresh: ask Deezer, not the cache (tracks and albums).
    ///   - completion: the songs (at most `maxSongs`), or the ACK; an empty
    ///     list is `.noExist` "ITEM: no tracks".
    package func songs(for uri: CatalogURI, fresh: Bool = false, completion: @escaping (Result<[Song], ProtocolError>) -> Void) {
        let item = uri.text
        switch uri {
        case .stream(let url):
            completion(.success([Song(uri: url)]))
        case .track(let id):
            request("/track/\(id)", as: DeezerTrack.self, item: item, fresh: fresh) { [weak self] result in
                completion(
                    result.map { track in
                        self?.previewURLs.remember(track)
                        return self?.tags.completed([track.song()]) ?? [track.song()]
                    })
            }
        case .album(let id):
            request("/album/\(id)", as: DeezerAlbum.self, item: item, fresh: fresh) { [weak self] result in
                switch result {
                case .failure(let e): completion(.failure(e))
                case .success(let album):
                    let tags = self?.tags.remember(album)
                    self?.tracks(
                        "/album/\(id)/tracks?index=0&limit=100", item: item, albumTitle: album.title,
                        albumTags: tags, fresh: fresh, completion: completion)
                }
            }
        case .playlist(let id):
            tracks("/playlist/\(id)/tracks?index=0&limit=100", item: item, completion: completion)
        case .artist(let id):
            // The top list is one page (the API's `next` would only repeat it).
            tracks("/artist/\(id)/top?limit=50", item: item, follow: false, completion: completion)
        case .chart:
            tracks("/chart/0/tracks?index=0&limit=100", item: item, completion: completion)
        case .radio(let id):
            tracks("/radio/\(id)/tracks?index=0&limit=100", item: item, completion: completion)
        }
    }

    /// Every track of a paged list as songs (an empty list is an error).
    private func tracks(
        _ first: String, item: String, albumTitle: String? = nil, albumTags: AlbumTags? = nil,
        follow: Bool = true, fresh: Bool = false,
        completion: @escaping (Result<[Song], ProtocolError>) -> Void
    ) {
        pages(first, as: DeezerTrack.self, item: item, maxPages: follow ? 100 : 1, fresh: fresh, weigh: \.textBytes) { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let e): completion(.failure(e))
            case .success(let tracks) where tracks.isEmpty:
                completion(.failure(ProtocolError(.noExist, "\(item): no tracks")))
            case .success(let tracks):
                for track in tracks { self.previewURLs.remember(track) }
                self.tags.remember(positionsOf: tracks)
                let songs = tracks.prefix(self.maxSongs).map { $0.song(albumTitle: albumTitle, albumTags: albumTags) }
                completion(.success(self.tags.completed(songs)))
            }
        }
    }

    /// One catalog answer as a value that comes later (`request`).
    package func get<T: Decodable>(_ path: String, as type: T.Type, item: String) -> Later<Result<T, ProtocolError>> {
        Later { done in self.request(path, as: type, item: item, completion: done) }
    }

    /// Runs a Deezer search for what `filter` requires, then keeps the
    /// results the filter accepts (Deezer's matching is looser than MPD's).
    /// - Parameter wanted: results needed (a `window`'s end): pages are read
    ///   until that many pass the filter; nil reads one page of 100.
    /// - Returns (later): the songs; `.argument` when the filter names no tag
    ///   Deezer can search for.
    package func search(_ filter: SongFilter, wanted: Int? = nil) -> Later<Result<[Song], ProtocolError>> {
        // A track's own URI (`file`), or a URI whose songs are wanted
        // (`base deezer:album:ID`): its songs, then the rest of the filter.
        if let (uri, base) = Self.itemToFilter(filter) {
            return Later { done in self.songs(for: uri, completion: done) }.map { [weak self] result in
                result.map { songs in (self?.tags.completed(songs) ?? songs).filter { filter.matches($0, baseHolds: base) } }
            }
        }
        let terms = Self.searchTerms(filter.requirements)
        guard !terms.isEmpty else {
            // A `file` search (ncmpc's "Filename" mode) matches URIs, and the
            // tags Deezer cannot search for (Genre, Date, ...) match what the
            // Library holds: the catalog adds nothing, as mpd finds nothing.
            if !filter.requirements.isEmpty { return .now(.success([])) }
            return .now(.failure(ProtocolError(.argument, "The filter needs a tag to search for (any, artist, album or title)")))
        }
        let path = "/search?q=" + percentEncodeQueryValue(terms.joined(separator: " ")) + "&limit=\(Self.searchPageSize)"
        return searchPages(from: path, filter: filter, wanted: wanted, found: [], read: 0)
    }

    /// The catalog item whose songs a filter is about (`file URI`, `base
    /// URI`), and whether it is a `base`; nil when the filter names none.
    private static func itemToFilter(_ filter: SongFilter) -> (CatalogURI, base: Bool)? {
        guard let (tag, value) = filter.requirements.first(where: { $0.0 == .file || $0.0 == .base }),
            let uri = try? CatalogURI(parsing: value.hasSuffix("/") ? String(value.dropLast()) : value)
        else { return nil }
        switch uri {
        case .stream: return nil
        case .track: return (uri, tag == .base)
        default: return tag == .base ? (uri, true) : nil
        }
    }

    /// Deezer's query terms for a filter's requirements (those Deezer can search).
    private static func searchTerms(_ requirements: [(SongFilter.Tag, String)]) -> [String] {
        requirements.compactMap { tag, value in
            switch tag {
            case .any: return value
            case .tag(.artist), .tag(.albumArtist), .tag(.artistSort), .tag(.albumArtistSort):
                return DeezerSearch.term("artist", value)
            case .tag(.album), .tag(.albumSort): return DeezerSearch.term("album", value)
            case .tag(.title): return DeezerSearch.term("track", value)
            case .tag(.label): return DeezerSearch.term("label", value)
            case .file, .base, .tag: return nil
            }
        }
    }

    /// Most pages of 100 one `search` reads (a `window` past 1,000 results
    /// finds nothing more).
    static let maxSearchPages = 10
    /// Entries a search page asks for, and keeps.
    static let searchPageSize = 100

    /// Reads the search page at `path` and, while fewer than `wanted`
    /// results pass `filter`, the pages after it. A page that fails after
    /// the first ends the search with what was found.
    private func searchPages(
        from path: String, filter: SongFilter, wanted: Int?, found: [Song],
        read: Int
    ) -> Later<Result<[Song], ProtocolError>> {
        get(path, as: DeezerPage<DeezerTrack>.self, item: "search").then { [weak self] result in
            guard let self else { return .now(.success(found)) }
            let page: DeezerPage<DeezerTrack>
            switch result {
            case .failure(let e): return .now(read == 0 ? .failure(e) : .success(found))
            case .success(let p): page = p
            }
            // No more than a page holds, whatever the catalog sent.
            let tracks = page.data.prefix(Self.searchPageSize)
            for track in tracks { self.previewURLs.remember(track) }
            let all = found + self.tags.completed(tracks.map { $0.song() }).filter { filter.matches($0) }
            guard let wanted, all.count < wanted, read + 1 < Self.maxSearchPages, !page.data.isEmpty,
                let next = page.next.flatMap(self.client.path(ofNextLink:))
            else { return .now(.success(all)) }
            return self.searchPages(from: next, filter: filter, wanted: wanted, found: all, read: read + 1)
        }
    }

    /// What the catalog says of each URI (tracks and albums), in order; a
    /// URI it cannot describe comes back `.unknown`.
    package func describe(_ uris: [String], completion: @escaping ([Description]) -> Void) {
        guard !uris.isEmpty else {
            completion([])
            return
        }
        var out = [Description](repeating: .unknown(""), count: uris.count)
        var left = uris.count
        func done(_ i: Int, _ description: Description) {
            out[i] = description
            left -= 1
            if left == 0 { completion(out) }
        }
        for (i, uri) in uris.enumerated() {
            switch try? CatalogURI(parsing: uri) {
            case .track(let id)?:
                client.request("/track/\(id)", as: DeezerTrack.self) { [weak self] result in
                    guard case .success(let t) = result, let self else { return done(i, .unknown(uri)) }
                    self.tags.complete([t.song()]) { songs in done(i, .track(songs[0])) }
                }
            case .album(let id)?:
                client.request("/album/\(id)", as: DeezerAlbum.self) { [weak self] result in
                    guard case .success(let a) = result else { return done(i, .unknownAlbum(uri)) }
                    self?.tags.remember(a)
                    done(i, .album(a))
                }
            default:
                done(i, .unknown(uri))
            }
        }
    }

    /// The album cover for `uri` (`deezer:track:ID` or `deezer:album:ID`),
    /// or the picture of `deezer:artist:ID`, `deezer:playlist:ID` or
    /// `deezer:radio:ID` (500x500), fetched once and kept in memory (the last `coverCapacity`). Clients
    /// that ask for the cover of a song's directory (Cantata) send the URI
    /// with a trailing `/`: it names the same song or album.
    /// - Parameter completion: the image bytes and content type, or
    ///   `.noExist` "No file exists" for a URI without a cover.
    package func cover(for given: String, completion: @escaping (Result<(bytes: [UInt8], type: String?), ProtocolError>) -> Void) {
        var trimmed = Substring(given)
        while trimmed.hasSuffix("/"), trimmed.hasPrefix("deezer:") { trimmed = trimmed.dropLast() }
        let uri = String(trimmed)
        if let hit = covers.last(where: { $0.uri == uri }) {
            completion(.success((hit.bytes, hit.type)))
            return
        }
        let fetch = { [weak self] (url: String?) in
            guard let self else { return }
            guard let url, !url.isEmpty else {
                completion(.failure(ProtocolError(.noExist, "No file exists")))
                return
            }
            self.client.fetchBinary(url: url) { result in
                switch result {
                case .failure(let e): completion(.failure(e.protocolError(item: uri)))
                case .success(let (bytes, type)):
                    self.covers.append((uri, bytes, type))
                    if self.covers.count > CatalogBrowser.coverCapacity { self.covers.removeFirst() }
                    completion(.success((bytes, type)))
                }
            }
        }
        // An artist, a playlist or a radio has a picture of its own.
        let picture = { (result: Result<String?, ProtocolError>) in
            switch result {
            case .failure(let e): completion(.failure(e))
            case .success(let url): fetch(url)
            }
        }
        switch try? CatalogURI(parsing: uri) {
        case .track(let id)?:
            request("/track/\(id)", as: DeezerTrack.self, item: uri) { result in
                switch result {
                case .failure(let e): completion(.failure(e))
                case .success(let track):
                    if let cover = track.album?.cover_big ?? track.album?.cover_xl {
                        fetch(cover)
                    } else if let albumID = track.album?.id {
                        // A track known from an album listing names its album only.
                        self.albumCover(albumID, item: uri, completion: completion, then: fetch)
                    } else {
                        fetch(nil)
                    }
                }
            }
        case .album(let id)?:
            albumCover(id, item: uri, completion: completion, then: fetch)
        case .artist(let id)?:
            request("/artist/\(id)", as: DeezerArtist.self, item: uri) { picture($0.map(\.picture_big)) }
        case .playlist(let id)?:
            request("/playlist/\(id)", as: DeezerPlaylist.self, item: uri) { picture($0.map(\.picture_big)) }
        case .radio(let id)?:
            request("/radio/\(id)", as: DeezerRadio.self, item: uri) { picture($0.map(\.picture_big)) }
        default:
            completion(.failure(ProtocolError(.noExist, "No file exists")))
        }
    }

    /// Looks up album `id`'s cover URL and hands it to `fetch`.
    private func albumCover(
        _ id: Int, item: String, completion: @escaping (Result<(bytes: [UInt8], type: String?), ProtocolError>) -> Void,
        then fetch: @escaping (String?) -> Void
    ) {
        request("/album/\(id)", as: DeezerAlbum.self, item: item) { result in
            switch result {
            case .failure(let e): completion(.failure(e))
            case .success(let album): fetch(album.cover_big ?? album.cover_xl)
            }
        }
    }
}
