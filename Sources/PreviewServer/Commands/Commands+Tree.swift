import PreviewCatalog
import PreviewCore
import PreviewPlatform
import PreviewStorage

// The catalog as a tree of named directories (`CatalogTree`): the root's
// sections, each listing playlist entries named for people, and what a
// name stands for (`NameIndex`), so that every command that takes a URI
// takes a name too.
extension Commands {
    /// One entry of a tree listing.
    enum TreeEntry {
        case directory(String)
        /// A playlist entry (what it stands for is in the name index).
        case item(String)
        case songs([Song])
    }

    /// `lsinfo` of the root: the sections, then the stored playlists.
    static func treeRoot(_ call: CommandCall, _ s: Services) {
        for (name, _) in CatalogTree.root { call.reply.field("directory", name) }
        for entry in s.playlists.list() {
            call.reply.field("playlist", entry.name)
            call.reply.field("Last-Modified", SystemClock.iso8601(entry.modified))
        }
    }

    /// `lsinfo PATH` of a section: its directories and playlist entries
    /// (names kept in the index), or the Library's songs.
    static func treeListing(_ path: String, _ section: CatalogTree.Section, _ call: CommandCall, _ s: Services) {
        treeEntries(path, section, s) { result in
            call.answer(result) { entries in
                for entry in entries {
                    switch entry {
                    case .directory(let name): call.reply.field("directory", name)
                    case .item(let name): call.reply.field("playlist", name)
                    case .songs(let songs): for song in songs { call.reply.song(song, tags: call.session.tags) }
                    }
                }
            }
        }
    }

    /// The entries of the section at `path`, names recorded in `s.names`.
    /// Costs at most one catalog request, none when cached; but Listen
    /// Now's "More like" (its album, its genre's chart, maybe the chart of
    /// all: three) and Want to Listen (one per album not yet named).
    static func treeEntries(
        _ path: String, _ section: CatalogTree.Section, _ s: Services,
        _ done: @escaping (Result<[TreeEntry], ProtocolError>) -> Void
    ) {
        let path = path.hasSuffix("/") ? String(path.dropLast()) : path
        func items<T>(_ list: [T], ranked: Bool, _ describe: (T) -> (title: String?, artist: String?, item: TreeItem)) -> [TreeEntry] {
            namedItems(list, under: path, ranked: ranked, s, describe)
        }
        func page<T: Decodable & Sendable>(_ request: String, as type: T.Type, _ body: @escaping (T) -> [TreeEntry]) {
            s.catalog.request(request, as: type, item: path) { done($0.map(body)) }
        }
        let album = { (a: DeezerAlbum) in (a.title, a.artist?.name, TreeItem.catalog(.album(a.id))) }
        switch section {
        case .library:
            done(
                Result { () throws(StorageError) in
                    try s.library.checkReadable(); return [.songs(s.library.songs)]
                }
                .mapError(\.protocolError))
        case .wantList: wantEntries(path, s, done)
        case .listenNow: listenNowEntries(s, done)
        case .charts:
            s.names.record(CatalogTree.topTracks, .catalog(.chart))
            done(.success([.item(CatalogTree.topTracks)] + CatalogTree.charts.map { .directory($0.0) }))
        case .countries: done(.success(items(countryNames(s), ranked: false) { ($0, nil, .countryChart($0)) }))
        case .chartAlbums: page("/chart/0", as: DeezerChart.self) { items($0.albums?.data ?? [], ranked: true, album) }
        case .chartArtists:
            page("/chart/0", as: DeezerChart.self) {
                items($0.artists?.data ?? [], ranked: true) { ($0.name, nil, .catalog(.artist($0.id))) }
            }
        case .chartPlaylists:
            page("/chart/0", as: DeezerChart.self) {
                items($0.playlists?.data ?? [], ranked: true) { ($0.title, nil, .catalog(.playlist($0.id))) }
            }
        case .genres:
            page("/genre", as: DeezerPage<DeezerGenre>.self) { items($0.data, ranked: false) { ($0.name, nil, .genreChart($0.id)) } }
        case .picks: page("/editorial/0/selection", as: DeezerPage<DeezerAlbum>.self) { items($0.data, ranked: true, album) }
        case .releases:
            page("/editorial/0/releases?index=0&limit=100", as: DeezerPage<DeezerAlbum>.self) { items($0.data, ranked: true, album) }
        case .radios:
            page("/radio", as: DeezerPage<DeezerRadio>.self) { items($0.data, ranked: false) { ($0.title, nil, .catalog(.radio($0.id))) } }
        case .moreLike:
            ListenNow.moreLike(s.catalog, moreLikeSeed(s)).run { section in
                let albums = (section?.entries ?? []).compactMap { entry -> DeezerAlbum? in
                    if case .album(let a) = entry { return a } else { return nil }
                }
                done(.success(items(albums, ranked: true, album)))
            }
        }
    }

