import PreviewCore

/// The sole owner of the queue and the player state, on the control thread.
/// Commands call into it; it drives the engine, resolves catalog items and
/// preview URLs, reacts to engine events, and reports idle subsystems.
final class PlayerController {
    private(set) var queue = Queue()
    private(set) var player: Player
    private(set) var volume = 100
    /// The last playback error, shown as `error:` in `status` until `clearerror`.
    private(set) var lastError: String?
    /// When the controller started (for `stats` uptime), monotonic seconds.
    let startTime = monotonicTime()

    private let engine: AudioEngine
    private let catalog: DeezerClient
    private let log: Log
    private let notify: (Subsystems) -> Void

    /// Signed preview URLs by track id (DESIGN section 1: reuse while valid).
    private var previewURLs: [Int: String] = [:]
    /// The engine stream currently wanted, the song it plays, and its state.
    private var stream: (id: StreamID, song: SongID, retried: Bool)?
    /// When the current stream was requested (monotonic seconds), for the
    /// "first audio after" log line.
    private var streamRequestedAt = 0.0
    private var nextStreamID: StreamID = 1
    private var audioFormat: AudioFormat?
    private var bitrate = 0
    /// Failed starts in a row; stops playback when every song failed.
    private var failuresInARow = 0
    /// Seconds of audio played before the current stream (for `stats` playtime).
    private var playedSeconds = 0.0

    init(engine: AudioEngine, catalog: DeezerClient, log: Log, seed: UInt64, notify: @escaping (Subsystems) -> Void) {
        self.engine = engine
        self.catalog = catalog
        self.log = log
        self.notify = notify
        player = Player(seed: seed)
    }

    // MARK: queue

