import PreviewCatalog
import PreviewCore

/// Autoplay's state, on the control thread (`PlayerController+Autoplay.swift`).
final class AutoplayBook {
    /// `autoplay 1`.
    var on = false
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
    /// Autoplay failed after the queue ended: when it finds a song, it plays.
    var stalled = false
    /// A catalog read is under way; the queue ended while it was.
    var reading = false
    var endedWhileReading = false
    /// A check is scheduled (`autoplayNoticed`).
    var checkPending = false
    /// The song last noted as played.
    var noted: SongID?
    /// Why autoplay stopped (shown as `error:`), and when it tries again
    /// (monotonic seconds); reads failed in a row.
    var error: String?
    var retryAt = 0.0
    var failures = 0
    /// Catalog requests made and songs added, since start (the benchmark's figures).
    var requests = 0
    var added = 0
    var rng = SplitMix64(seed: 0x5EED_A070)
}

/// Autoplay (issue 45; the rule is `AutoplayRule`, docs/autoplay.md): when
/// the song playing is the last in play order and `repeat` and `single`
/// are off, a song like the ones played lately is appended, so the
/// prefetcher has it before the queue would end. A song autoplay added
/// leaves the queue once played (`Player.songFinished`).
extension PlayerController {
    /// Retry delays after a failed catalog read, in seconds (the last repeats).
    static let autoplayBackoff: [Double] = [30, 60, 120, 300]

    /// `autoplay 0|1`.
    package var autoplayOn: Bool { autoplay.on }

    /// `autoplay 0|1`: reported as `options`; turning it off clears its error.
    package func setAutoplay(_ on: Bool) {
        guard on != autoplay.on else { return retryAutoplay() }
        autoplay.on = on
        autoplay.error = nil
        autoplay.failures = 0
        autoplay.retryAt = 0
        autoplay.stalled = false
        notify(.options)
    }

    /// What autoplay saves with the state: on or off, and the plays remembered.
    package var autoplayHistory: PlayHistory { autoplay.history }

    /// Restores autoplay's switch and history (state file, settings).
    package func restoreAutoplay(on: Bool, history: PlayHistory?) {
        autoplay.on = on
        if let history { autoplay.history = history }
    }

    /// The catalog track played last (`deezer:track:ID`), autoplay on or
    /// off: Listen Now's More like starts from its album for a new user.
    package var lastPlayedTrack: String? { autoplay.history.uris.last { $0.hasPrefix("deezer:track:") } }

    /// Autoplay's figures: catalog requests made and songs added.
    package var autoplayCounts: (requests: Int, added: Int) { (autoplay.requests, autoplay.added) }

    /// Why autoplay stopped, while it waits to try again.
    var autoplayError: String? { autoplay.on ? autoplay.error : nil }

    /// A change that may call for autoplay (from `notify`): checked once the
    /// change is over, on the control thread.
    func autoplayNoticed() {
        if player.state == .stop, reason != .user, autoplay.reading { autoplay.endedWhileReading = true }
        // Playing something else is the user's answer to a stalled autoplay.
        if reason == .user, player.state == .play { autoplay.stalled = false }
        guard !autoplay.checkPending else { return }
        autoplay.checkPending = true
        schedule(0) { [weak self] in
            guard let self else { return }
            autoplay.checkPending = false
            noteStarted()
            feedIfLast()
        }
    }

    /// Notes the current song once as played: history, seeds.
    private func noteStarted() {
        guard player.state != .stop, let id = player.current, id != autoplay.noted,
              let song = queue.song(withID: id)?.song else { return }
        autoplay.noted = id
        autoplay.history.played(song.uri)
        autoplay.played = Array(([song] + autoplay.played).prefix(AutoplayRule.seedCount))
        if !AutoplayRule.added(song) {
            autoplay.chosen = Array(([song] + autoplay.chosen).prefix(AutoplayRule.seedCount))
        }
    }

