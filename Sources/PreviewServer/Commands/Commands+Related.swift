import PreviewCatalog
import PreviewCore

// "More like this" from an album or a track (`catalogrelated`; an artist's
// related artists stay in Commands+Catalog.swift).
extension Commands {
    /// Related artists whose newest album an album's "more like this"
    /// shows: each costs one request (`/artist/ID/albums?limit=1`), so a cold
    /// album costs 2 + this many (album, related artists, their albums).
    static let relatedAlbumArtists = 5

    /// `catalogrelated deezer:album:ID`: the albums of its artist's related
    /// artists (one each, of the first `relatedAlbumArtists`), then
    /// `unresolved: N` for those Deezer gave no album for.
    /// `catalogrelated deezer:track:ID`: its artist's radio, as songs.
    /// Answers false (and does nothing) for other URIs.
    static func related(to uri: CatalogURI, _ s: Services, call: CommandCall) -> Bool {
        let b = s.catalog
        switch uri {
        case .album(let id):
            b.request("/album/\(id)", as: DeezerAlbum.self, item: uri.text) { result in
                guard case .success(let album) = result else { return call.answer(result) { _ in } }
                guard let artist = album.artist?.id else { return call.finish(ProtocolError(.noExist, "\(uri.text): no artist")) }
                relatedAlbums(ofArtist: artist, b, call: call)
            }
        case .track(let id):
            b.request("/track/\(id)", as: DeezerTrack.self, item: uri.text) { result in
                guard case .success(let track) = result else { return call.answer(result) { _ in } }
                guard let artist = track.artist?.id else { return call.finish(ProtocolError(.noExist, "\(uri.text): no artist")) }
                catalogRequest(b, "/artist/\(artist)/radio", as: DeezerPage<DeezerTrack>.self, call: call) { page in
                    for track in page.data { call.reply.song(track.song(), tags: call.session.tags) }
                }
            }
        default:
            return false
        }
        return true
    }

    /// The newest album of each of the first related artists of `artist`,
    /// in Deezer's order of relatedness.
    private static func relatedAlbums(ofArtist artist: Int, _ b: CatalogBrowser, call: CommandCall) {
        b.request("/artist/\(artist)/related", as: DeezerPage<DeezerArtist>.self, item: "deezer:artist:\(artist)") { result in
            guard case .success(let page) = result else { return call.answer(result) { _ in } }
            let artists = Array(page.data.prefix(relatedAlbumArtists))
            var found = [(DeezerArtist, DeezerAlbum)?](repeating: nil, count: artists.count)
            var left = artists.count
            guard left > 0 else { return call.finish(nil) }
            for (i, related) in artists.enumerated() {
                b.request(
                    "/artist/\(related.id)/albums?limit=1", as: DeezerPage<DeezerAlbum>.self,
                    item: "deezer:artist:\(related.id)"
                ) { result in
                    if case .success(let albums) = result, let first = albums.data.first { found[i] = (related, first) }
                    left -= 1
                    guard left == 0 else { return }
                    for case let (r, album)? in found {
                        call.reply.album(album)
                        // Artist album lists leave the artist out: it is the one asked about.
                        if album.artist?.name == nil, let name = r.name { call.reply.field("Artist", name) }
                    }
                    call.reply.field("unresolved", found.filter { $0 == nil }.count)
                    call.finish(nil)
                }
            }
        }
    }
}
