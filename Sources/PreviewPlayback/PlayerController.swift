import PreviewCatalog
import PreviewCore
import PreviewPlatform

/// The sole owner of the queue, the player, the volume, the outputs and the
/// errors, on the control thread; it reports every change (`notify`).
/// Commands call into it. Its other concerns are named parts, one file each
/// (as MPD splits its playlist into `Playlist`, `PlaylistControl`,
/// `PlaylistEdit` and `PlaylistState`):
/// - queue edits: `PlayerController+Edit.swift`;
/// - the stream lifecycle (start, open, skip, waiters): `StreamLifecycle.swift`,
///   and the engine's events: `EngineEvents.swift`;
/// - preview URLs: `PreviewURLCache`; prefetch: `Prefetcher`;
/// - catalog browsing: `CatalogBrowser`;
/// - state snapshot and restore: `PlayerController+State.swift`;
/// - autoplay, when the queue's last song plays: `PlayerController+Autoplay.swift`;
/// - the fields of `events` records: `EventFields.swift`.
package final class PlayerController {
    /// The queue; changed only by the controller's own files.
    var queue: Queue
    /// Play order, modes and the current song; changed only by the controller's files.
    var player: Player
    /// `setvol`'s value, 0...100 percent.
    package private(set) var volume = 100
    /// The last playback error, shown as `error:` in `status` until `clearerror`.
    var lastError: String?
    /// Why the output is lost, while it is; shown as `error:` when there is
    /// no playback error, and not cleared by `play` or `clearerror`.
    private(set) var outputError: String?
    /// The `error:` `status` shows.
    package var statusError: String? { lastError ?? outputError ?? autoplayError }

    /// The audio side: streams, prefetch, pause, volume, outputs.
    let engine: AudioEngine
    /// Looking around the catalog (models, not replies).
    let catalog: CatalogBrowser
    /// Signed preview URLs by track id, shared with the browser and the prefetcher.
    let previewURLs: PreviewURLCache
    /// Keeps the next songs downloading.
    let prefetcher: Prefetcher
    /// Loudness measurements and the replay gain each song gets.
    let loudness: LoudnessBook
    let log: Log
    /// Monotonic and wall-clock time (a clock the test moves in unit tests).
    package let clock: Clock
    /// Runs a closure after a delay (seconds) on the control thread.
    package let schedule: (Double, @escaping () -> Void) -> Void
    /// Told of every change, event and seek (`addListener`).
    private var listeners: [any PlaybackListener] = []
    /// When the controller started (for `stats` uptime), monotonic seconds.
    let startTime: Double
    /// Seconds since the controller started.
    package var uptime: Double { clock.monotonic() - startTime }
    /// Counts changes, so the state file is written only after one.
    package private(set) var changeCount = 0
    /// The stream being played and its bookkeeping (`StreamLifecycle.swift`).
    var streams = StreamLifecycle()
    /// `mixrampdb` and `mixrampdelay`: kept and shown, not applied (`MixRamp`).
    package internal(set) var mixRamp = MixRamp()
    /// Shuffles the queue (`shuffle`); seeded from the random source given.
    var shuffleSource: SplitMix64
    /// Autoplay's switch, history, pool and errors (`PlayerController+Autoplay.swift`).
    let autoplay = AutoplayBook()

    /// Why the changes being made now happen: a command unless an engine
    /// event or a timer says otherwise.
    private(set) var reason = EventReason.user

    /// One entry of `outputs`.
    package struct OutputEntry: Equatable {
        package let name: String
        package let plugin: String
        package var enabled: Bool

        /// - Parameters: name: as `outputs` lists it; plugin: its kind's.
        package init(name: String, plugin: String, enabled: Bool) {
            self.name = name
            self.plugin = plugin
            self.enabled = enabled
        }
    }
    /// `outputs`: the engine's outputs in its order (`OutputKind.listed`),
    /// each switched on and off by `setOutput`. With none enabled playback
    /// goes on, heard nowhere, as mpd's does.
    package private(set) var outputs: [OutputEntry]
    /// Whether output 0 is enabled (saved with the state).
    var outputEnabled: Bool { outputs[0].enabled }
    /// `previous` more than this many seconds into a song restarts it (0: mpd's
    /// behaviour, always the song before).
    package var previousRestartSeconds = 3.0
    /// How many songs ahead of the current one are downloaded (`--prefetch`).
    package var prefetchCount: Int {
        get { prefetcher.count }
        set { prefetcher.count = newValue }
    }
    /// `replay_gain_mode`, as saved with the state.
    package var replayGainMode: String { loudness.mode.rawValue }
    private var updateJobs = 0

    /// - Parameters:
    ///   - catalog: the catalog browser; its Deezer client and preview URLs
    ///     serve prefetch and the streams too.
    ///   - seed: the random source for play order and `shuffle`.
    ///   - maxQueueLength: songs the queue holds at most (mpd's
    ///     `max_playlist_length`); the fuzzer keeps it small, so that inputs
    ///     that double the queue (`load` + `save append`) stay cheap.
    ///   - schedule: runs a closure after a delay (seconds) on the control thread.
    ///   - loudness: the measurements known (default: none, kept in memory).
    package init(
        engine: AudioEngine, catalog: CatalogBrowser, log: Log, seed: UInt64, clock: Clock = .system,
        loudness: LoudnessBook? = nil,
        outputs: [OutputEntry] = [OutputEntry(name: "previewd", plugin: "previewd", enabled: true)],
        maxQueueLength: Int = Queue.defaultMaxLength,
        schedule: @escaping (Double, @escaping () -> Void) -> Void = { _, _ in }
    ) {
        self.schedule = schedule
        self.clock = clock
        startTime = clock.monotonic()
        queue = Queue(maxLength: maxQueueLength)
        self.outputs = outputs.isEmpty ? [OutputEntry(name: "previewd", plugin: "previewd", enabled: true)] : outputs
        self.engine = engine
        previewURLs = catalog.previewURLs
        self.catalog = catalog
        prefetcher = Prefetcher(engine: engine, catalog: catalog.client, previewURLs: previewURLs, log: log, schedule: schedule)
        self.loudness = loudness ?? LoudnessBook(store: nil, log: log)
        self.log = log
        player = Player(seed: seed)
        shuffleSource = SplitMix64(seed: seed ^ 0x9E37_79B9_7F4A_7C15)
        prefetcher.candidates = { [unowned self] in prefetchCandidates() }
        prefetcher.prefetchDirectURLs = { [unowned self] in streams.crossfadeSeconds > 0 }
        prefetcher.refreshed = { [unowned self] in self.queueNextForFade() }
        previewURLs.observer = { [unowned self] in self.loudness.note($0) }
    }

    /// Adds `listener` to those told of every change, event and seek,
    /// after those added before. It is held strongly (`PlaybackListener`).
    package func addListener(_ listener: any PlaybackListener) {
        listeners.append(listener)
    }

    /// Counts the change, refreshes prefetch where play order may have
    /// moved, and tells the listeners (the change, and what of it makes
    /// `events` records).
    func notify(_ changed: Subsystems) {
        if !changed.isSubset(of: [.message, .subscription, .update]) { changeCount += 1 }
        if !changed.isDisjoint(with: [.player, .playlist, .options]) {
            prefetcher.scheduleRefresh()
            autoplayNoticed()
        }
        if !changed.isDisjoint(with: [.playlist, .options]), streams.active?.finishedAt != nil,
            player.songAfterCurrent(in: queue) != nil
        {
            awaitFinishHeard()
        }
        for l in listeners { l.playbackChanged(changed) }
        let recorded = changed.intersection(PlayerEvent.subsystems)
        if !recorded.isEmpty { for l in listeners { l.playbackEvent(recorded, reason: reason) } }
    }

    /// Runs `body` with changes attributed to `why`.
    func because(_ why: EventReason, _ body: () -> Void) {
        let saved = reason
        reason = why
        body()
        reason = saved
    }

    /// Reports a change that did not go through the controller (stored
    /// playlists, subscriptions).
    package func changed(_ subsystems: Subsystems) { notify(subsystems) }

    // MARK: playback

    /// Applies a player operation's outcome; `user` marks commands (which
    /// clear the last error, as MPD's play commands do).
    ///
    /// `skip` marks `next`/`previous`: a song that must come from the
    /// network is then opened only after `skipSettle` seconds without
    /// another skip, and nothing new is prefetched until the burst of skips
    /// is over (`noteSkip`), so a burst of key repeats fetches just the song
    /// it lands on and its prefetch (a prefetched song starts at once).
    func run(
        _ operation: (inout Player, Queue) throws(ProtocolError) -> [PlayerEffect], user: Bool = true,
        seekTo offset: Double = 0, skip: Bool = false
    ) throws(ProtocolError) {
        let before = (player.state, player.current)
        let effects = try operation(&player, queue)
        if user, effects.contains(where: { if case .start = $0 { return true } else { return false } }) {
            lastError = nil
            streams.failuresInARow = 0
            // A song chosen by `play` and the like is where the user stays.
            if !skip { endBurst() }
        }
        if skip { noteSkip() }
        apply(effects, offset: offset, skip: skip)
        if before != (player.state, player.current) || !effects.isEmpty { notify(.player) }
    }

    /// Carries out what a player operation asks of the engine and the queue.
    func apply(_ effects: [PlayerEffect], offset: Double = 0, skip: Bool = false) {
        for effect in effects {
            switch effect {
            case .start(let id): start(song: id, retried: false, offset: offset, skip: skip)
            case .setPaused(let paused):
                engine.setPaused(paused)
                if !paused { awaitFinishHeard() }
            case .halt: halt()
            case .remove(let id):
                if let pos = queue.position(of: id) {
                    _ = try? queue.remove(positions: pos..<(pos + 1))
                    notify(.playlist)
                }
            }
        }
    }

    /// `seek`/`seekid`/`seekcur`: plays song `id` from `seconds` (it becomes
    /// the current song; a pause stays a pause).
    /// - Throws: `.noExist` "No such song"; `.argument` for a position past
    ///   the song's end.
    package func seek(id: SongID, to seconds: Double) throws(ProtocolError) {
        guard let entry = queue.song(withID: id) else { throw ProtocolError(.noExist, "No such song") }
        if let duration = entry.song.duration, seconds > duration {
            throw ProtocolError(.argument, "Seek position beyond the end of the song")
        }
        let wasPaused = player.state == .pause
        try run(
            { (p: inout Player, q: Queue) throws(ProtocolError) in
                var effects = try p.play(id: id, in: q)
                if wasPaused { effects += p.pause(true, in: q) }
                return effects
            }, seekTo: max(0, seconds))
        for l in listeners { l.playbackSeeked(to: max(0, seconds)) }
    }

    /// Sets a mode and reports `options`.
    func setModes(_ change: (inout Player, Queue) -> Void) {
        change(&player, queue)
        notify(.options)
    }

    /// `clearerror`; autoplay, when it stopped, tries again now.
    package func clearError() {
        let had = lastError != nil
        lastError = nil
        // Autoplay's retry notifies `player` too (with its own reason).
        if !retryAutoplay() && had { notify(.player) }
    }

    /// Records that the output was lost (`lost` says why) or came back (nil).
    func outputChanged(lost: String?) {
        if let lost {
            log.warning("output lost: \(lost); reconnecting")
            outputError = "output: \(lost); reconnecting"
        } else {
            log.info("output back")
            outputError = nil
        }
        notify([.player, .output])
    }

    /// An output beside the one that sets the pace failed (its PCM is
    /// dropped meanwhile; the others play on) or works again.
    func followerChanged(_ index: Int, failed: String?) {
        let name = outputs.indices.contains(index) ? outputs[index].name : "\(index)"
        if let failed {
            log.warning("output \(name) failed: \(failed); the others play on")
            outputError = "output \(name): \(failed)"
        } else {
            log.info("output \(name) works again")
            if outputError?.hasPrefix("output \(name): ") == true { outputError = nil }
        }
        notify([.player, .output])
    }

    // MARK: volume and outputs

    /// `setvol`: 0...100.
    package func setVolume(_ percent: Int) {
        // mpd reports `mixer` for every setvol, a change or not.
        if percent != volume {
            volume = percent
            engine.setVolume(percent)
        }
        notify(.mixer)
    }

    /// Where output `index` serves listeners (an HTTP stream's base URL), or nil.
    package func listeningAddress(ofOutput index: Int) -> String? { engine.listeningAddress(ofOutput: index) }

    /// `enableoutput`/`disableoutput`/`toggleoutput ID`.
    /// - Throws: `.noExist` "No such audio output".
    package func setOutput(_ id: Int, enabled: (Bool) -> Bool) throws(ProtocolError) {
        guard outputs.indices.contains(id) else { throw ProtocolError(.noExist, "No such audio output") }
        let now = enabled(outputs[id].enabled)
        guard now != outputs[id].enabled else { return }
        outputs[id].enabled = now
        // Like a `stop`, turning an output off silences it at once.
        if !now { dropUnheardEnd() }
        applyOutputs()
        notify(.output)
    }

    /// Restores the volume, the outputs and the replay gain mode (from the
    /// state file), and tells the engine.
    /// - Parameter disabledOutputs: the names of the outputs that were off
    ///   (nil in a state saved before there were several: output 0's
    ///   `outputEnabled` alone, the others as configured).
    func restoreSettings(volume: Int, outputEnabled: Bool, disabledOutputs: [String]? = nil, replayGainMode: String) {
        self.volume = max(0, min(100, volume))
        if let disabledOutputs {
            for i in outputs.indices { outputs[i].enabled = !disabledOutputs.contains(outputs[i].name) }
        } else {
            outputs[0].enabled = outputEnabled
        }
        loudness.mode = ReplayGainMode(rawValue: replayGainMode) ?? .off
        applyOutputs()
    }

    /// The names of the outputs turned off, as the state saves them.
    var disabledOutputs: [String] { outputs.filter { !$0.enabled }.map(\.name) }

    private func applyOutputs() {
        engine.setOutputs(enabled: outputs.map(\.enabled))
        engine.setVolume(volume)
    }

    /// `replay_gain_mode`: applies from the next song on (a gain that
    /// jumps mid-song is heard). The song playing is measured now, for its
    /// next play; the songs to come are measured as they are played (or
    /// fade in), so the crossfade's next song is named to the engine again.
    package func setReplayGainMode(_ mode: ReplayGainMode) {
        loudness.mode = mode
        if let id = player.current, let uri = queue.song(withID: id)?.song.uri, loudness.shouldMeasure(uri) {
            engine.measureLoudness(uri)
        }
        if streams.queued != nil {
            streams.queued = nil
            engine.queueNext(nil, crossfade: 0)
        }
        queueNextForFade()
        notify(.options)
    }

    /// The gain of the song playing, and where it came from (none when stopped).
    package var replayGain: ReplayGain { streams.active?.gain ?? .none }

    /// The `update` job running (`status` shows it as `updating_db`), nil
    /// when none runs.
    package private(set) var updatingJob: Int?

    /// `update`/`rescan`: the next job id (as mpd, counting from 1). When no
    /// job runs, it becomes the running one (`updatingJob`); else the caller
    /// queues it. Idle clients hear `update`.
    package func startUpdateJob() -> Int {
        updateJobs += 1
        if updatingJob == nil { updatingJob = updateJobs }
        notify(.update)
        return updateJobs
    }

    /// The running job ended: `next` (a queued job's id) runs now, or none.
    /// Idle clients hear `update`, and `database` when `changedDatabase`.
    package func finishUpdateJob(next: Int?, changedDatabase: Bool) {
        updatingJob = next
        notify(changedDatabase ? [.update, .database] : .update)
    }

    // MARK: status

    /// What a `status` reply depends on besides the changes `notify` counts:
    /// the clock while a song plays, and what the stream tells.
    package struct StatusKey: Equatable {
        var changes: Int
        var elapsedMillis: Int
        var format: AudioFormat?
        var bitrate: Int
        var error: String?
        var updatingJob: Int?
        /// The song's replay gain, which the engine may choose after `play`.
        var gain: ReplayGain = .none
    }

    /// The key a cached `status` reply is valid for (`StatusCache`).
    package var statusKey: StatusKey {
        StatusKey(
            changes: changeCount, elapsedMillis: player.state == .stop ? -1 : Int(clamping: elapsed * 1000),
            format: currentFormat, bitrate: currentBitrate, error: statusError, updatingJob: updatingJob,
            gain: replayGain)
    }

    /// Total seconds played since start (for `stats`): only what was heard,
    /// never a restored position or the part a seek jumped over.
    package var totalPlayTime: Double { streams.playedSeconds + streamPlayedSeconds }
}