    /// Appends a song when the current one is the last to play, or when
    /// the queue ended while autoplay read the catalog or waited to try again.
    private func feedIfLast() {
        let m = player.modes
        guard autoplay.on, !autoplay.reading, !m.repeat, m.single == .off else { return }
        let ended = autoplay.endedWhileReading || (autoplay.stalled && player.state == .stop)
        autoplay.endedWhileReading = false
        guard ended || (player.state != .stop && player.songAfterCurrent(in: queue) == nil) else { return }
        if append(ended: ended) { return }
        guard clock.monotonic() >= autoplay.retryAt else { return }
        read(ended: ended, tries: 2)
    }

    /// Reads the catalog for the seeds not read yet, then appends; when
    /// that brings nothing new, the other seeds are read (`tries` reads at
    /// most), then autoplay waits.
    private func read(ended: Bool, tries: Int) {
        guard let seeds = seedsToRead() else { return failed("nothing new is like what played lately") }
        autoplay.reading = true
        readPool(seeds) { [weak self] failure in
            guard let self else { return }
            autoplay.reading = false
            let ended = ended || autoplay.endedWhileReading
            autoplay.endedWhileReading = false
            if let failure {
                failed(failure, ended: ended)
            } else if append(ended: ended) {
                autoplay.failures = 0
                autoplay.stalled = false
            } else if tries > 1 {
                read(ended: ended, tries: tries - 1)
            } else {
                failed("nothing new is like what played lately", ended: ended)
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

    /// Appends the pool's next pick; `ended`: the queue ended meanwhile, so
    /// it plays. False when the pool has nothing usable.
    private func append(ended: Bool) -> Bool {
        noteStarted()
        let queued = Set(queue.songs.map(\.song.uri))
        // The artists heard last, not the queue's last rows: played autoplay
        // songs have left the queue, and nothing follows the current song.
        let tail = autoplay.played.prefix(AutoplayRule.maxRun).reversed().map { Self.artistKey($0.artist) }
        let (picks, rest) = AutoplayRule.pick(1, from: autoplay.pool, heard: autoplay.history, queued: queued, tail: tail,
                                              using: &autoplay.rng)
        autoplay.pool = rest
        guard let pick = picks.first else { return false }
        because(.autoplay) {
            guard let ids = try? insert([AutoplayRule.tagged(pick)], at: nil), let id = ids.first else { return }
            autoplay.added += 1
            if autoplay.error != nil {
                autoplay.error = nil
                notify(.player)
            }
            log.info("autoplay: added \(pick.song.uri) (like \"\(pick.like)\")")
            if ended, player.state == .stop { try? run({ (p: inout Player, q: Queue) throws(ProtocolError) in try p.play(id: id, in: q) }, user: false) }
        }
        return true
    }

    /// Autoplay stopped: says why (`error:` in `status`, an event) and
    /// waits before reading again; `ended`: the queue ended meanwhile, so
    /// the song found then plays.
    private func failed(_ why: String, ended: Bool = false) {
        let wait = Self.autoplayBackoff[min(autoplay.failures, Self.autoplayBackoff.count - 1)]
        autoplay.failures += 1
        autoplay.retryAt = clock.monotonic() + wait
        autoplay.stalled = autoplay.stalled || ended || player.state == .stop
        autoplay.error = "autoplay: \(why); trying again in \(Int(wait)) s"
        log.warning(autoplay.error ?? "")
        because(.autoplay) { notify(.player) }
        schedule(wait) { [weak self] in self?.autoplayNoticed() }
    }

    /// `clearerror`, or `autoplay 1` while on: autoplay tries again now.
    func retryAutoplay() {
        guard autoplay.on, autoplay.error != nil else { return }
        autoplay.error = nil
        autoplay.retryAt = 0
        autoplay.readChosen = []
        autoplay.readPlayed = []
        notify(.player)
    }

    /// The artist compared for runs: the name, case folded.
    static func artistKey(_ name: String?) -> String { (name ?? "").lowercased() }
}

// MARK: reading the catalog

/// One read of the catalog for autoplay: the requests in flight, what
/// they found, and `done` after the last answer.
private final class AutoplayRead {
    let catalog: CatalogBrowser
    let book: AutoplayBook
    private var left = 1
    private(set) var lastFailure: String?
    /// Seed artists read so far (at most three).
    var artists: [Int] = []
    /// (seed rank, source, songs), merged in this order once all answered,
    /// so the pool does not depend on which answer came first.
    var found: [(rank: Int, source: AutoplayRule.Source, songs: [AutoplayRule.Candidate])] = []
    private let done: (AutoplayRead) -> Void

    init(catalog: CatalogBrowser, book: AutoplayBook, done: @escaping (AutoplayRead) -> Void) {
        self.catalog = catalog
        self.book = book
        self.done = done
    }

    /// One request through the catalog's cache and rate limit (`CatalogBrowser.request`);
    /// `use` gets the answer and may ask more before this one counts as done.
    func ask<T: Decodable>(_ path: String, as type: T.Type, _ use: @escaping (T) -> Void) {
        left += 1
        book.requests += 1
        catalog.request(path, as: type, item: "autoplay") { [self] result in
            switch result {
            case .success(let value):
                use(value)
            case .failure(let e):
                lastFailure = e.message
            }
            release()
        }
    }

    /// The songs of a track list as candidates for `seed`, their preview
    /// URLs kept so playing them asks the catalog nothing more.
    func add(_ tracks: [DeezerTrack], rank: Int, like: String, source: AutoplayRule.Source) {
        for t in tracks { catalog.previewURLs.remember(t) }
        found.append((rank, source, tracks.map {
            AutoplayRule.Candidate(song: $0.song(), artist: PlayerController.artistKey($0.artist?.name), weight: 0, like: like)
        }))
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
    /// each of up to three seed artists its radio and top tracks; for the
    /// latest, also two related artists' top tracks and the chart of its
    /// album's genre. A source that fails adds nothing; `done(why)` gets a
    /// reason only when no list was had.
    fileprivate func readPool(_ seeds: [Song], done: @escaping (String?) -> Void) {
        let read = AutoplayRead(catalog: catalog, book: autoplay) { [weak self] read in
            guard let self else { return }
            for part in read.found.sorted(by: { ($0.rank, $0.source.order) < ($1.rank, $1.source.order) }) {
                AutoplayRule.merge(part.songs, seed: part.rank, source: part.source, into: &autoplay.pool)
            }
            // The seeds' own /track/ID answers are often cached: only a
            // list answered counts as the catalog reached.
            done(read.found.isEmpty ? read.lastFailure ?? "nothing new is like what played lately" : nil)
        }
        for (rank, seed) in seeds.enumerated() {
            guard case .track(let id)? = try? CatalogURI(parsing: seed.uri) else { continue }
            read.ask("/track/\(id)", as: DeezerTrack.self) { track in
                guard let artist = track.artist?.id, !read.artists.contains(artist),
                      read.artists.count < Self.autoplaySeedArtists else { return }
                read.artists.append(artist)
                let like = seed.title ?? track.title ?? seed.uri
                read.ask("/artist/\(artist)/radio", as: DeezerPage<DeezerTrack>.self) {
                    read.add($0.data, rank: rank, like: like, source: .radio)
                }
                read.ask("/artist/\(artist)/top?limit=25", as: DeezerPage<DeezerTrack>.self) {
                    read.add($0.data, rank: rank, like: like, source: .top)
                }
                guard read.artists.count == 1 else { return }
                read.ask("/artist/\(artist)/related", as: DeezerPage<DeezerArtist>.self) { related in
                    for other in related.data.prefix(Self.autoplayRelatedArtists) {
                        read.ask("/artist/\(other.id)/top?limit=10", as: DeezerPage<DeezerTrack>.self) {
                            read.add($0.data, rank: rank, like: like, source: .related)
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
        read.release()
    }
}