    /// Resolves `uri` into songs and inserts them at `position` (default the end).
    /// - Parameter completion: the new songs' ids, or the ACK; called later
    ///   for catalog items, at once for direct URLs.
    func add(uri text: String, position: Arguments.Position?, completion: @escaping (Result<[SongID], ProtocolError>) -> Void) {
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
        songs(for: uri) { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let error): completion(.failure(error))
            case .success(let songs):
                do throws(ProtocolError) {
                    completion(.success(try self.insert(songs, at: position)))
                } catch {
                    completion(.failure(error))
                }
            }
        }
    }

    private func insert(_ songs: [Song], at position: Arguments.Position?) throws(ProtocolError) -> [SongID] {
        guard queue.count + songs.count <= queue.maxLength else { throw ProtocolError(.playlistMax, "Playlist is too large") }
        var at = try resolve(position)
        var ids: [SongID] = []
        for song in songs {
            ids.append(try queue.add(song, at: at))
            at = at.map { $0 + 1 }
        }
        player.songsAdded(ids)
        notify(.playlist)
        return ids
    }

    /// Turns a relative position into an absolute one (nil = the end).
    /// - Throws: `.playerSync` "No current song" for `+N`/`-N` with no current
    ///   song; `.argument` "Number too large" past the end.
    func resolve(_ position: Arguments.Position?) throws(ProtocolError) -> Int? {
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

    /// Fetches the songs a catalog URI stands for.
    private func songs(for uri: CatalogURI, completion: @escaping (Result<[Song], ProtocolError>) -> Void) {
        let item = uri.text
        switch uri {
        case .stream(let url):
            completion(.success([Song(uri: url)]))
        case .track(let id):
            catalog.request("/track/\(id)", as: DeezerTrack.self) { [weak self] result in
                switch result {
                case .failure(let e): completion(.failure(e.protocolError(item: item)))
                case .success(let track):
                    self?.remember(track)
                    completion(.success([track.song()]))
                }
            }
        case .album(let id):
            catalog.request("/album/\(id)", as: DeezerAlbum.self) { [weak self] result in
                guard let self else { return }
                switch result {
                case .failure(let e): completion(.failure(e.protocolError(item: item)))
                case .success(let album):
                    self.pages(first: "/album/\(id)/tracks?index=0&limit=100", item: item, albumTitle: album.title, completion: completion)
                }
            }
        case .playlist(let id):
            pages(first: "/playlist/\(id)/tracks?index=0&limit=100", item: item, albumTitle: nil, completion: completion)
        case .artist(let id):
            pages(first: "/artist/\(id)/top?limit=50", item: item, albumTitle: nil, completion: completion)
        case .chart:
            pages(first: "/chart/0/tracks?index=0&limit=100", item: item, albumTitle: nil, completion: completion)
        }
    }

    /// Collects every page of a track list, following `next` links.
    private func pages(first path: String, item: String, albumTitle: String?, completion: @escaping (Result<[Song], ProtocolError>) -> Void) {
        var collected: [Song] = []
        var requests = 0
        func step(_ path: String) {
            requests += 1
            catalog.request(path, as: DeezerPage<DeezerTrack>.self) { [weak self] result in
                guard let self else { return }
                switch result {
                case .failure(let e): completion(.failure(e.protocolError(item: item)))
                case .success(let page):
                    for track in page.data {
                        self.remember(track)
                        collected.append(track.song(albumTitle: albumTitle))
                    }
                    let total = page.total ?? collected.count
                    if !page.data.isEmpty, collected.count < total, requests < 100,
                       collected.count < self.queue.maxLength,
                       let next = page.next.flatMap(self.catalog.path(ofNextLink:)) {
                        step(next)
                    } else if collected.isEmpty {
                        completion(.failure(ProtocolError(.noExist, "\(item): no tracks")))
                    } else {
                        completion(.success(collected))
                    }
                }
            }
        }
        step(path)
    }

    private func remember(_ track: DeezerTrack) {
        if let preview = track.preview, !preview.isEmpty { previewURLs[track.id] = preview }
    }

    /// `delete START[:END]`.
    func delete(positions range: Range<Int>) throws(ProtocolError) {
        let formerPosition = player.current.flatMap { queue.position(of: $0) }
        let removed = try queue.remove(positions: range)
        guard !removed.isEmpty else { return }
        notify(.playlist)
        apply(player.songsRemoved(removed, formerPosition: formerPosition, in: queue))
    }

    /// `deleteid ID`.
    /// - Throws: `.noExist` "No such song".
    func delete(id: SongID) throws(ProtocolError) {
        guard let pos = queue.position(of: id) else { throw ProtocolError(.noExist, "No such song") }
        try delete(positions: pos..<(pos + 1))
    }

    /// `clear`.
    func clear() {
        queue.removeAll()
        notify(.playlist)
        apply(player.queueCleared())
    }

    /// `move FROM[:TO] TO`.
    func move(positions range: Range<Int>, to: Int) throws(ProtocolError) {
        try queue.move(positions: range, to: to)
        notify(.playlist)
    }

    /// `shuffle [START:END]`.
    func shuffle(positions range: Range<Int>?) throws(ProtocolError) {
        var rng = SplitMix64(seed: UInt64(truncatingIfNeeded: Int(monotonicTime() * 1e6)))
        try queue.shuffle(positions: range, using: &rng)
        notify(.playlist)
    }

    // MARK: playback

    /// Applies a player operation's outcome; `user` marks commands (which
    /// clear the last error, as MPD's play commands do).
    func run(_ operation: (inout Player, Queue) throws(ProtocolError) -> [PlayerEffect], user: Bool = true) throws(ProtocolError) {
        let before = (player.state, player.current)
        let effects = try operation(&player, queue)
        if user, effects.contains(where: { if case .start = $0 { return true } else { return false } }) {
            lastError = nil
            failuresInARow = 0
        }
        apply(effects)
        if before != (player.state, player.current) || !effects.isEmpty { notify(.player) }
    }

    /// Sets a mode and reports `options`.
    func setModes(_ change: (inout Player, Queue) -> Void) {
        change(&player, queue)
        notify(.options)
    }

    /// `setvol`: 0...100.
    func setVolume(_ percent: Int) {
        guard percent != volume else { return }
        volume = percent
        engine.setVolume(percent)
        notify(.mixer)
    }

    /// `clearerror`.
    func clearError() {
        guard lastError != nil else { return }
        lastError = nil
        notify(.player)
    }

    private func apply(_ effects: [PlayerEffect]) {
        for effect in effects {
            switch effect {
            case .start(let id): start(song: id, retried: false)
            case .setPaused(let paused): engine.setPaused(paused)
            case .halt:
                finishStreamAccounting()
                stream = nil
                engine.stop()
            case .remove(let id):
                if let pos = queue.position(of: id) {
                    _ = try? queue.remove(positions: pos..<(pos + 1))
                    notify(.playlist)
                }
            }
        }
    }

    /// Resolves the song's preview URL if needed and starts the engine on it.
    private func start(song id: SongID, retried: Bool) {
        guard let entry = queue.song(withID: id) else { return }
        finishStreamAccounting()
        let streamID = nextStreamID
        nextStreamID += 1
        stream = (streamID, id, retried)
        streamRequestedAt = monotonicTime()
        audioFormat = nil
        bitrate = 0
        engine.setPaused(player.state == .pause)
        let uri = entry.song.uri
        guard case .track(let trackID)? = try? CatalogURI(parsing: uri) else {
            log.info("playing \(uri)")
            engine.play(stream: streamID, url: uri)
            return
        }
        if !retried, let url = previewURLs[trackID], !isExpiring(url) {
            log.info("playing \(uri)")
            engine.play(stream: streamID, url: url)
            return
        }
        engine.stop()
        catalog.request("/track/\(trackID)", as: DeezerTrack.self) { [weak self] result in
            guard let self, self.stream?.id == streamID else { return }
            switch result {
            case .failure(let e):
                self.failed(stream: streamID, reason: e.protocolError(item: uri).message)
            case .success(let track):
                if let reason = track.unplayableReason {
                    self.previewURLs[trackID] = nil
                    self.failed(stream: streamID, reason: reason)
                    return
                }
                self.remember(track)
                self.queue.update(id: id) { song in
                    let fresh = track.song(albumTitle: song.album)
                    song.title = fresh.title ?? song.title
                    song.artist = fresh.artist ?? song.artist
                }
                self.log.info("playing \(uri)\(retried ? " (preview URL refreshed)" : "")")
                self.engine.play(stream: streamID, url: track.preview!)
            }
        }
    }

    /// A signed URL expiring within a minute is not worth starting.
    private func isExpiring(_ url: String) -> Bool {
        guard let exp = previewExpiry(of: url) else { return false }
        return Double(exp) - unixTime() < 60
    }

    private func finishStreamAccounting() {
        if let stream, let pos = engine.position(), pos.stream == stream.id { playedSeconds += pos.seconds }
    }

    // MARK: engine events

    /// Handles one event from the engine (called on the control thread).
    func handle(_ event: EngineEvent) {
        switch event {
        case .httpResult: break  // routed by the server before reaching here
        case .streamStarted(let id, let format, let rate, let totalFrames):
            guard let current = stream, current.id == id else { return }
            failuresInARow = 0
            audioFormat = format
            bitrate = rate
            let ms = (monotonicTime() - streamRequestedAt) * 1000
            log.debug("first audio of song \(current.song) at the output after \(Int(ms.rounded())) ms")
            if let totalFrames, format.sampleRate > 0, queue.song(withID: current.song)?.song.duration == nil {
                // Direct URLs carry no metadata: show the decoder's length, as mpd does.
                queue.update(id: current.song) { $0.duration = Double(totalFrames) / Double(format.sampleRate) }
                notify(.playlist)
            }
        case .streamFinished(let id, let frames):
            guard let current = stream, current.id == id else { return }
            if let format = audioFormat, format.sampleRate > 0 {
                let seconds = Double(frames) / Double(format.sampleRate)
                queue.update(id: current.song) { $0.duration = seconds }
            }
            finishStreamAccounting()
            stream = nil
            try? run({ (p: inout Player, q: Queue) in p.songFinished(in: q) }, user: false)
        case .streamFailed(let id, let failure, _):
            guard let current = stream, current.id == id else { return }
            if failure == .httpStatus(403), !current.retried,
               case .track(let trackID)? = try? CatalogURI(parsing: queue.song(withID: current.song)?.song.uri ?? "") {
                // Signed preview URLs turn 403 once expired: resolve once more.
                log.info("deezer:track:\(trackID): preview answered 403, resolving it again")
                previewURLs[trackID] = nil
                start(song: current.song, retried: true)
                return
            }
            failed(stream: id, reason: "\(queue.song(withID: current.song)?.song.uri ?? "song"): \(failure)")
        }
    }

    private func failed(stream id: StreamID, reason: String) {
        log.warning("skipping: \(reason)")
        lastError = reason
        stream = nil
        failuresInARow += 1
        if failuresInARow >= max(queue.count, 1) {
            failuresInARow = 0
            try? run({ (p: inout Player, _: Queue) in p.stop() }, user: false)
            notify(.player)
            return
        }
        try? run({ (p: inout Player, q: Queue) in p.songFailed(in: q) }, user: false)
        notify(.player)
    }

    // MARK: status

    /// Seconds played of the current song (0 before its first sample).
    var elapsed: Double {
        guard let stream, let pos = engine.position(), pos.stream == stream.id else { return 0 }
        return pos.seconds
    }

    /// The decoded format of the current song, once known.
    var currentFormat: AudioFormat? {
        guard let stream, let pos = engine.position(), pos.stream == stream.id else { return nil }
        return pos.format ?? audioFormat
    }

    /// The current song's bitrate in kbit/s.
    var currentBitrate: Int {
        guard let stream, let pos = engine.position(), pos.stream == stream.id else { return 0 }
        return pos.bitrate > 0 ? pos.bitrate : bitrate
    }

    /// Total seconds played since start (for `stats`).
    var totalPlayTime: Double { playedSeconds + elapsed }
}
