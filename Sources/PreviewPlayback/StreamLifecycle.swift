import PreviewCore

/// The engine stream the controller wants played now, and what it learned
/// of it so far.
struct ActiveStream {
    /// The engine's name for it; events of other ids are stale.
    let id: StreamID
    /// The queued song it plays.
    let song: SongID
    /// Whether this is the second try (a refreshed URL, a wait after 503).
    var retried: Bool
    /// Where in the song it starts (a seek, a `rangeid` start), seconds.
    let from: Double
    /// Whether it plays the whole song, so its end gives the true duration.
    let whole: Bool
    /// When it was requested, monotonic seconds (for the "first audio" log line).
    let requestedAt: Double
    /// Whether its first audio reached the output.
    var audible = false
    /// The decoded format and bitrate (kbit/s) its first audio announced.
    var format: AudioFormat?
    var bitrate = 0
    /// The replay gain it plays with, chosen as it opens.
    var gain: ReplayGain = .none
    /// The frame (from the song's start) it finished at, once decoded and
    /// written to an output that still holds its last samples: playback
    /// stops with this song, and waits until they are heard.
    var finishedAt: Int?
}

/// A stream named to the engine before it plays: the next song, for a crossfade.
struct QueuedStream: Equatable {
    let id: StreamID
    let song: SongID
    let url: String
    let from: Double
    let until: Double?
    let gain: ReplayGain
}

/// The bookkeeping around the streams, one after another.
struct StreamLifecycle {
    /// The stream now wanted, if any.
    var active: ActiveStream?
    /// The id the next stream gets.
    var nextID: StreamID = 1
    /// Failed starts in a row; playback stops when every song failed.
    var failuresInARow = 0
    /// Seconds of audio played before the active stream (for `stats` playtime).
    var playedSeconds = 0.0
    /// Commands (`play`, `playid`, `seek`, ...) waiting for the new song's
    /// first audio, so a `status` right after them shows its format.
    /// `next` and `previous` never wait (see `noteSkip`).
    var waiters: [() -> Void] = []
    /// Skips (`next`, `previous`) taken so far: a timer set at a skip finds
    /// it unchanged only when no skip came after it.
    var skips = 0
    /// Whether a burst of skips is under way: from a skip until
    /// `PlayerController.burstQuiet` passes without another, or a command
    /// plays a song. No new prefetch list is made meanwhile.
    var inBurst = false
    /// `crossfade`: the overlap of one song with the next, in seconds (0: gapless).
    var crossfadeSeconds = 0
    /// The stream the engine was told to fade into (`queueNext`), and,
    /// while the fade's `songFinished` runs, the one `start` adopts.
    var queued: QueuedStream?
    var fadingInto: QueuedStream?
    /// Counts the waits for a last song's end to be heard: a wait armed
    /// before a pause finds it changed once the resume armed another.
    var finishWaits = 0

    /// Takes the next stream id.
    mutating func takeID() -> StreamID {
        defer { nextID += 1 }
        return nextID
    }
}

/// Starting, opening and skipping streams (MPD's `PlaylistControl` and the
/// player's side of it).
extension PlayerController {
    /// Longest wait for first audio before a command answers anyway, seconds.
    static let startWaitLimit = 2.0
    /// How long a skipped-to song that needs the network waits for the
    /// next skip before it is opened, in seconds.
    static let skipSettle = 0.05
    /// How long after the last skip a burst of skips is over and the songs
    /// after the one it landed on may be prefetched, in seconds. Longer than
    /// `skipSettle`: a key repeat that a hotkey turns into one client
    /// process per press (`mpc next`, `previewctl next`) leaves gaps of a
    /// few tens of milliseconds, and a busy machine stretches them.
    static let burstQuiet = 0.5
    /// The longest `Retry-After` (seconds) a 503 is waited out for; a
    /// longer one skips the song at once.
    static let longestRetryAfter = 10

    /// Seconds played of the current song (0 before its first sample): where
    /// in the song it is, so a seek or a restored position counts.
    package var elapsed: Double {
        guard let stream = streams.active else { return 0 }
        guard let pos = engine.position(), pos.stream == stream.id else { return stream.from }
        return max(pos.seconds, stream.from)
    }

    /// The decoded format of the current song, once known.
    package var currentFormat: AudioFormat? {
        guard let stream = streams.active, let pos = engine.position(), pos.stream == stream.id else { return nil }
        return pos.format ?? stream.format
    }

    /// The current song's bitrate in kbit/s.
    package var currentBitrate: Int {
        guard let stream = streams.active, let pos = engine.position(), pos.stream == stream.id else { return 0 }
        return pos.bitrate > 0 ? pos.bitrate : stream.bitrate
    }

