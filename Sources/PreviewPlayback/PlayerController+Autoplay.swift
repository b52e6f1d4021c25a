import PreviewCatalog
import PreviewCore

/// Autoplay's state, on the control thread (`PlayerController+Autoplay.swift`).
final class AutoplayBook {
    /// `autoplay 1`.
    var on = false
    /// The user's own choice (`autoplay 0|1`), saved with the state; nil
    /// while only `--autoplay` decided, so a later default still applies.
    var choice: Bool?
    /// The plays remembered (`PlayHistory`), saved with the state.
    var history = PlayHistory()
    /// The last songs started, latest first (at most `AutoplayRule.seedCount`),
    /// and of those the ones the user chose (not autoplay's).
    var played: [Song] = []
    var chosen: [Song] = []
    /// Candidates read and not used yet, and the seeds (URIs) last read:
    /// the user's, and all songs played lately.
    var pool: [AutoplayRule.Candidate] = []
    var readChosen: [String] = []
    var readPlayed: [String] = []
    /// The queue ended by itself (not a user's stop or clear): the song
    /// autoplay finds next plays.
    var queueEnded = false
    /// The player's state when last noticed, to tell a change.
    var seenState = PlaybackState.stop
    /// A catalog read is under way.
    var reading = false
    /// A check is scheduled (`autoplayNoticed`).
    var checkPending = false
    /// The song last noted as played.
    var noted: SongID?
    /// Why autoplay stopped (shown as `error:`), and when it tries again
    /// (monotonic seconds); reads failed in a row.
    var error: String?
    var retryAt = 0.0
    var failures = 0
    var rng = SplitMix64(seed: 0x5EED_A070)
}

/// Autoplay (issue 45; the rule is `AutoplayRule`, docs/autoplay.md): when
/// the song playing is the last in play order and `repeat` and `single`
/// are off, a song like the ones played lately is appended, so the
/// prefetcher has it before the queue would end. A song autoplay added
/// leaves the queue once played (`Player.songFinished`) or skipped
/// (`noteStarted`).
extension PlayerController {
    /// Retry delays after a failed catalog read, in seconds (the last repeats).
    static let autoplayBackoff: [Double] = [30, 60, 120, 300]

    /// `autoplay 0|1`.
    package var autoplayOn: Bool { autoplay.on }

    /// `autoplay 0|1`: reported as `options`; turning it off clears its
    /// error, and a read under way then adds nothing. `autoplay 1` while on
    /// tries again at once after a failure.
    package func setAutoplay(_ on: Bool) {
        autoplay.choice = on
        guard on != autoplay.on else { return _ = retryAutoplay() }
        autoplay.on = on
        autoplay.error = nil
        autoplay.failures = 0
        autoplay.retryAt = 0
        notify(.options)
    }

    /// `--autoplay` (settings `autoplay = yes`): on or off unless a saved
    /// state holds the user's own choice.
    package func autoplayDefault(_ on: Bool) {
        if autoplay.choice == nil { autoplay.on = on }
    }

    /// Restores the user's choice and the plays remembered, after the
    /// player's state (its current song is not noted as played again).
    func restoreAutoplay(choice: Bool?, history: PlayHistory?) {
        if let choice {
            autoplay.choice = choice
            autoplay.on = choice
        }
        if let history { autoplay.history = history }
        autoplay.seenState = player.state
        autoplay.noted = player.state == .stop ? nil : player.current
    }

    /// The catalog track played last (`deezer:track:ID`), autoplay on or
    /// off: Listen Now's More like starts from its album for a new user.
    package var lastPlayedTrack: String? { autoplay.history.uris.last { $0.hasPrefix("deezer:track:") } }

    /// Why autoplay stopped, while it waits to try again.
    var autoplayError: String? { autoplay.on ? autoplay.error : nil }

