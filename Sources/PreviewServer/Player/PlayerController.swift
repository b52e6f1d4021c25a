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
    /// Why the output is lost, while it is; shown as `error:` when there is
    /// no playback error, and not cleared by `play` or `clearerror`.
    private(set) var outputError: String?
    /// The `error:` `status` shows.
    var statusError: String? { lastError ?? outputError }
    /// When the controller started (for `stats` uptime), monotonic seconds.
    let startTime = monotonicTime()

    private let engine: AudioEngine
    private let catalog: DeezerClient
    private let log: Log
    private let notifyServer: (Subsystems) -> Void
    /// Counts changes, so the state file is written only after one.
    private(set) var changeCount = 0

    private func notify(_ changed: Subsystems) {
        if !changed.isSubset(of: [.message, .subscription, .update]) { changeCount += 1 }
        if !changed.isDisjoint(with: [.player, .playlist, .options]) { schedulePrefetch() }
        notifyServer(changed)
        let recorded = changed.intersection(PlayerEvent.subsystems)
        if !recorded.isEmpty { onEvent?(recorded, reason) }
    }

    /// Told of each change that makes an `events` record, with its reason.
    var onEvent: ((Subsystems, EventReason) -> Void)?
    /// Why the changes being made now happen: a command unless an engine
    /// event or a timer says otherwise.
    private(set) var reason = EventReason.user

    /// Runs `body` with changes attributed to `why`.
    private func because(_ why: EventReason, _ body: () -> Void) {
        let saved = reason
        reason = why
        body()
        reason = saved
    }

    /// The fields of an `events` record: the state now, for a status bar.
    func eventFields() -> [PlayerEvent.Field] {
        typealias F = PlayerEvent.Field
        var out = [F("state", player.state.rawValue)]
        if let id = player.current, let pos = queue.position(of: id), let song = queue.song(withID: id)?.song {
            out += [F("position", "\(pos + 1)"), F("songid", "\(id)")]
            out.append(F("length", "\(queue.count)"))
            out.append(F("volume", "\(volume)"))
            out.append(F("file", song.uri))
            if let t = song.title { out.append(F("title", t)) }
            if let a = song.artist { out.append(F("artist", a)) }
            if let a = song.album { out.append(F("album", a)) }
            out.append(F("elapsed", formatSeconds(elapsed)))
            if let d = song.duration { out.append(F("duration", formatSeconds(d))) }
        } else {
            out += [F("length", "\(queue.count)"), F("volume", "\(volume)")]
        }
        if let statusError { out.append(F("error", statusError)) }
        return out
    }

    /// How many songs ahead of the current one are downloaded in advance
    /// (`--prefetch`; 0 turns prefetching off).
    var prefetchCount = 2
    /// The URL each prefetched song (by URI) was asked for with: playing it
    /// must name the same media the engine holds.
    private var prefetchURLs: [String: String] = [:]
    /// Track ids being resolved for a prefetch, and ids that failed to.
    private var prefetchResolving: Set<Int> = []
    private var prefetchUnresolvable: Set<Int> = []
    private var prefetchScheduled = false

    /// Signed preview URLs by track id (DESIGN section 1: reuse while valid).
    private var previewURLs: [Int: String] = [:]
    /// The engine stream currently wanted, the song it plays, and its state.
    /// `from`: where in the song the stream starts (seek, `rangeid`), seconds.
    private var stream: (id: StreamID, song: SongID, retried: Bool, from: Double, whole: Bool)?
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
    /// Commands (`play`, `next`, `seek`, ...) waiting for the new song's first
    /// audio, so a `status` right after them shows its format, as with mpd.
    private var startWaiters: [() -> Void] = []
    /// Whether the current stream has reached the output.
    private var streamAudible = false
    /// Runs a closure after a delay on the control thread.
    private let schedule: (Double, @escaping () -> Void) -> Void
    /// Longest wait for first audio before a command answers anyway.
    static let startWaitLimit = 2.0

    /// One entry of `outputs`.
    struct OutputEntry: Equatable {
        let name: String
        let plugin: String
        var enabled: Bool
    }
    /// `outputs`: the configured output (id 0) and, beside PulseAudio, a
    /// null output (id 1). Playback goes to PulseAudio while it is enabled,
    /// else to the null output, which keeps time and holds no device. A
    /// disabled output with nothing beside it plays silence.
    private(set) var outputs: [OutputEntry]
    /// Whether output 0 is enabled (saved with the state).
    var outputEnabled: Bool { outputs[0].enabled }
    /// `previous` more than this many seconds into a song restarts it (0: mpd's
    /// behaviour, always the song before).
    var previousRestartSeconds = 3.0
    /// `replay_gain_mode`; previews carry no ReplayGain tags, so it is reported only.
    private(set) var replayGainMode = "off"
    private var updateJobs = 0
    /// Album covers by URI, with their content type (most recent last).
    private var covers: [(uri: String, bytes: [UInt8], type: String?)] = []

    /// - Parameter maxQueueLength: songs the queue holds at most (mpd's
    ///   `max_playlist_length`); the fuzzer keeps it small, so that inputs
    ///   that double the queue (`load` + `save append`) stay cheap.
    init(engine: AudioEngine, catalog: DeezerClient, log: Log, seed: UInt64,
         output: (name: String, plugin: String) = ("previewd", "previewd"),
         maxQueueLength: Int = Queue.defaultMaxLength,
         schedule: @escaping (Double, @escaping () -> Void) -> Void = { _, _ in },
         notify: @escaping (Subsystems) -> Void) {
        self.schedule = schedule
        queue = Queue(maxLength: maxQueueLength)
        outputs = [OutputEntry(name: output.name, plugin: output.plugin, enabled: true)]
        if output.plugin == "pulse" { outputs.append(OutputEntry(name: "null", plugin: "null", enabled: false)) }
        self.engine = engine
        self.catalog = catalog
        self.log = log
        self.notifyServer = notify
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
        // A track the catalog answered lately (an album's, say) is added at
        // once, without the asynchronous round: long command lists of addid.
        if case .track(let id) = uri, let track = catalog.cached("/track/\(id)", as: DeezerTrack.self) {
            remember(track)
            do throws(ProtocolError) {
                completion(.success(try insert([track.song()], at: position)))
            } catch {
                completion(.failure(error))
            }
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

    /// Inserts `songs` (already resolved) at `position` (default: the end).
    /// - Throws: `.playlistMax` when they do not fit; position errors as `resolve`.
    func insert(_ songs: [Song], at position: Arguments.Position?) throws(ProtocolError) -> [SongID] {
        // One song (each addid of a long list) skips the batch's arrays.
        let ids = songs.count == 1 ? [try queue.add(songs[0], at: try resolve(position))]
                                   : try queue.add(contentsOf: songs, at: try resolve(position))
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
    func songs(for uri: CatalogURI, completion: @escaping (Result<[Song], ProtocolError>) -> Void) {
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
            // The top list is one page (the API's `next` would only repeat it).
            pages(first: "/artist/\(id)/top?limit=50", item: item, albumTitle: nil, follow: false, completion: completion)
        case .chart:
            pages(first: "/chart/0/tracks?index=0&limit=100", item: item, albumTitle: nil, completion: completion)
        case .radio(let id):
            pages(first: "/radio/\(id)/tracks?index=0&limit=100", item: item, albumTitle: nil, completion: completion)
        }
    }

    /// Every track of a paged list as songs (an empty list is an error).
    private func pages(first path: String, item: String, albumTitle: String?, follow: Bool = true,
                       completion: @escaping (Result<[Song], ProtocolError>) -> Void) {
        catalogPages(path, as: DeezerTrack.self, item: item, maxPages: follow ? 100 : 1) { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let e): completion(.failure(e))
            case .success(let tracks) where tracks.isEmpty:
                completion(.failure(ProtocolError(.noExist, "\(item): no tracks")))
            case .success(let tracks):
                for track in tracks { self.remember(track) }
                completion(.success(tracks.prefix(self.queue.maxLength).map { $0.song(albumTitle: albumTitle) }))
            }
        }
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
        let effects = player.songsRemoved(removed, formerPosition: formerPosition, in: queue)
        apply(effects)
        if !effects.isEmpty { notify(.player) }
    }

    /// `deleteid ID`.
    /// - Throws: `.noExist` "No such song".
    func delete(id: SongID) throws(ProtocolError) {
        guard let pos = queue.position(of: id) else { throw ProtocolError(.noExist, "No such song") }
        try delete(positions: pos..<(pos + 1))
    }

    /// `clear`.
    func clear() {
        prefetchUnresolvable = []
        queue.removeAll()
        notify(.playlist)
        let effects = player.queueCleared()
        apply(effects)
        if !effects.isEmpty { notify(.player) }
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
    ///
    /// `skip` marks `next`/`previous`: a song that must come from the
    /// network is then opened only after `skipSettle` seconds without
    /// another skip, so a burst of key repeats fetches just the song it
    /// lands on (a prefetched song starts at once).
    func run(_ operation: (inout Player, Queue) throws(ProtocolError) -> [PlayerEffect], user: Bool = true,
             seekTo offset: Double = 0, skip: Bool = false) throws(ProtocolError) {
        let before = (player.state, player.current)
        let effects = try operation(&player, queue)
        if user, effects.contains(where: { if case .start = $0 { return true } else { return false } }) {
            lastError = nil
            failuresInARow = 0
        }
        apply(effects, offset: offset, skip: skip)
        if before != (player.state, player.current) || !effects.isEmpty { notify(.player) }
    }

    /// Calls `done` once the song just started is audible, it failed, playback
    /// stopped, or `startWaitLimit` passed, whichever comes first.
    func whenAudible(_ done: @escaping () -> Void) {
        guard stream != nil, !streamAudible else {
            done()
            return
        }
        startWaiters.append(done)
        let waiting = startWaiters.count
        schedule(PlayerController.startWaitLimit) { [weak self] in
            guard let self, self.startWaiters.count >= waiting else { return }
            self.releaseWaiters()
        }
    }

    private func releaseWaiters() {
        let waiters = startWaiters
        startWaiters = []
        for w in waiters { w() }
    }

    /// Sets a mode and reports `options`.
    func setModes(_ change: (inout Player, Queue) -> Void) {
        change(&player, queue)
        notify(.options)
    }

    /// `setvol`: 0...100.
    func setVolume(_ percent: Int) {
        // mpd reports `mixer` for every setvol, a change or not.
        if percent != volume {
            volume = percent
            if outputs.count > 1 || outputEnabled { engine.setVolume(percent) }
        }
        notify(.mixer)
    }

    /// Reports a change that did not go through the controller (stored
    /// playlists, subscriptions).
    func changed(_ subsystems: Subsystems) { notify(subsystems) }

    /// `enableoutput`/`disableoutput`/`toggleoutput ID`.
    /// - Throws: `.noExist` "No such audio output".
    func setOutput(_ id: Int, enabled: (Bool) -> Bool) throws(ProtocolError) {
        guard outputs.indices.contains(id) else { throw ProtocolError(.noExist, "No such audio output") }
        let now = enabled(outputs[id].enabled)
        guard now != outputs[id].enabled else { return }
        outputs[id].enabled = now
        applyOutputs()
        notify(.output)
    }

    private func applyOutputs() {
        if outputs.count > 1 {
            engine.selectOutput(main: outputs[0].enabled)
            engine.setVolume(volume)
        } else {
            engine.setVolume(outputEnabled ? volume : 0)
        }
    }

    /// `replay_gain_mode`.
    func setReplayGainMode(_ mode: String) {
        replayGainMode = mode
        notify(.options)
    }

    /// `update`/`rescan`: a new job id; the catalog needs no scan.
    func startUpdateJob() -> Int {
        updateJobs += 1
        notify(.update)
        return updateJobs
    }

    /// `swap`.
    func swap(_ a: Int, _ b: Int) throws(ProtocolError) {
        try queue.swap(a, b)
        notify(.playlist)
    }

    /// `prio`/`prioid`.
    func setPriority(_ priority: UInt8, id: SongID) {
        let before = queue.version
        queue.update(id: id) { $0.priority = priority }
        if queue.version != before {
            player.prioritiesChanged(in: queue)
            notify(.playlist)
        }
    }

    /// `rangeid`: nil plays the whole song.
    /// - Throws: `.noExist` for an unknown id; `.playerSync` for the song now playing.
    func setRange(_ range: SongRange?, id: SongID) throws(ProtocolError) {
        guard queue.position(of: id) != nil else { throw ProtocolError(.noExist, "No such song") }
        if player.state != .stop, player.current == id {
            throw ProtocolError(.permission, "Cannot edit the current song")
        }
        queue.update(id: id) { $0.range = range }
        notify(.playlist)
    }

    /// `addtagid` (a value, added next to any the song has) and `cleartagid`
    /// (nil: every value of the tag goes).
    func setTag(_ tag: SongFilter.Tag, value: String?, id: SongID) throws(ProtocolError) {
        guard queue.position(of: id) != nil else { throw ProtocolError(.noExist, "No such song") }
        let before = queue.version
        let name = tag.rawValue.prefix(1).uppercased() + tag.rawValue.dropFirst()
        queue.update(id: id) { entry in
            func slot(_ song: inout Song) -> WritableKeyPath<Song, String?>? {
                switch tag {
                case .artist: return \.artist
                case .album: return \.album
                case .title: return \.title
                case .any, .file: return nil
                }
            }
            guard let key = slot(&entry.song) else { return }
            if let value {
                if entry.song[keyPath: key] == nil {
                    entry.song[keyPath: key] = value
                } else {
                    entry.song.addedTags.append(TagValue(name: name, value: value))
                }
            } else {
                entry.song[keyPath: key] = nil
                entry.song.addedTags.removeAll { $0.name == name }
            }
        }
        if queue.version != before { notify(.playlist) }
    }

    /// Runs a Deezer search for what `filter` requires, then keeps the
    /// results the filter accepts (Deezer's matching is looser than MPD's).
    func search(_ filter: SongFilter, completion: @escaping (Result<[Song], ProtocolError>) -> Void) {
        let requirements = filter.requirements
        if let (_, value) = requirements.first(where: { $0.0 == .file }),
           let uri = try? CatalogURI(parsing: value), case .track = uri {
            songs(for: uri) { result in completion(result.map { $0.filter(filter.matches) }) }
            return
        }
        var terms: [String] = []
        for (tag, value) in requirements {
            let quoted = "\"" + value.replacingAll("\"", with: " ") + "\""
            switch tag {
            case .any: terms.append(value)
            case .artist: terms.append("artist:" + quoted)
            case .album: terms.append("album:" + quoted)
            case .title: terms.append("track:" + quoted)
            case .file: break
            }
        }
        guard !terms.isEmpty else {
            completion(.failure(ProtocolError(.argument, "The filter needs a tag to search for (any, artist, album or title)")))
            return
        }
        let path = "/search?q=" + percentEncodeQueryValue(terms.joined(separator: " ")) + "&limit=100"
        catalog.request(path, as: DeezerPage<DeezerTrack>.self) { [weak self] result in
            switch result {
            case .failure(let e): completion(.failure(e.protocolError(item: "search")))
            case .success(let page):
                for track in page.data { self?.remember(track) }
                completion(.success(page.data.map { $0.song() }.filter(filter.matches)))
            }
        }
    }

    /// One catalog request for a command: `fill` writes the reply from the
    /// answer, errors become the command's ACK (naming the command's item).
    func catalogRequest<T: Decodable>(_ path: String, as type: T.Type, call: CommandCall, fill: @escaping (T) -> Void) {
        let item = call.args.first.map { (try? CatalogURI(parsing: $0))?.text ?? $0 } ?? "catalog"
        catalog.request(path, as: type) { result in
            switch result {
            case .failure(let e): call.finish(e.protocolError(item: item))
            case .success(let value):
                fill(value)
                call.finish(nil)
            }
        }
    }

    /// Every item of a paged list, following `next` links (at most `maxPages`).
    func catalogPages<T: Decodable & Sendable>(_ first: String, as type: T.Type, item: String, maxPages: Int = 20,
                                                 completion: @escaping (Result<[T], ProtocolError>) -> Void) {
        var collected: [T] = []
        var pages = 0
        func step(_ path: String) {
            pages += 1
            catalog.request(path, as: DeezerPage<T>.self) { [weak self] result in
                guard let self else { return }
                switch result {
                case .failure(let e): completion(.failure(e.protocolError(item: item)))
                case .success(let page):
                    collected += page.data
                    if !page.data.isEmpty, pages < maxPages, collected.count < (page.total ?? Int.max),
                       let next = page.next.flatMap(self.catalog.path(ofNextLink:)) {
                        step(next)
                    } else {
                        completion(.success(collected))
                    }
                }
            }
        }
        step(first)
    }

    /// Finds each (artist, title) on Deezer with an advanced search and keeps
    /// the first hit, in the given order; entries without a hit are dropped.
    func resolveOnDeezer(_ entries: [(String, String)], completion: @escaping ([DeezerTrack]) -> Void) {
        guard !entries.isEmpty else {
            completion([])
            return
        }
        var found = [DeezerTrack?](repeating: nil, count: entries.count)
        var left = entries.count
        for (i, (artist, title)) in entries.enumerated() {
            let q = "artist:\"\(artist.replacingAll("\"", with: " "))\" track:\"\(title.replacingAll("\"", with: " "))\""
            catalog.request("/search/track?q=" + percentEncodeQueryValue(q) + "&limit=1", as: DeezerPage<DeezerTrack>.self) { [weak self] result in
                if case .success(let page) = result, let first = page.data.first {
                    found[i] = first
                    self?.remember(first)
                }
                left -= 1
                if left == 0 { completion(found.compactMap { $0 }) }
            }
        }
    }

    /// Adds each URI in order (albums expand to their tracks), one after
    /// the other so the queue keeps the list's order.
    func addAll(_ uris: [String], completion: @escaping (Result<Void, ProtocolError>) -> Void) {
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

    /// Listing fields for each URI (`file:` and tags for tracks, `album:`
    /// records for albums), from the catalog; a URI the catalog cannot
    /// describe is listed alone.
    func describe(_ uris: [String], completion: @escaping ([[(String, String)]]) -> Void) {
        guard !uris.isEmpty else {
            completion([])
            return
        }
        var out = [[(String, String)]](repeating: [], count: uris.count)
        var left = uris.count
        func done(_ i: Int, _ fields: [(String, String)]) {
            out[i] = fields
            left -= 1
            if left == 0 { completion(out) }
        }
        for (i, uri) in uris.enumerated() {
            switch try? CatalogURI(parsing: uri) {
            case .track(let id)?:
                catalog.request("/track/\(id)", as: DeezerTrack.self) { result in
                    var r = Reply()
                    if case .success(let t) = result { r.song(t.song(), tags: .all) } else { r.field("file", uri) }
                    done(i, ResponseParser.fields(of: r.text))
                }
            case .album(let id)?:
                catalog.request("/album/\(id)", as: DeezerAlbum.self) { result in
                    var r = Reply()
                    if case .success(let a) = result { r.album(a) } else { r.field("album", uri) }
                    done(i, ResponseParser.fields(of: r.text))
                }
            default:
                done(i, [("file", uri)])
            }
        }
    }

    /// Requests sent to the Deezer API and answers served from the cache.
    var catalogCounts: (requests: Int, cacheHits: Int) { (catalog.requestsSent, catalog.cacheHits) }

    /// The album cover for `uri` (`deezer:track:ID` or `deezer:album:ID`),
    /// fetched once and kept in memory.
    func cover(for uri: String, completion: @escaping (Result<(bytes: [UInt8], type: String?), ProtocolError>) -> Void) {
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
            self.catalog.fetchBinary(url: url) { result in
                switch result {
                case .failure(let e): completion(.failure(e.protocolError(item: uri)))
                case .success(let (bytes, type)):
                    self.covers.append((uri, bytes, type))
                    if self.covers.count > 32 { self.covers.removeFirst() }
                    completion(.success((bytes, type)))
                }
            }
        }
        switch try? CatalogURI(parsing: uri) {
        case .track(let id)?:
            catalog.request("/track/\(id)", as: DeezerTrack.self) { result in
                switch result {
                case .failure(let e): completion(.failure(e.protocolError(item: uri)))
                case .success(let track): fetch(track.album?.cover_big ?? track.album?.cover_xl)
                }
            }
        case .album(let id)?:
            catalog.request("/album/\(id)", as: DeezerAlbum.self) { result in
                switch result {
                case .failure(let e): completion(.failure(e.protocolError(item: uri)))
                case .success(let album): fetch(album.cover_big ?? album.cover_xl)
                }
            }
        default:
            completion(.failure(ProtocolError(.noExist, "No file exists")))
        }
    }

    /// `seek`/`seekid`/`seekcur`: plays song `id` from `seconds` (it becomes
    /// the current song; a pause stays a pause).
    /// - Throws: `.noExist` "No such song"; `.argument` for a position past
    ///   the song's end.
    func seek(id: SongID, to seconds: Double) throws(ProtocolError) {
        guard let entry = queue.song(withID: id) else { throw ProtocolError(.noExist, "No such song") }
        if let duration = entry.song.duration, seconds > duration {
            throw ProtocolError(.argument, "Seek position beyond the end of the song")
        }
        let wasPaused = player.state == .pause
        try run({ (p: inout Player, q: Queue) throws(ProtocolError) in
            var effects = try p.play(id: id, in: q)
            if wasPaused { effects += p.pause(true, in: q) }
            return effects
        }, seekTo: max(0, seconds))
    }

    /// `clearerror`.
    func clearError() {
        guard lastError != nil else { return }
        lastError = nil
        notify(.player)
    }

    /// The longest `Retry-After` (seconds) a 503 is waited out for; a
    /// longer one skips the song at once.
    static let longestRetryAfter = 10

    /// How long a skipped-to song that needs the network waits for the
    /// next skip before it is opened, in seconds.
    static let skipSettle = 0.05

    private func apply(_ effects: [PlayerEffect], offset: Double = 0, skip: Bool = false) {
        for effect in effects {
            switch effect {
            case .start(let id): start(song: id, retried: false, offset: offset, skip: skip)
            case .setPaused(let paused): engine.setPaused(paused)
            case .halt:
                finishStreamAccounting()
                stream = nil
                engine.stop()
                releaseWaiters()
            case .remove(let id):
                if let pos = queue.position(of: id) {
                    _ = try? queue.remove(positions: pos..<(pos + 1))
                    notify(.playlist)
                }
            }
        }
    }

    /// Resolves the song's preview URL if needed and starts the engine on it,
    /// `offset` seconds in (a seek), within the song's `rangeid` range.
    private func start(song id: SongID, retried: Bool, offset: Double = 0, skip: Bool = false) {
        guard let entry = queue.song(withID: id) else { return }
        finishStreamAccounting()
        let streamID = nextStreamID
        nextStreamID += 1
        let from = max(offset, entry.range?.start ?? 0)
        let until = entry.range?.end
        stream = (streamID, id, retried, from, from == 0 && until == nil)
        streamAudible = false
        streamRequestedAt = monotonicTime()
        audioFormat = nil
        bitrate = 0
        engine.setPaused(player.state == .pause)
        if skip, prefetchURLs[entry.song.uri] == nil, entry.song.unplayable == nil {
            // The old song stops now; the new one opens unless skipped past.
            engine.stop()
            schedule(PlayerController.skipSettle) { [weak self] in
                guard let self, self.stream?.id == streamID else { return }
                self.open(streamID, entry: entry, retried: retried, from: from, until: until)
            }
            return
        }
        open(streamID, entry: entry, retried: retried, from: from, until: until)
    }

    /// Starts stream `streamID` on the song: straight from a known URL, or
    /// after resolving the track's preview URL.
    private func open(_ streamID: StreamID, entry: QueuedSong, retried: Bool, from: Double, until: Double?) {
        let id = entry.id
        let uri = entry.song.uri
        if let reason = entry.song.unplayable {
            // Known from the listing it came with: no request, no sound, a reason.
            failed(stream: streamID, reason: reason)
            return
        }
        guard case .track(let trackID)? = try? CatalogURI(parsing: uri) else {
            log.info(startLine(uri))
            engine.play(stream: streamID, url: uri, key: nil, from: from, until: until)
            return
        }
        if !retried, let url = prefetchURLs[uri] ?? validPreviewURL(trackID) {
            log.info(startLine(uri))
            engine.play(stream: streamID, url: url, key: uri, from: from, until: until)
            return
        }
        prefetchURLs[uri] = nil
        engine.stop()
        catalog.request("/track/\(trackID)", as: DeezerTrack.self, fresh: retried) { [weak self] result in
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
                self.queue.update(id: id) { entry in
                    let fresh = track.song(albumTitle: entry.song.album)
                    entry.song.title = fresh.title ?? entry.song.title
                    entry.song.artist = fresh.artist ?? entry.song.artist
                }
                self.log.info(self.startLine(uri) + (retried ? " (preview URL refreshed)" : ""))
                self.engine.play(stream: streamID, url: track.preview!, key: uri, from: from, until: until)
                if retried { self.because(.urlRefreshed) { self.notify(.player) } }
            }
        }
    }

    /// The log line for a stream being opened (paused after a restore or a
    /// seek while paused, so not "playing").
    private func startLine(_ uri: String) -> String {
        (player.state == .pause ? "ready, paused: " : "playing ") + uri
    }

    /// A signed URL expiring within a minute is not worth starting.
    private func isExpiring(_ url: String) -> Bool {
        guard let exp = previewExpiry(of: url) else { return false }
        return Double(exp) - unixTime() < 60
    }

    /// The track's known preview URL, unless it is about to expire.
    private func validPreviewURL(_ trackID: Int) -> String? {
        guard let url = previewURLs[trackID], !isExpiring(url) else { return nil }
        return url
    }

    // MARK: prefetch

    /// Refreshes the prefetch list on the next loop turn (once for a burst
    /// of changes).
    private func schedulePrefetch() {
        guard !prefetchScheduled else { return }
        prefetchScheduled = true
        schedule(0) { [weak self] in
            guard let self else { return }
            self.prefetchScheduled = false
            self.refreshPrefetch()
        }
    }

    /// Tells the engine which songs to download ahead: the next
    /// `prefetchCount` in play order, once the current song is audible (so
    /// it never waits behind them); nothing when stopped. Catalog tracks
    /// only: a direct URL may be an endless stream.
    private func refreshPrefetch() {
        // Until the new song is heard, keep what is under way: it is likely
        // still wanted, and a new list would only compete with the song.
        if player.state == .play && !streamAudible && stream != nil { return }
        var items: [MediaItem] = []
        if prefetchCount > 0, player.state != .stop {
            for id in player.upcoming(prefetchCount, in: queue) {
                guard let song = queue.song(withID: id)?.song, song.unplayable == nil,
                      case .track(let trackID)? = try? CatalogURI(parsing: song.uri),
                      !prefetchUnresolvable.contains(trackID) else { continue }
                if let url = prefetchURLs[song.uri] ?? validPreviewURL(trackID) {
                    items.append(MediaItem(key: song.uri, url: url))
                } else if !prefetchResolving.contains(trackID) {
                    prefetchResolving.insert(trackID)
                    catalog.request("/track/\(trackID)", as: DeezerTrack.self) { [weak self] result in
                        guard let self else { return }
                        self.prefetchResolving.remove(trackID)
                        if case .success(let track) = result, track.unplayableReason == nil {
                            self.remember(track)
                            self.schedulePrefetch()
                        } else {
                            self.prefetchUnresolvable.insert(trackID)
                        }
                    }
                }
            }
        }
        let wanted = Dictionary(items.map { ($0.key, $0.url) }, uniquingKeysWith: { first, _ in first })
        guard wanted != prefetchURLs else { return }
        prefetchURLs = wanted
        if !items.isEmpty { log.debug("prefetching \(items.map(\.key).joined(separator: ", "))") }
        engine.prefetch(items)
    }

    private func finishStreamAccounting() {
        if let stream, let pos = engine.position(), pos.stream == stream.id { playedSeconds += pos.seconds }
    }

    // MARK: engine events

    /// Handles one event from the engine (called on the control thread);
    /// the changes it makes carry the event's reason.
    func handle(_ event: EngineEvent) {
        let why: EventReason
        switch event {
        case .httpResult: why = .user
        case .streamStarted: why = .metadata
        case .streamFinished: why = .eof
        case .streamFailed: why = .error
        case .streamCut: why = .urlRefreshed
        case .outputChanged(let lost): why = lost == nil ? .outputBack : .outputLost
        }
        because(why) { handleEvent(event) }
    }

    private func handleEvent(_ event: EngineEvent) {
        switch event {
        case .httpResult: break  // routed by the server before reaching here
        case .streamStarted(let id, let format, let rate, let totalFrames):
            guard let current = stream, current.id == id else { return }
            failuresInARow = 0
            audioFormat = format
            bitrate = rate
            streamAudible = true
            releaseWaiters()
            schedulePrefetch()
            let ms = (monotonicTime() - streamRequestedAt) * 1000
            log.debug("first audio of song \(current.song) at the output after \(Int(ms.rounded())) ms")
            if let totalFrames, format.sampleRate > 0, queue.song(withID: current.song)?.song.duration == nil {
                // Direct URLs carry no metadata: show the decoder's length, as mpd does.
                queue.update(id: current.song) { $0.song.duration = Double(totalFrames) / Double(format.sampleRate) }
                notify(.playlist)
            }
        case .streamFinished(let id, let frames):
            guard let current = stream, current.id == id else { return }
            if current.whole, let format = audioFormat, format.sampleRate > 0 {
                let seconds = Double(frames) / Double(format.sampleRate)
                queue.update(id: current.song) { $0.song.duration = seconds }
            }
            finishStreamAccounting()
            stream = nil
            try? run({ (p: inout Player, q: Queue) in p.songFinished(in: q) }, user: false)
        case .streamCut(let id, let failure, let bytes):
            guard let current = stream, current.id == id, let uri = queue.song(withID: current.song)?.song.uri else { return }
            guard case .track(let trackID)? = try? CatalogURI(parsing: uri) else {
                log.info("\(uri): download cut after \(bytes) bytes (\(failure)); fetching the rest")
                engine.resume(stream: id, url: uri)
                return
            }
            if let url = validPreviewURL(trackID), failure != .httpStatus(403) {
                log.info("\(uri): download cut after \(bytes) bytes (\(failure)); fetching the rest")
                engine.resume(stream: id, url: url)
                return
            }
            // The signed URL expired (typically during a long pause): a fresh
            // one for the same media, then the rest from the same byte.
            log.info("\(uri): download cut after \(bytes) bytes (\(failure)); resolving the preview URL again")
            previewURLs[trackID] = nil
            prefetchURLs[uri] = nil
            catalog.request("/track/\(trackID)", as: DeezerTrack.self, fresh: true) { [weak self] result in
                guard let self, self.stream?.id == id else { return }
                switch result {
                case .success(let track) where track.unplayableReason == nil:
                    self.remember(track)
                    self.engine.resume(stream: id, url: track.preview!)
                    self.because(.urlRefreshed) { self.notify(.player) }
                case .success(let track):
                    self.skip(stream: id, reason: "\(uri): \(track.unplayableReason ?? "unplayable")")
                case .failure(let e):
                    self.skip(stream: id, reason: e.protocolError(item: uri).message)
                }
            }
        case .outputChanged(let lost):
            if let lost {
                log.warning("output lost: \(lost); reconnecting")
                outputError = "output: \(lost); reconnecting"
            } else {
                log.info("output back")
                outputError = nil
            }
            notify([.player, .output])
        case .streamFailed(let id, let failure, _):
            guard let current = stream, current.id == id else { return }
            if failure == .httpStatus(403), !current.retried,
               case .track(let trackID)? = try? CatalogURI(parsing: queue.song(withID: current.song)?.song.uri ?? "") {
                // Signed preview URLs turn 403 once expired: resolve once more.
                log.info("deezer:track:\(trackID): preview answered 403, resolving it again")
                previewURLs[trackID] = nil
                prefetchURLs[queue.song(withID: current.song)?.song.uri ?? ""] = nil
                start(song: current.song, retried: true, offset: current.from)
                return
            }
            if case .unavailable(let seconds) = failure, !current.retried, seconds <= PlayerController.longestRetryAfter {
                // Overloaded, and it says when to come back: once, then skip.
                let song = current.song
                log.info("\(queue.song(withID: song)?.song.uri ?? "song"): \(failure); trying again then")
                stream = (current.id, song, true, current.from, current.whole)
                schedule(Double(seconds)) { [weak self] in
                    guard let self, self.stream?.id == id else { return }
                    self.start(song: song, retried: true, offset: current.from)
                }
                return
            }
            skip(stream: id, reason: "\(queue.song(withID: current.song)?.song.uri ?? "song"): \(failure)")
        }
    }

    /// Skips the song of stream `id`. Deferred to the next loop turn: with
    /// answers from the cache a run of unplayable songs would otherwise
    /// recurse once per song.
    private func failed(stream id: StreamID, reason: String) {
        schedule(0) { [weak self] in
            guard let self, self.stream?.id == id else { return }
            self.skip(stream: id, reason: reason)
        }
    }

    private func skip(stream id: StreamID, reason: String) {
        because(.error) { skipSong(stream: id, reason: reason) }
    }

    private func skipSong(stream id: StreamID, reason: String) {
        log.warning("skipping: \(reason)")
        defer { if stream == nil || stream?.id == id { releaseWaiters() } }
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

    // MARK: saved state

    /// The state to save.
    func snapshot() -> SavedState {
        SavedState(queue: queue.songs, queueVersion: queue.version, nextID: queue.upcomingID,
                   current: player.current, state: player.state, elapsed: player.state == .stop ? 0 : elapsed,
                   modes: player.modes, volume: volume, outputEnabled: outputEnabled, replayGainMode: replayGainMode)
    }

    /// Restores saved state at start-up: paused at the same place, or playing
    /// from it when `playing`.
    func restore(_ saved: SavedState, playing: Bool) {
        queue = Queue(restoring: saved.queue, nextID: saved.nextID, version: saved.queueVersion, maxLength: queue.maxLength)
        volume = max(0, min(100, saved.volume))
        outputs[0].enabled = saved.outputEnabled
        replayGainMode = saved.replayGainMode
        applyOutputs()
        var state = saved.state
        if state == .play && !playing { state = .pause }
        if state == .pause && playing { state = .play }
        player.restore(state: state, current: saved.current, modes: saved.modes, in: queue)
        if player.state != .stop, let id = player.current {
            start(song: id, retried: false, offset: saved.elapsed)
        }
    }

    // MARK: status

    /// Seconds played of the current song (0 before its first sample).
    var elapsed: Double {
        guard let stream else { return 0 }
        guard let pos = engine.position(), pos.stream == stream.id else { return stream.from }
        return max(pos.seconds, stream.from)
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

    /// What a `status` reply depends on besides the changes `notify`
    /// counts: the clock while a song plays, and what the stream tells.
    private struct StatusKey: Equatable {
        var changes: Int
        var elapsedMillis: Int
        var format: AudioFormat?
        var bitrate: Int
        var error: String?
    }
    private var statusCache: (key: StatusKey, bytes: [UInt8])?

    /// The `status` reply, built by `build` only when something it shows
    /// changed: status bars and scripts ask far more often than anything
    /// changes (a pipelined burst of `status` is answered from this copy).
    func cachedStatus(_ build: (inout Reply) -> Void) -> [UInt8] {
        let key = StatusKey(changes: changeCount,
                            elapsedMillis: player.state == .stop ? -1 : Int(clamping: elapsed * 1000),
                            format: currentFormat, bitrate: currentBitrate, error: statusError)
        if let statusCache, statusCache.key == key { return statusCache.bytes }
        var reply = Reply()
        build(&reply)
        statusCache = (key, reply.bytes)
        return reply.bytes
    }

    /// Total seconds played since start (for `stats`).
    var totalPlayTime: Double { playedSeconds + elapsed }
}