    /// `Listen Now`: its sections as directories, after `Top Songs in
    /// COUNTRY` (a playlist entry, the daemon's own country's chart) when
    /// the daemon has a country with a chart; "More like" is named for its
    /// album, which costs that album's lookup.
    private static func listenNowEntries(_ s: Services, _ done: @escaping (Result<[TreeEntry], ProtocolError>) -> Void) {
        var top: [TreeEntry] = []
        if let country = s.defaultCountry, s.lastfm.hasKey || deezerChart(of: country.code, s) != nil {
            let name = CatalogTree.topSongsPrefix + CatalogTree.clean(country.displayName)
            s.names.record(name, .countryChart(country.displayName))
            top = [.item(name)]
        }
        let fixed = { (moreLike: String?) -> [TreeEntry] in
            top + [.directory("Listen Now/Top Picks"), .directory("Listen Now/New Releases")]
                + (moreLike.map { [.directory($0)] } ?? []) + [.directory("Listen Now/Want to Listen")]
        }
        moreLikeSeed(s).run { seed in
            guard let seed else { return done(.success(fixed(nil))) }
            let named = { (title: String) in
                done(.success(fixed(CatalogTree.moreLikePrefix + CatalogTree.clean(title).replacingQuotes + "\"")))
            }
            if let title = seed.title { return named(title) }
            s.catalog.request("/album/\(seed.id)", as: DeezerAlbum.self, item: seed.uri) { named((try? $0.get())?.title ?? seed.uri) }
        }
    }

    /// Playlist entries for `list`, named (`CatalogTree.entryName`, made
    /// unique) under `path` and recorded in the index.
    private static func namedItems<T>(
        _ list: [T], under path: String, ranked: Bool, _ s: Services,
        _ describe: (T) -> (title: String?, artist: String?, item: TreeItem)
    ) -> [TreeEntry] {
        let described = list.map(describe)
        let names = CatalogTree.unique(
            described.enumerated().map { i, d in
                CatalogTree.entryName(title: d.title, artist: d.artist, rank: ranked ? i + 1 : nil, of: list.count)
            })
        return zip(names, described).map { name, d in
            let full = path + "/" + name
            s.names.record(full, d.item)
            return .item(full)
        }
    }

    /// `Want to Listen`: the wanted albums, newest first, by the names
    /// kept with them (those without one are described once, and the
    /// names kept), and `Tracks` when tracks are wanted.
    private static func wantEntries(_ path: String, _ s: Services, _ done: @escaping (Result<[TreeEntry], ProtocolError>) -> Void) {
        let entries = s.wants.entries
        let albums = entries.filter { $0.uri.hasPrefix("deezer:album:") }
        let hasTracks = albums.count < entries.count
        let unnamed = albums.filter { $0.name == nil }.map(\.uri)
        s.catalog.describe(unnamed) { details in
            var described: [String: (name: String?, artist: String?)] = [:]
            for (uri, d) in zip(unnamed, details) {
                if case .album(let a) = d { described[uri] = (a.title, a.artist?.name) }
            }
            // Not kept is only asked for again: the listing goes on.
            try? s.wants.remember(described)
            let known = albums.compactMap { entry -> (title: String?, artist: String?, item: TreeItem)? in
                guard case .album(let id)? = try? CatalogURI(parsing: entry.uri) else { return nil }
                let names = entry.name.map { ($0, entry.artist) } ?? described[entry.uri] ?? (entry.uri, nil)
                return (names.0, names.1, .catalog(.album(id)))
            }
            var out = namedItems(known, under: path, ranked: false, s) { $0 }
            if hasTracks {
                let name = path + "/Tracks"
                s.names.record(name, .wantedTracks)
                out.append(.item(name))
            }
            done(.success(out))
        }
    }

