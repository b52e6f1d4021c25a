import PreviewCore
import PreviewStorage

/// Listen Now, the seed app's first screen: Top Picks, New releases, More
/// like the newest saved album, and the Want to Listen list, each cut to
/// `ListenNow.sectionSize` entries. Built from at most 10 catalog requests
/// (picks, releases, the seed album, its genre's album chart and the
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

    /// A titled list.
    package struct Section {
        package var title: String
        package var entries: [Entry]
    }

    /// Entries each section shows.
    static let sectionSize = 5

    /// The album "More like" starts from: the newest album saved to the
    /// Library or the want list, by the time it was added.
    package static func seed(library: [Library.Entry], wants: [WantList.Entry]) -> (uri: String, id: Int)? {
        let albums = library.map { ($0.uri, $0.added) } + wants.map { ($0.uri, $0.added) }
        let newest = albums.filter { $0.0.hasPrefix("deezer:album:") }.max { $0.1 < $1.1 }
        guard let uri = newest?.0, let id = Int(uri.dropFirst("deezer:album:".count)) else { return nil }
        return (uri, id)
    }

    /// Builds the sections; a section whose list cannot be had is left out
    /// (Listen Now shows what it can, as the app does).
    package static func build(_ b: CatalogBrowser, library: [Library.Entry], wants: [WantList.Entry],
                      completion: @escaping ([Section]) -> Void) {
        var sections: [Int: Section] = [:]
        var left = 4
        func done(_ slot: Int, _ section: Section?) {
            if let section, !section.entries.isEmpty { sections[slot] = section }
            left -= 1
            if left == 0 { completion(sections.keys.sorted().map { sections[$0]! }) }
        }
        albums(b, "/editorial/0/selection") { done(0, Section(title: "Top Picks", entries: $0)) }
        // The same page as `lsinfo deezer:releases`, so one answer serves both.
        albums(b, "/editorial/0/releases?index=0&limit=100") { done(1, Section(title: "New releases", entries: $0)) }
        moreLike(b, seed(library: library, wants: wants)) { done(2, $0) }
        let newest = Array(wants.prefix(sectionSize))
        b.describe(newest.map(\.uri)) { details in
            let entries: [Entry] = details.map { description in
                switch description {
                case .track(let song): return .song(song)
                case .album(let album): return .album(album)
                case .unknownAlbum(let uri), .unknown(let uri): return .unknown(uri)
                }
            }
            done(3, Section(title: "Want to Listen", entries: entries))
        }
    }

    private static func albums(_ b: CatalogBrowser, _ path: String, completion: @escaping ([Entry]) -> Void) {
        b.client.request(path, as: DeezerPage<DeezerAlbum>.self) { result in
            completion(((try? result.get())?.data ?? []).prefix(sectionSize).map(Entry.album))
        }
    }

    /// Albums of the seed's first genre's chart, without the seed itself;
    /// Deezer's chart of all genres where that genre has none.
    package static func moreLike(_ b: CatalogBrowser, _ seed: (uri: String, id: Int)?, completion: @escaping (Section?) -> Void) {
        guard let seed else { return completion(nil) }
        b.client.request("/album/\(seed.id)", as: DeezerAlbum.self) { result in
            guard let album = try? result.get() else { return completion(nil) }
            let title = "More like \"\(album.title ?? seed.uri)\""
            func chart(_ genre: Int, fallback: Bool) {
                b.client.request("/chart/\(genre)/albums?index=0&limit=25", as: DeezerPage<DeezerAlbum>.self) { result in
                    let others = ((try? result.get())?.data ?? []).filter { $0.id != seed.id }
                    if others.isEmpty, fallback { return chart(0, fallback: false) }
                    completion(Section(title: title, entries: others.prefix(sectionSize).map(Entry.album)))
                }
            }
            let genre = album.genres?.data.first?.id ?? 0
            chart(genre, fallback: genre != 0)
        }
    }
}