    /// A change that may call for autoplay (from `notify`): tells a queue
    /// that ended by itself from a user's stop or clear, then checks once
    /// the change is over.
    func autoplayNoticed() {
        let state = player.state
        if state != autoplay.seenState {
            autoplay.queueEnded = state == .stop && reason != .user
            autoplay.seenState = state
        } else if state == .stop, reason == .user {
            // The user acted after the end (a clear, an add, `autoplay 0`):
            // what autoplay finds later waits in the queue.
            autoplay.queueEnded = false
        }
        scheduleAutoplayCheck()
    }

    /// Notes the song playing and appends if it is the last, once the
    /// change under way is over (on the control thread).
    private func scheduleAutoplayCheck() {
        guard !autoplay.checkPending else { return }
        autoplay.checkPending = true
        schedule(0) { [weak self] in
            guard let self else { return }
            autoplay.checkPending = false
            noteStarted()
            feedIfLast()
        }
    }

    /// Notes the current song once as played (history, seeds), and takes
    /// a song autoplay added out of the queue once another one plays.
    private func noteStarted() {
        guard player.state == .play, let id = player.current, id != autoplay.noted,
            let song = queue.song(withID: id)?.song
        else { return }
        if let before = autoplay.noted, let left = queue.song(withID: before), AutoplayRule.added(left.song) {
            because(.autoplay) { try? delete(id: before) }
        }
        autoplay.noted = id
        autoplay.history.played(song.uri)
        autoplay.played = Array(([song] + autoplay.played).prefix(AutoplayRule.seedCount))
        if !AutoplayRule.added(song) {
            autoplay.chosen = Array(([song] + autoplay.chosen).prefix(AutoplayRule.seedCount))
        }
    }

    /// Whether autoplay owes a song now: on, neither `repeat` nor
    /// `single`, and the song playing is the last, or the queue ended by
    /// itself.
    private var autoplayOwesSong: Bool {
        let m = player.modes
        guard autoplay.on, !m.repeat, m.single == .off else { return false }
        if player.state == .stop { return autoplay.queueEnded }
        return player.songAfterCurrent(in: queue) == nil
    }

    /// Appends a song when one is owed: from the pool, else after reading
    /// the catalog (not before `retryAt` after a failure).
    private func feedIfLast() {
        guard autoplayOwesSong, !autoplay.reading else { return }
        if append() { return }
        guard clock.monotonic() >= autoplay.retryAt else { return }
        read(tries: 2)
    }

    /// Reads the catalog for the seeds not read yet, then appends if a song
    /// is still owed; when that brings nothing new, the other seeds are
    /// read (`tries` reads at most), then autoplay waits.
    private func read(tries: Int) {
        guard let seeds = seedsToRead() else { return failed("nothing new is like what played lately") }
        autoplay.reading = true
        readPool(seeds) { [weak self] failure in
            guard let self else { return }
            autoplay.reading = false
            guard autoplay.on else { return }
            if let failure {
                // The catalog did not answer: these seeds are read again next time.
                autoplay.readChosen = []
                autoplay.readPlayed = []
                return failed(failure)
            }
            // Turned off, cleared, stopped or added to meanwhile: the pool waits.
            guard autoplayOwesSong else { return }
            if append() {
                autoplay.failures = 0
            } else if tries > 1 {
                read(tries: tries - 1)
            } else {
                failed("nothing new is like what played lately")
            }
        }
    }

    /// The seeds to read now, marked as read: the songs the user chose
    /// when they changed since last read; else every song played lately
    /// (autoplay's too, so the choice moves on instead of repeating) when
    /// those changed; else none.
    private func seedsToRead() -> [Song]? {
        let chosen = autoplay.chosen.map(\.uri)
        if !chosen.isEmpty && chosen != autoplay.readChosen {
            autoplay.readChosen = chosen
            return autoplay.chosen
        }
        let played = autoplay.played.map(\.uri)
        if !played.isEmpty && played != autoplay.readPlayed {
            autoplay.readPlayed = played
            return autoplay.played
        }
        return nil
    }