    /// The item a tree path names: from the index, else by listing its
    /// directory again (the names are made the same way).
    /// - Returns: `.noExist` "No such directory" when nothing has that name.
    static func resolveTreeItem(_ path: String, _ s: Services, _ done: @escaping (Result<TreeItem, ProtocolError>) -> Void) {
        let path = path.hasSuffix("/") ? String(path.dropLast()) : path
        if let item = s.names.item(path) { return done(.success(item)) }
        let parent = CatalogTree.parent(of: path)
        guard let section = CatalogTree.section(parent) else { return done(.failure(ProtocolError(.noExist, "No such directory"))) }
        treeEntries(parent, section, s) { result in
            switch result {
            case .failure(let e): done(.failure(e))
            case .success:
                done(s.names.item(path).map { .success($0) } ?? .failure(ProtocolError(.noExist, "No such directory")))
            }
        }
    }

    /// The countries `Charts/By Country` lists: Last.fm's larger markets
    /// with a key, else those Deezer keeps a chart of itself (by the names
    /// people use: "South Korea"), in alphabetical order.
    static func countryNames(_ s: Services) -> [String] {
        guard !s.lastfm.hasKey else { return Countries.names }
        return DeezerCountryCharts.playlists.keys.compactMap { s.countries.find($0)?.displayName }.sorted()
    }

    /// The songs of a tree item.
    static func treeSongs(_ item: TreeItem, _ s: Services, _ done: @escaping (Result<[Song], ProtocolError>) -> Void) {
        switch item {
        case .catalog(let uri): s.catalog.songs(for: uri, completion: done)
        case .genreChart(let id):
            s.catalog.request("/chart/\(id)/tracks?index=0&limit=100", as: DeezerPage<DeezerTrack>.self, item: "deezer:genre:\(id)") {
                done($0.map { $0.data.map { $0.song() } })
            }
        case .countryChart(let country):
            if let code = s.countries.find(country)?.code, let id = deezerChart(of: code, s) {
                s.catalog.request("/playlist/\(id)/tracks?index=0&limit=100", as: DeezerPage<DeezerTrack>.self, item: country) {
                    done($0.map { $0.data.map { $0.song() } })
                }
                return
            }
            // Last.fm's names are ISO's older ones (Czech Republic), not the names listed.
            let name = s.countries.find(country)?.lastfmName ?? country
            s.lastfm.top(.tracks, country: name.lowercased(), tag: nil, limit: ChartFilter.defaultLimit) { result in
                switch result {
                case .failure(let e): done(.failure(e.protocolError))
                case .success(let chart):
                    s.catalog.resolve(chart.entries.map { (artist: $0.artist, title: $0.title ?? "") }) { tracks in
                        done(.success(tracks.compactMap { $0?.song() }))
                    }
                }
            }
        case .wantedTracks:
            let tracks = s.wants.entries.filter { !$0.uri.hasPrefix("deezer:album:") }
            s.catalog.describe(tracks.map(\.uri)) { details in
                done(.success(details.compactMap { if case .track(let song) = $0 { return song } else { return nil } }))
            }
        }
    }

    /// The songs `text` names when it is a tree path: an item's, or the
    /// Library's for `Library`; nil when `text` is no tree path (a URI, a
    /// stored playlist). A section of albums is refused: adding all of it
    /// would cost a request per album.
    static func treePathSongs(_ text: String, _ s: Services) -> Later<Result<[Song], ProtocolError>>? {
        guard CatalogTree.isTreePath(text) else { return nil }
        if let section = CatalogTree.section(text) {
            guard section == .library else {
                return .now(.failure(ProtocolError(.argument, "\(text) is a directory of albums or lists: add one of its entries")))
            }
            return .now(.success(s.library.songs))
        }
        return Later { done in resolveTreeItem(text, s, done) }.then { result in
            switch result {
            case .failure(let e): return .now(.failure(e))
            case .success(let item): return Later { done in treeSongs(item, s, done) }
            }
        }
    }
}

extension String {
    /// Double quotes as typographic ones, so a title cannot end the
    /// quoted name `More like "…"` early.
    fileprivate var replacingQuotes: String {
        String(map { $0 == "\"" ? "\u{201D}" : $0 })
    }
}
