import PreviewCore

/// Fills in the tags a listing leaves out, from the album's own answers:
/// chart, search, playlist and radio listings name a track's album but not
/// its AlbumArtist, Date, Genre or Label, and only album track lists and
/// `/track/ID` carry Track and Disc. Each album is looked up once
/// (`/album/ID`, and `/album/ID/tracks` when a position is missing) and
/// kept for the daemon's life; one `AlbumTags` is shared by its songs.
package final class TagLookup {
    let client: DeezerClient
    /// Complete album tags by Deezer album id.
    private var albums: [Int: AlbumTags] = [:]
    /// Track and disc numbers by Deezer track id, from album track lists.
    private var positions: [Int: (track: UInt16?, disc: UInt16?)] = [:]
    /// Albums whose lookup failed: not asked again (the songs keep what
    /// the listing gave).
    private var failed: Set<Int> = []

    init(client: DeezerClient) { self.client = client }

    /// Keeps an album body's tags.
    /// - Returns: the shared instance for that album's songs.
    @discardableResult
    func remember(_ album: DeezerAlbum) -> AlbumTags {
        if let known = albums[album.id], known == album.tags { return known }
        let tags = album.tags
        albums[album.id] = tags
        return tags
    }

    /// Keeps the track and disc numbers a track list gives.
    func remember(positionsOf tracks: [DeezerTrack]) {
        for track in tracks where track.track_position != nil {
            let song = track.song()
            positions[track.id] = (song.track, song.disc)
        }
    }

    /// `songs` with what is known already filled in, without a request.
    func completed(_ songs: [Song]) -> [Song] {
        songs.map(completed)
    }

    private func completed(_ song: Song) -> Song {
        var song = song
        if let id = song.albumTags?.id, song.albumTags?.complete != true, let full = albums[id] {
            song.albumTags = full
        }
        if song.track == nil, let id = Self.trackID(song.uri), let known = positions[id] {
            song.track = known.track
            song.disc = song.disc ?? known.disc
        }
        return song
    }

    /// The albums `songs` still need looked up, in order of first appearance.
    package func albumsToLookUp(_ songs: [Song]) -> [Int] {
        var seen = Set<Int>()
        var out: [Int] = []
        // By index: `for song in songs` would copy each song (a dozen
        // reference counts) to read three of its fields.
        for i in songs.indices {
            if let id = albumToLookUp(songs[i]), seen.insert(id).inserted { out.append(id) }
        }
        return out
    }

    /// The album `song` still needs looked up (its album tags or its track
    /// and disc numbers are missing), or nil.
    package func albumToLookUp(_ song: borrowing Song) -> Int? {
        guard let id = song.albumTags?.id, !failed.contains(id), let track = Self.trackID(song.uri) else { return nil }
        let needsAlbum = song.albumTags?.complete != true && albums[id] == nil
        let needsPosition = song.track == nil && positions[track] == nil
        return needsAlbum || needsPosition ? id : nil
    }

    /// `songs` with every missing album looked up, one album after the
    /// other so that a user's own requests are not held up behind a long
    /// playlist's. Calls `completion` at once when nothing is missing.
    package func complete(_ songs: [Song], completion: @escaping ([Song]) -> Void) {
        var rest = albumsToLookUp(songs)[...]
        func step() {
            guard let id = rest.popFirst() else {
                completion(completed(songs))
                return
            }
            lookUp(album: id, positions: songs.contains { $0.albumTags?.id == id && $0.track == nil }, then: step)
        }
        step()
    }

    private func lookUp(album id: Int, positions wanted: Bool, then: @escaping () -> Void) {
        client.request("/album/\(id)", as: DeezerAlbum.self) { [weak self] result in
            guard let self else { return }
            guard case .success(let album) = result else {
                self.failed.insert(id)
                then()
                return
            }
            self.remember(album)
            guard wanted else { return then() }
            self.client.request("/album/\(id)/tracks?index=0&limit=100", as: DeezerPage<DeezerTrack>.self) { [weak self] result in
                if case .success(let page) = result { self?.remember(positionsOf: page.data) } else { self?.failed.insert(id) }
                then()
            }
        }
    }

    private static func trackID(_ uri: String) -> Int? {
        guard uri.hasPrefix("deezer:track:") else { return nil }
        return Int(uri.dropFirst("deezer:track:".count))
    }
}
