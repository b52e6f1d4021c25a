import PreviewCore
import PreviewStorage

/// Listen Now, the seed app's first screen: the top songs of one's own
/// country (made by the caller, which knows the country and the chart's
/// source), Top Picks, New releases, More like an album (`seed`: the newest
/// saved, else the one played last, else the chart's top), and the Want to
/// Listen list, each cut to `ListenNow.sectionSize` entries.
/// Built from at most 12 catalog requests besides the country's (picks,
/// releases, the seed: the track played last or the chart's top album
/// when nothing is saved, the seed album, its genre's album chart and the
/// overall one where that is empty, up to 5 want-list entries), all cached
/// afterwards, so a second look asks none.
package struct ListenNow {
    /// One entry of a section.
    package enum Entry {
        case album(DeezerAlbum)
        case song(Song)
        /// A want-list entry the catalog could not describe: its URI.
        case unknown(String)
    }

    /// What a section is, for a client that lays sections out by kind
    /// rather than by their (English) titles: `catalognow`'s
    /// `sectionkind:` line, with where its "See All" leads.
    package enum Kind: Equatable {
        /// The top songs of the country named (as `Charts/By Country` names it).
        case country(String)
        case picks, releases, want
        /// More like an album: its genre's album chart (Deezer's genre id; 0: all genres).
        case moreLike(genre: Int)

        /// The `sectionkind:` value.
        package var name: String {
            switch self {
            case .country: return "country"
            case .picks: return "picks"
            case .releases: return "releases"
            case .want: return "want"
            case .moreLike: return "morelike"
            }
        }
    }

    /// A titled list.
    package struct Section {
        package var title: String
        package var kind: Kind
        package var entries: [Entry]

        package init(title: String, kind: Kind, entries: [Entry]) {
            self.title = title
            self.kind = kind
            self.entries = entries
        }
    }

    /// Entries each section shows.
    package static let sectionSize = 5
    /// Most seconds `catalognow` waits for a section: one still asked for
    /// then is left out (a slow chart must not hold up the whole screen;
    /// its answer is cached for the next look).
    /// Well under a client's own patience: previewctl gives up after 5 s
    /// (`--timeout`), so a stuck section must not take it all.
    package static let sectionWait = 3.0

    /// The album "More like" starts from, and its title when a listing gave it.
    package struct Seed: Equatable {
        package var uri: String
        package var id: Int
        package var title: String?

        package init(id: Int, title: String? = nil) {
            self.uri = "deezer:album:\(id)"
            self.id = id
            self.title = title
        }
    }

    /// The newest album saved to the Library or the want list, by the time
    /// it was added.
    package static func saved(library: [Library.Entry], wants: [WantList.Entry]) -> Seed? {
        let albums = library.map { ($0.uri, $0.added) } + wants.map { ($0.uri, $0.added) }
        let newest = albums.filter { $0.0.hasPrefix("deezer:album:") }.max { $0.1 < $1.1 }
        guard let uri = newest?.0, let id = Int(uri.dropFirst("deezer:album:".count)) else { return nil }
        return Seed(id: id)
    }

    /// The album "More like" starts from, so that a new user's Listen Now
    /// has it too: the newest album saved (`saved`); else the album of
    /// the catalog track played last (`lastPlayed`, a `deezer:track:ID`;
    /// one `/track/ID`); else the top album of the country's chart
    /// (`/chart/0/albums`: Deezer answers it for the country the request
    /// comes from, and "More like" reads the same page for genre 0). Nil
    /// only when none can be had.
    package static func seed(_ b: CatalogBrowser, saved: Seed?, lastPlayed: String?) -> Later<Seed?> {
        if let saved { return .now(saved) }
        let chartTop = albumPage(b, chartAlbums(0)).map { $0.first.map { Seed(id: $0.id, title: $0.title) } }
        guard case .track(let id)? = lastPlayed.flatMap({ try? CatalogURI(parsing: $0) }) else { return chartTop }
        let track = Later { done in b.client.request("/track/\(id)", as: DeezerTrack.self) { done(try? $0.get()) } }
        return track.then { track in
            guard let album = track?.album, let id = album.id else { return chartTop }
            return .now(Seed(id: id, title: album.title))
        }
    }

    /// The album chart page of a genre (0: all genres) that More like reads.
    static func chartAlbums(_ genre: Int) -> String { "/chart/\(genre)/albums?index=0&limit=25" }

    /// Builds the sections, all asked for at once, `first` (the country's
    /// top songs) before the rest; a section whose list cannot be had is
    /// left out (Listen Now shows what it can, as the app does).
    /// - Parameter bounded: applied to each section's wait (`catalognow`
    ///   gives each at most `sectionWait`).
    package static func build(
        _ b: CatalogBrowser, first: Later<Section?> = .now(nil), seed: Later<Seed?>,
        wants: [WantList.Entry],
        bounded: (Later<Section?>) -> Later<Section?> = { $0 }
    ) -> Later<[Section]> {
        let sections: [Later<Section?>] = [
            first,
            albums(b, "/editorial/0/selection").map { Section(title: "Top Picks", kind: .picks, entries: $0) },
            // The same page as `lsinfo deezer:releases`, so one answer serves both.
            albums(b, "/editorial/0/releases?index=0&limit=100").map { Section(title: "New releases", kind: .releases, entries: $0) },
            moreLike(b, seed),
            wanted(b, Array(wants.prefix(sectionSize))).map { Section(title: "Want to Listen", kind: .want, entries: $0) },
        ]
        return Later.all(sections.map(bounded)).map { $0.compactMap { $0 }.filter { !$0.entries.isEmpty } }
    }

    /// The first albums of a page of them (none when it cannot be had).
    private static func albums(_ b: CatalogBrowser, _ path: String) -> Later<[Entry]> {
        albumPage(b, path).map { $0.prefix(sectionSize).map(Entry.album) }
    }

    /// A page of albums, empty when it cannot be had.
    private static func albumPage(_ b: CatalogBrowser, _ path: String) -> Later<[DeezerAlbum]> {
        Later { done in b.client.request(path, as: DeezerPage<DeezerAlbum>.self) { done((try? $0.get())?.data ?? []) } }
    }

    /// The want-list entries as the catalog describes them.
    private static func wanted(_ b: CatalogBrowser, _ entries: [WantList.Entry]) -> Later<[Entry]> {
        Later { done in b.describe(entries.map(\.uri), completion: done) }.map { details in
            details.map { description in
                switch description {
                case .track(let song): return .song(song)
                case .album(let album): return .album(album)
                case .unknownAlbum(let uri), .unknown(let uri): return .unknown(uri)
                }
            }
        }
    }

    /// Albums of the seed's first genre's chart, without the seed itself;
    /// Deezer's chart of all genres where that genre has none, or where
    /// the seed's own page cannot be had but a listing gave its title.
    package static func moreLike(_ b: CatalogBrowser, _ seed: Later<Seed?>) -> Later<Section?> {
        seed.then { seed -> Later<Section?> in
            guard let seed else { return .now(nil) }
            let album = Later { done in b.client.request("/album/\(seed.id)", as: DeezerAlbum.self) { done(try? $0.get()) } }
            return album.then { album -> Later<Section?> in
                guard let title = album?.title ?? seed.title ?? (album == nil ? nil : seed.uri) else { return .now(nil) }
                let genre = album?.genres?.data.first?.id ?? 0
                let chart = { (genre: Int) in albumPage(b, chartAlbums(genre)).map { $0.filter { $0.id != seed.id } } }
                return chart(genre)
                    .then { others in others.isEmpty && genre != 0 ? chart(0).map { ($0, 0) } : .now((others, genre)) }
                    .map { others, from in
                        Section(
                            title: "More like \"\(title)\"", kind: .moreLike(genre: from),
                            entries: others.prefix(sectionSize).map(Entry.album))
                    }
            }
        }
    }
}