    /// Appends the pool's next pick, and plays it when the queue ended by
    /// itself. False when the pool has nothing usable.
    private func append() -> Bool {
        noteStarted()
        let queued = Set(queue.songs.map(\.song.uri))
        // The artists heard last, not the queue's last rows: played autoplay
        // songs have left the queue, and nothing follows the current song.
        let tail = autoplay.played.prefix(AutoplayRule.maxRun).reversed().map { Self.artistKey($0.artist) }
        let (picks, rest) = AutoplayRule.pick(
            1, from: autoplay.pool, heard: autoplay.history, queued: queued, tail: tail,
            using: &autoplay.rng)
        autoplay.pool = rest
        guard let pick = picks.first else { return false }
        because(.autoplay) {
            guard let ids = try? insert([AutoplayRule.tagged(pick)], at: nil), let id = ids.first else { return }
            if autoplay.error != nil {
                autoplay.error = nil
                notify(.player)
            }
            log.info("autoplay: added \(pick.song.uri) (like \"\(pick.like)\")")
            if player.state == .stop, autoplay.queueEnded {
                autoplay.queueEnded = false
                try? run({ (p: inout Player, q: Queue) throws(ProtocolError) in try p.play(id: id, in: q) }, user: false)
            }
        }
        return true
    }

    /// Autoplay stopped: says why (`error:` in `status`, an event) and
    /// waits before reading again.
    private func failed(_ why: String) {
        let wait = Self.autoplayBackoff[min(autoplay.failures, Self.autoplayBackoff.count - 1)]
        autoplay.failures += 1
        autoplay.retryAt = clock.monotonic() + wait
        autoplay.error = "autoplay: \(why); trying again in \(Int(wait)) s"
        log.warning(autoplay.error ?? "")
        because(.autoplay) { notify(.player) }
        schedule(wait) { [weak self] in self?.scheduleAutoplayCheck() }
    }

    /// `clearerror`, or `autoplay 1` while on: autoplay tries again now.
    /// - Returns: whether it had stopped (and so notified `player`).
    func retryAutoplay() -> Bool {
        guard autoplay.on, autoplay.error != nil else { return false }
        autoplay.error = nil
        autoplay.retryAt = 0
        autoplay.readChosen = []
        autoplay.readPlayed = []
        because(.autoplay) { notify(.player) }
        return true
    }

    /// The artist compared for runs: the name, case folded.
    static func artistKey(_ name: String?) -> String { (name ?? "").lowercased() }
}

// MARK: reading the catalog

/// One read of the catalog for autoplay: the requests in flight, what
/// they found, and `done` after the last answer.
private final class AutoplayRead {
    let catalog: CatalogBrowser
    private var left = 1
    private(set) var lastFailure: String?
    /// The seeds' own track objects, by rank, once all have answered
    /// (nil: no answer), and the answers still awaited.
    var tracks: [DeezerTrack?] = []
    var tracksAwaited = 0
    /// (seed rank, source, part, songs), merged in this order once all
    /// answered, so the pool does not depend on which answer came first:
    /// `part` orders the answers of one rank and source (the related
    /// artists' top lists, in the order the related list named them).
    var found: [(rank: Int, source: AutoplayRule.Source, part: Int, songs: [AutoplayRule.Candidate])] = []
    private let done: (AutoplayRead) -> Void

    init(catalog: CatalogBrowser, done: @escaping (AutoplayRead) -> Void) {
        self.catalog = catalog
        self.done = done
    }

    /// One request through the catalog's cache and rate limit (`CatalogBrowser.request`);
    /// `use` gets the answer and may ask more before this one counts as
    /// done; `then` runs after it, answered or not.
    func ask<T: Decodable>(_ path: String, as type: T.Type, then: (() -> Void)? = nil, _ use: @escaping (T) -> Void) {
        left += 1
        catalog.request(path, as: type, item: "autoplay") { [self] result in
            switch result {
            case .success(let value):
                use(value)
            case .failure(let e):
                lastFailure = e.message
            }
            then?()
            release()
        }
    }

    /// Holds the read open (until `release`) while the caller still asks.
    func hold() { left += 1 }

