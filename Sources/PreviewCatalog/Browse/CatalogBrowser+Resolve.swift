import PreviewCore

/// Names to Deezer items: what Last.fm's charts and the Library's imports
/// give as (artist, title) or artist names, found by Deezer's search.
extension CatalogBrowser {
    /// Finds each (artist, title) on Deezer with an advanced search
    /// (`/search/track?q=artist:"A" track:"T"`, one request each, cached)
    /// and keeps the first hit.
    /// - Parameter completion: one answer per entry, in the given order;
    ///   nil where Deezer found nothing (or failed).
    package func resolve(_ entries: [(artist: String, title: String)], completion: @escaping ([DeezerTrack?]) -> Void) {
        let paths = entries.map { e in
            "/search/track?q=" + percentEncodeQueryValue(DeezerSearch.term("artist", e.artist) + " " + DeezerSearch.term("track", e.title))
                + "&limit=1"
        }
        firstHits(paths, as: DeezerTrack.self, pick: { _, hits in hits.first }) { [weak self] found in
            for track in found.compactMap({ $0 }) { self?.previewURLs.remember(track) }
            completion(found)
        }
    }

    /// Hits read per artist search: Deezer's plain search is fuzzy, and the
    /// artist named exactly may come after a few others.
    static let artistSearchHits = 5

    /// Finds each artist on Deezer (`/search/artist?q=NAME`, one request
    /// each, cached): the first of `artistSearchHits` hits named as asked,
    /// without regard to case.
    /// - Parameter completion: one answer per name, in order; nil where none matched.
    package func resolveArtists(_ names: [String], completion: @escaping ([DeezerArtist?]) -> Void) {
        let paths = names.map { "/search/artist?q=" + percentEncodeQueryValue($0) + "&limit=\(Self.artistSearchHits)" }
        firstHits(
            paths, as: DeezerArtist.self,
            pick: { i, hits in
                hits.first { $0.name?.lowercased() == names[i].lowercased() }
            }, completion: completion)
    }

    /// Finds each (artist, album title) on Deezer with an advanced search
    /// (`/search/album?q=artist:"A" album:"T"`, one request each, cached)
    /// and keeps the first hit.
    /// - Parameter completion: one answer per entry, in order; nil where Deezer found nothing.
    package func resolveAlbums(_ entries: [(artist: String, title: String)], completion: @escaping ([DeezerAlbum?]) -> Void) {
        let paths = entries.map { e in
            "/search/album?q=" + percentEncodeQueryValue(DeezerSearch.term("artist", e.artist) + " " + DeezerSearch.term("album", e.title))
                + "&limit=1"
        }
        firstHits(paths, as: DeezerAlbum.self, pick: { _, hits in hits.first }, completion: completion)
    }

    /// Sends every search in `paths` at once (the client keeps to Deezer's
    /// rate limit) and gives, per path in order, what `pick` chose from its
    /// hits (`pick` gets the path's index); a failed search gives nil.
    fileprivate func firstHits<T: Decodable & Sendable>(
        _ paths: [String], as type: T.Type, pick: @escaping (Int, [T]) -> T?,
        completion: @escaping ([T?]) -> Void
    ) {
        let client = self.client
        let searches = paths.enumerated().map { i, path in
            Later<T?> { done in client.request(path, as: DeezerPage<T>.self) { done((try? $0.get()).flatMap { pick(i, $0.data) }) } }
        }
        Later.all(searches).run(completion)
    }
}