    /// Calls `done` once the song just started is audible, it failed, playback
    /// stopped, or `startWaitLimit` passed, whichever comes first.
    package func whenAudible(_ done: @escaping () -> Void) {
        guard let stream = streams.active, !stream.audible else {
            done()
            return
        }
        streams.waiters.append(done)
        let waiting = streams.waiters.count
        schedule(PlayerController.startWaitLimit) { [weak self] in
            guard let self, self.streams.waiters.count >= waiting else { return }
            self.releaseWaiters()
        }
    }

    func releaseWaiters() {
        let waiters = streams.waiters
        streams.waiters = []
        for w in waiters { w() }
    }

    /// Stops the engine and forgets the stream (`stop`, an empty queue).
    func halt() {
        dropUnheardEnd()
        finishStreamAccounting()
        streams.active = nil
        streams.queued = nil
        engine.stop()
        releaseWaiters()
    }

    /// A command replaces or stops the active stream while the output
    /// still holds its end (`finishedAt`): that end is dropped, so the
    /// command is heard at once. (When the end was heard, `streamFinished`
    /// forgot the stream first.)
    func dropUnheardEnd() {
        if streams.active?.finishedAt != nil { engine.dropBuffered() }
    }

    /// Seconds the active stream really played: from where it started (a
    /// seek, a restored position, a `rangeid` start), not from the song's
    /// start, which the engine's position counts from.
    var streamPlayedSeconds: Double {
        guard let stream = streams.active, let pos = engine.position(), pos.stream == stream.id else { return 0 }
        return max(0, pos.seconds - stream.from)
    }

    /// Adds what the active stream played to the play time.
    func finishStreamAccounting() {
        streams.playedSeconds += streamPlayedSeconds
    }

    /// A `next` or `previous` was taken: it begins a burst of skips or
    /// makes the one under way last `burstQuiet` more. Once that passes
    /// without another skip, the burst is over and prefetching goes on
    /// (when the song it landed on is audible; see `prefetchCandidates`).
    func noteSkip() {
        streams.skips += 1
        streams.inBurst = true
        let skip = streams.skips
        schedule(PlayerController.burstQuiet) { [weak self] in
            guard let self, self.streams.skips == skip else { return }
            self.endBurst()
        }
    }

    /// Ends a burst of skips (its quiet time passed, or a command such as
    /// `play` chose a song), so the prefetch list is made again.
    func endBurst() {
        guard streams.inBurst else { return }
        streams.inBurst = false
        prefetcher.scheduleRefresh()
    }

    /// The songs to download ahead: the next `prefetcher.count` in play
    /// order, once the current song is audible (so it never waits behind
    /// them) and no burst of skips is under way; nil keeps what is under
    /// way; nothing when stopped.
    ///
    /// The key-repeat rule: while a burst lasts, what was prefetched before
    /// it stays (a skip onto such a song starts at once), but nothing new
    /// is listed, so passing over a song never makes the engine fetch the
    /// ones after it; a skip onto any other song opens it only after
    /// `skipSettle` without another skip. A burst thus fetches the song it
    /// lands on, and then what follows it.
    func prefetchCandidates() -> [Song]? {
        guard player.state != .stop else { return [] }
        if streams.inBurst { return nil }
        // Until the new song is heard, what is under way is likely still
        // wanted, and a new list would only compete with the song.
        if player.state == .play, let stream = streams.active, !stream.audible { return nil }
        return player.upcoming(prefetcher.count, in: queue).compactMap { queue.song(withID: $0)?.song }
    }

    /// Resolves the song's preview URL if needed and starts the engine on it,
    /// `offset` seconds in (a seek), within the song's `rangeid` range.
    /// With `skip`, a song that must come from the network opens only after
    /// `skipSettle` seconds without another skip.
    func start(song id: SongID, retried: Bool, offset: Double = 0, skip: Bool = false) {
        guard let entry = queue.song(withID: id) else { return }
        if adoptFade(of: id, offset: offset) { return }
        dropUnheardEnd()
        finishStreamAccounting()
        streams.queued = nil
        let streamID = streams.takeID()
        let from = max(offset, entry.range?.start ?? 0)
        let until = entry.range?.end
        streams.active = ActiveStream(
            id: streamID, song: id, retried: retried, from: from,
            whole: from == 0 && until == nil, requestedAt: clock.monotonic())
        engine.setPaused(player.state == .pause)
        if skip, prefetcher.listedURL(for: entry.song.uri) == nil, entry.song.unplayable == nil {
            // The old song stops now; the new one opens unless skipped past.
            engine.stop()
            schedule(PlayerController.skipSettle) { [weak self] in
                guard let self, self.streams.active?.id == streamID else { return }
                self.open(streamID, entry: entry, retried: retried, from: from, until: until)
            }
            return
        }
        open(streamID, entry: entry, retried: retried, from: from, until: until)
    }

