import PreviewCore

/// Queue edits (MPD's `PlaylistEdit`): adding, removing, moving and
/// retagging songs, each reported as a `playlist` change, and the player
/// told when the current song is touched.
extension PlayerController {
    /// Resolves `uri` into songs and inserts them at `position` (default the end).
    /// - Parameter completion: the new songs' ids, or the ACK; called later
    ///   for catalog items, at once for direct URLs and tracks the catalog
    ///   answered lately.
    package func add(uri text: String, position: Arguments.Position?, completion: @escaping (Result<[SongID], ProtocolError>) -> Void) {
        // A share link is resolved first, so a dead one fails now, not when it plays.
        if ShareLink.isShareLink(text) {
            catalog.resolveShareLink(text) { [weak self] result in
                switch result {
                case .failure(let error): completion(.failure(error))
                case .success(let item): self?.add(uri: item.text, position: position, completion: completion)
                }
            }
            return
        }
        let uri: CatalogURI
        do { uri = try CatalogURI(parsing: text) } catch {
            completion(.failure(error))
            return
        }
        // Check the position now so a bad one fails before any request.
        do { _ = try resolve(position) } catch {
            completion(.failure(error))
            return
        }
        // An album's tracks, say: added at once, without the asynchronous
        // round, so long command lists of addid stay fast.
        if case .track(let id) = uri, let song = catalog.cachedSong(track: id), catalog.tags.albumToLookUp(song) == nil {
            completion(Result { () throws(ProtocolError) in try insert(song, at: position) })
            return
        }
        catalog.songs(for: uri) { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let error): completion(.failure(error))
            case .success(let songs): self.insertTagged(songs, at: position, completion: completion)
            }
        }
    }

    /// Inserts `songs` with their album tags. One album to look up (a
    /// track) is waited for, so the song comes in whole; more (a playlist)
    /// are looked up after the songs are queued, and the songs retagged.
    private func insertTagged(
        _ songs: [Song], at position: Arguments.Position?,
        completion: @escaping (Result<[SongID], ProtocolError>) -> Void
    ) {
        if catalog.tags.albumsToLookUp(songs).count <= 1 {
            catalog.tags.complete(songs) { [weak self] full in
                guard let self else { return }
                completion(Result { () throws(ProtocolError) in try self.insert(full, at: position) })
            }
            return
        }
        let ids: [SongID]
        do { ids = try insert(songs, at: position) } catch {
            completion(.failure(error))
            return
        }
        completion(.success(ids))
        catalog.tags.complete(songs) { [weak self] full in self?.retag(ids, with: full) }
    }

    /// Gives queued songs the tags looked up after they were queued.
    private func retag(_ ids: [SongID], with songs: [Song]) {
        let before = queue.version
        for (id, song) in zip(ids, songs) {
            queue.update(id: id) { entry in
                guard entry.song.uri == song.uri else { return }
                entry.song.track = entry.song.track ?? song.track
                entry.song.disc = entry.song.disc ?? song.disc
                if song.albumTags?.complete == true { entry.song.albumTags = song.albumTags }
            }
        }
        if queue.version != before { notify(.playlist) }
    }

    /// Adds each URI in order (albums expand to their tracks), one after
    /// the other so the queue keeps the list's order.
    package func addAll(_ uris: [String], completion: @escaping (Result<Void, ProtocolError>) -> Void) {
        var rest = uris[...]
        func next() {
            guard let uri = rest.popFirst() else {
                completion(.success(()))
                return
            }
            add(uri: uri, position: nil) { result in
                if case .failure(let e) = result { completion(.failure(e)) } else { next() }
            }
        }
        next()
    }

    /// Inserts `songs` (already resolved) at `position` (default: the end).
    /// - Throws: `.playlistMax` when they do not fit; position errors as `resolve`.
    package func insert(_ songs: [Song], at position: Arguments.Position?) throws(ProtocolError) -> [SongID] {
        if songs.count == 1 { return try insert(songs[0], at: position) }
        let ids = try queue.add(contentsOf: songs, at: try resolve(position))
        player.songsAdded(ids)
        notify(.playlist)
        return ids
    }

    /// `insert` of one song (each `addid` of a long command list), without
    /// the batch's arrays; the song moves into the queue.
    func insert(_ song: consuming Song, at position: Arguments.Position?) throws(ProtocolError) -> [SongID] {
        let ids = [try queue.add(song, at: try resolve(position))]
        player.songsAdded(ids)
        notify(.playlist)
        return ids
    }

    /// Turns a relative position into an absolute one (nil = the end).
    /// - Throws: `.playerSync` "No current song" for `+N`/`-N` with no current
    ///   song; `.argument` "Number too large" past the end.
    package func resolve(_ position: Arguments.Position?) throws(ProtocolError) -> Int? {
        guard let position else { return nil }
        switch position {
        case .absolute(let p):
            guard p <= queue.count else { throw ProtocolError(.argument, "Number too large: \(p)") }
            return p
        case .afterCurrent(let n), .beforeCurrent(let n):
            guard let current = player.current, let pos = queue.position(of: current) else {
                throw ProtocolError(.playerSync, "No current song")
            }
            let target: Int
            if case .afterCurrent = position { target = pos + 1 + n } else { target = pos - n }
            guard target >= 0, target <= queue.count else {
                throw ProtocolError(.argument, "Number too large: \(n)")
            }
            return target
        }
    }

    /// `delete START[:END]`.
    package func delete(positions range: Range<Int>) throws(ProtocolError) {
        let formerPosition = player.current.flatMap { queue.position(of: $0) }
        let removed = try queue.remove(positions: range)
        guard !removed.isEmpty else { return }
        notify(.playlist)
        let effects = player.songsRemoved(removed, formerPosition: formerPosition, in: queue)
        apply(effects)
        if !effects.isEmpty { notify(.player) }
    }

    /// `deleteid ID`.
    /// - Throws: `.noExist` "No such song".
    package func delete(id: SongID) throws(ProtocolError) {
        guard let pos = queue.position(of: id) else { throw ProtocolError(.noExist, "No such song") }
        try delete(positions: pos..<(pos + 1))
    }

    /// `clear`.
    package func clear() {
        prefetcher.forgetFailures()
        queue.removeAll()
        notify(.playlist)
        let effects = player.queueCleared()
        apply(effects)
        if !effects.isEmpty { notify(.player) }
    }

    /// `move FROM[:TO] TO`.
    package func move(positions range: Range<Int>, to: Int) throws(ProtocolError) {
        try queue.move(positions: range, to: to)
        notify(.playlist)
    }

    /// `shuffle [START:END]`.
    package func shuffle(positions range: Range<Int>?) throws(ProtocolError) {
        try queue.shuffle(positions: range, using: &shuffleSource)
        notify(.playlist)
    }

    /// `swap`.
    package func swap(_ a: Int, _ b: Int) throws(ProtocolError) {
        try queue.swap(a, b)
        notify(.playlist)
    }

    /// `prio`/`prioid`.
    package func setPriority(_ priority: UInt8, id: SongID) {
        let before = queue.version
        queue.update(id: id) { $0.priority = priority }
        if queue.version != before {
            player.prioritiesChanged(in: queue)
            notify(.playlist)
        }
    }

    /// `rangeid`: nil plays the whole song.
    /// - Throws: `.noExist` for an unknown id; `.permission` for the song now playing.
    package func setRange(_ range: SongRange?, id: SongID) throws(ProtocolError) {
        guard queue.position(of: id) != nil else { throw ProtocolError(.noExist, "No such song") }
        if player.state != .stop, player.current == id {
            throw ProtocolError(.permission, "Cannot edit the current song")
        }
        queue.update(id: id) { $0.range = range }
        notify(.playlist)
    }

    /// `addtagid` (a value, added next to any the song has) and `cleartagid`
    /// (nil: every value of the tag goes).
    /// - Throws: `.noExist` for an unknown id; `.argument` when the values
    ///   added to the song would pass `Song.maxAddedTagBytes`.
    package func setTag(_ tag: TagType, value: String?, id: SongID) throws(ProtocolError) {
        guard let queued = queue.song(withID: id) else { throw ProtocolError(.noExist, "No such song") }
        let key: WritableKeyPath<Song, String?>?
        switch tag {
        case .artist: key = \.artist
        case .album: key = \.album
        case .title: key = \.title
        default: key = nil
        }
        // A NUL or another control character (C0 but tab, DEL, C1) or a
        // line separator would reach every client's listing as it is.
        if let value,
            value.unicodeScalars.contains(where: {
                ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) || CatalogText.isLineBreak($0)
            })
        {
            throw ProtocolError(.argument, "tag values may not hold control characters")
        }
        // A value for an empty title, artist or album takes that one place;
        // any other is added, and those are bounded, a song's and all together.
        if let value, key.map({ queued.song[keyPath: $0] != nil }) ?? true {
            let cost = Song.cost(of: TagValue(name: tag.mpdName, value: value))
            guard queued.song.addedTagBytes + cost <= Song.maxAddedTagBytes else {
                throw ProtocolError(.argument, "tags added to one song hold at most \(Song.maxAddedTagBytes) bytes in all")
            }
            guard queue.addedTagBytes + cost <= Queue.maxAddedTagBytes else {
                throw ProtocolError(
                    .argument,
                    "tags added to the queue's songs hold at most \(Queue.maxAddedTagBytes) bytes "
                        + "in all; clear some (cleartagid) or remove songs")
            }
        }
        let before = queue.version
        let name = tag.mpdName
        queue.update(id: id) { entry in
            if let value {
                if let key, entry.song[keyPath: key] == nil {
                    entry.song[keyPath: key] = value
                } else {
                    entry.song.addedTags.append(TagValue(name: name, value: value))
                }
            } else {
                if let key { entry.song[keyPath: key] = nil }
                entry.song.clearCatalogValues(of: tag)
                entry.song.addedTags.removeAll { $0.name == name }
            }
        }
        if queue.version != before { notify(.playlist) }
    }
}