    /// The songs of a track list as candidates for `seed`, their preview
    /// URLs kept so playing them asks the catalog nothing more.
    func add(_ tracks: [DeezerTrack], rank: Int, like: String, source: AutoplayRule.Source, part: Int = 0) {
        for t in tracks { catalog.previewURLs.remember(t) }
        found.append(
            (
                rank, source, part,
                tracks.map {
                    AutoplayRule.Candidate(song: $0.song(), artist: PlayerController.artistKey($0.artist?.name), weight: 0, like: like)
                }
            ))
    }

    /// Ends the caller's own hold (the one `init` starts with).
    func release() {
        left -= 1
        if left == 0 { done(self) }
    }
}

extension PlayerController {
    /// Related artists whose top tracks the latest seed brings.
    static let autoplayRelatedArtists = 2
    /// Seed artists read at most in one read.
    static let autoplaySeedArtists = 3

    /// Reads the candidates for `seeds` (latest first) into the pool: for
    /// each of up to three seed artists, in the seeds' order, its radio and
    /// top tracks; for the first, also two related artists' top tracks and
    /// the chart of its album's genre. A source that fails adds nothing;
    /// `done(why)` gets a reason only when no list was had.
    fileprivate func readPool(_ seeds: [Song], done: @escaping (String?) -> Void) {
        let read = AutoplayRead(catalog: catalog) { [weak self] read in
            guard let self else { return }
            for part in read.found.sorted(by: { ($0.rank, $0.source.order, $0.part) < ($1.rank, $1.source.order, $1.part) }) {
                AutoplayRule.merge(part.songs, seed: part.rank, source: part.source, into: &autoplay.pool)
            }
            // The seeds' own /track/ID answers are often cached: only a
            // list answered counts as the catalog reached.
            done(read.found.isEmpty ? read.lastFailure ?? "nothing new is like what played lately" : nil)
        }
        read.tracks = Array(repeating: nil, count: seeds.count)
        read.tracksAwaited = seeds.count
        read.hold()
        // Artists are chosen once every seed's track answered, in the
        // seeds' order: a cached answer comes first, an older seed must not
        // take the latest one's place.
        let arrived = { [weak self] in
            read.tracksAwaited -= 1
            guard read.tracksAwaited == 0 else { return }
            self?.askSources(read, seeds: seeds)
            read.release()
        }
        for (rank, seed) in seeds.enumerated() {
            guard case .track(let id)? = try? CatalogURI(parsing: seed.uri) else { arrived(); continue }
            read.ask("/track/\(id)", as: DeezerTrack.self, then: arrived) { read.tracks[rank] = $0 }
        }
        read.release()
    }

    /// Asks each seed artist's sources (see `readPool`).
    private func askSources(_ read: AutoplayRead, seeds: [Song]) {
        var artists: [Int] = []
        for (rank, track) in read.tracks.enumerated() {
            guard let track, let artist = track.artist?.id, !artists.contains(artist),
                artists.count < Self.autoplaySeedArtists
            else { continue }
            artists.append(artist)
            let like = seeds[rank].title ?? track.title ?? seeds[rank].uri
            read.ask("/artist/\(artist)/radio", as: DeezerPage<DeezerTrack>.self) {
                read.add($0.data, rank: rank, like: like, source: .radio)
            }
            read.ask("/artist/\(artist)/top?limit=25", as: DeezerPage<DeezerTrack>.self) {
                read.add($0.data, rank: rank, like: like, source: .top)
            }
            guard artists.count == 1 else { continue }
            read.ask("/artist/\(artist)/related", as: DeezerPage<DeezerArtist>.self) { related in
                for (part, other) in related.data.prefix(Self.autoplayRelatedArtists).enumerated() {
                    read.ask("/artist/\(other.id)/top?limit=10", as: DeezerPage<DeezerTrack>.self) {
                        read.add($0.data, rank: rank, like: like, source: .related, part: part)
                    }
                }
            }
            if let album = track.album?.id {
                read.ask("/album/\(album)", as: DeezerAlbum.self) { album in
                    guard let genre = album.genre_id, genre > 0 else { return }
                    read.ask("/chart/\(genre)/tracks?limit=50", as: DeezerPage<DeezerTrack>.self) {
                        read.add($0.data, rank: rank, like: like, source: .genre)
                    }
                }
            }
        }
    }
}