    /// Starts stream `streamID` on the song: straight from a known URL, or
    /// after resolving the track's preview URL.
    private func open(_ streamID: StreamID, entry: QueuedSong, retried: Bool, from: Double, until: Double?) {
        let uri = entry.song.uri
        if let reason = entry.song.unplayable {
            // Known from the listing it came with: no request, no sound, a reason.
            failed(stream: streamID, reason: reason)
            return
        }
        guard case .track(let trackID)? = try? CatalogURI(parsing: uri) else {
            log.info(startLine(uri))
            // Its body when prefetched whole (crossfade on), else streamed (`mayBeEndless`).
            play(streamID, song: entry.song, url: uri, key: uri, from: from, until: until)
            return
        }
        if !retried, let url = prefetcher.listedURL(for: uri) ?? previewURLs.validURL(for: trackID) {
            log.info(startLine(uri))
            play(streamID, song: entry.song, url: url, key: uri, from: from, until: until)
            return
        }
        prefetcher.forget(uri: uri)
        engine.stop()
        catalog.client.request("/track/\(trackID)", as: DeezerTrack.self, fresh: retried) { [weak self] result in
            guard let self, self.streams.active?.id == streamID else { return }
            switch result {
            case .failure(let e):
                self.failed(stream: streamID, reason: e.protocolError(item: uri).message)
            case .success(let track):
                self.opened(streamID, entry: entry, track: track, retried: retried, from: from, until: until)
            }
        }
    }

    /// Plays a track whose preview URL just came from the catalog, with its
    /// fresh title and artist.
    private func opened(_ streamID: StreamID, entry: QueuedSong, track: DeezerTrack, retried: Bool, from: Double, until: Double?) {
        let uri = entry.song.uri
        if let reason = track.unplayableReason {
            previewURLs.forget(track.id)
            failed(stream: streamID, reason: reason)
            return
        }
        previewURLs.remember(track)
        queue.update(id: entry.id) { queued in
            let fresh = track.song(albumTitle: queued.song.album)
            queued.song.title = fresh.title ?? queued.song.title
            queued.song.artist = fresh.artist ?? queued.song.artist
        }
        log.info(startLine(uri) + (retried ? " (preview URL refreshed)" : ""))
        play(
            streamID, song: queue.song(withID: entry.id)?.song ?? entry.song, url: track.preview!, key: uri,
            from: from, until: until)
        if retried { because(.urlRefreshed) { notify(.player) } }
    }

    /// Starts the engine on stream `streamID` with the song's replay gain:
    /// chosen now when the song was measured (or replay gain is off), else
    /// chosen by the engine once it has measured the song, before its
    /// first sample (`.gainChosen`; until then `status` shows the fallback).
    private func play(_ streamID: StreamID, song: Song, url: String, key: String?, from: Double, until: Double?) {
        var info = song.streamInfo
        if let plan = loudness.plan(for: song, random: player.modes.random) {
            info.measure = plan
            streams.active?.gain = plan.resolve(nil)
            engine.play(stream: streamID, url: url, key: key, from: from, until: until, info: info)
            return
        }
        let gain = loudness.gain(for: song, random: player.modes.random)
        streams.active?.gain = gain
        info.gain = gain.scale
        engine.play(stream: streamID, url: url, key: key, from: from, until: until, info: info)
        // Not held (held once already in this run): measured from its
        // whole body after all, for its next plays.
        if let key, loudness.shouldMeasure(key) { engine.measureLoudness(key) }
    }

    /// The log line for a stream being opened (paused after a restore or a
    /// seek while paused, so not "playing").
    private func startLine(_ uri: String) -> String {
        (player.state == .pause ? "ready, paused: " : "playing ") + uri
    }

    /// Skips the song of stream `id`. Deferred to the next loop turn: with
    /// answers from the cache a run of unplayable songs would otherwise
    /// recurse once per song.
    func failed(stream id: StreamID, reason: String) {
        schedule(0) { [weak self] in
            guard let self, self.streams.active?.id == id else { return }
            self.skip(stream: id, reason: reason)
        }
    }

    /// Gives up on the song of stream `id` and moves on (or stops, when
    /// every song in the queue failed in a row); `reason` becomes `error:`.
    func skip(stream id: StreamID, reason: String) {
        because(.error) {
            log.warning("skipping: \(reason)")
            defer { if streams.active == nil || streams.active?.id == id { releaseWaiters() } }
            lastError = reason
            streams.active = nil
            streams.failuresInARow += 1
            if streams.failuresInARow >= max(queue.count, 1) {
                streams.failuresInARow = 0
                try? run({ (p: inout Player, _: Queue) in p.stop() }, user: false)
                notify(.player)
                return
            }
            try? run({ (p: inout Player, q: Queue) in p.songFailed(in: q) }, user: false)
            notify(.player)
        }
    }
}
