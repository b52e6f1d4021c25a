import PreviewCatalog
import PreviewCore

/// The verbs of playback: what MPD commands, MPRIS and any other front end
/// ask of the player. Each verb owns its rule (when `previous` restarts the
/// song, how a relative seek is clamped, the volume's bounds), so that every
/// caller gets the same answer; the queue, the player and the streams stay
/// inside this target.
extension PlayerController {
    // MARK: starting and stopping

    /// `play [POS]`: the song at queue position `position`, or (nil) resumes
    /// a pause or starts the current song, else the first.
    /// - Throws: `.argument` "Bad song index" for a position past the queue.
    package func play(position: Int?) throws(ProtocolError) {
        try run { (p: inout Player, q: Queue) throws(ProtocolError) in try p.play(position: position, in: q) }
    }

    /// `playid [ID]`: song `id`, or (nil) as `play(position: nil)`.
    /// - Throws: `.noExist` "No such song".
    package func play(id: SongID?) throws(ProtocolError) {
        try run { (p: inout Player, q: Queue) throws(ProtocolError) in try p.play(id: id, in: q) }
    }

    /// `pause [0|1]`: pauses (true), resumes (false) or toggles (nil);
    /// nothing while stopped.
    package func pause(_ paused: Bool?) {
        try? run { (p: inout Player, q: Queue) in p.pause(paused, in: q) }
    }

    /// MPRIS `PlayPause`: pauses while playing, else plays as `play`.
    /// - Throws: what `play(position:)` throws.
    package func playPause() throws(ProtocolError) {
        if player.state == .play { pause(true) } else { try play(position: nil) }
    }

    /// `stop`.
    package func stop() {
        try? run { (p: inout Player, _: Queue) in p.stop() }
    }

    // MARK: skipping

    /// `next`: the song after the current one in play order (or none, at
    /// the end without `repeat`). A song from the network is opened only
    /// once a burst of skips settles (`noteSkip`).
    /// - Throws: `.playerSync` "Not playing" while stopped.
    package func next() throws(ProtocolError) {
        try requirePlaying()
        try run({ (p: inout Player, q: Queue) in p.next(in: q) }, skip: true)
    }

    /// `previous`: the song before the current one, or the current one
    /// from its start when more than `previousRestartSeconds` of it played.
    /// - Throws: `.playerSync` "Not playing" while stopped.
    package func previous() throws(ProtocolError) {
        try requirePlaying()
        let elapsed = self.elapsed
        let after = previousRestartSeconds
        try run({ (p: inout Player, q: Queue) in p.previous(in: q, elapsed: elapsed, restartAfter: after) }, skip: true)
    }

    // MARK: seeking

    /// The rule of `next`, `previous` and `seekcur`: they need a song
    /// playing or paused. Callers that parse arguments check it first, as
    /// mpd answers "Not playing" before looking at them.
    /// - Throws: `.playerSync` "Not playing" while stopped.
    package func requirePlaying() throws(ProtocolError) {
        guard player.state != .stop, player.current != nil else { throw ProtocolError(.playerSync, "Not playing") }
    }

    /// What a seek in the current song does when its target lies past the
    /// song's end.
    package enum PastEnd {
        /// Refuse it (MPD's `seekcur`).
        case refuse
        /// Go on to the next song (MPRIS `Seek`, as its specification asks).
        case next
    }

    /// `seekcur +S`/`-S` and MPRIS `Seek`: `delta` seconds from where the
    /// current song is; a target before the start is the start.
    /// - Throws: `.playerSync` "Not playing" while stopped; past the end,
    ///   `.argument` (`.refuse`) or what `next()` throws (`.next`).
    package func seekCurrent(by delta: Double, pastEnd: PastEnd = .refuse) throws(ProtocolError) {
        try requirePlaying()
        guard let id = player.current else { return }
        let target = max(0, elapsed + delta)
        if pastEnd == .next, let duration = queue.song(withID: id)?.song.duration, target >= duration {
            try next()
            return
        }
        try seek(id: id, to: target)
    }

    /// `seekcur S` and MPRIS `SetPosition`: the current song from `seconds`.
    /// - Throws: `.playerSync` "Not playing" while stopped; what
    ///   `seek(id:to:)` throws.
    package func seekCurrent(to seconds: Double) throws(ProtocolError) {
        try requirePlaying()
        guard let id = player.current else { return }
        try seek(id: id, to: seconds)
    }

    // MARK: modes and volume

    /// `random 0|1`: play order shuffled (a new order over the queue).
    package func setRandom(_ on: Bool) { setModes { p, q in p.setRandom(on, in: q) } }
    /// `repeat 0|1`.
    package func setRepeat(_ on: Bool) { setModes { p, _ in p.setRepeat(on) } }
    /// `consume 0|1`: a played song leaves the queue.
    package func setConsume(_ on: Bool) { setModes { p, _ in p.setConsume(on) } }
    /// `single 0|1|oneshot`.
    package func setSingle(_ mode: SingleMode) { setModes { p, _ in p.setSingle(mode) } }

    /// MPRIS `LoopStatus`: `repeat` and `single` at once, one change reported.
    package func setLoop(repeat: Bool, single: SingleMode) {
        setModes { p, _ in
            p.setRepeat(`repeat`)
            p.setSingle(single)
        }
    }

    /// `volume +N`/`-N`: the volume moved by `delta` percent, held within
    /// 0...100.
    package func changeVolume(by delta: Int) {
        setVolume(max(0, min(100, volume + delta)))
    }

    // MARK: reading the state

    /// Playing, paused or stopped.
    package var state: PlaybackState { player.state }
    /// The current song's id (while stopped, the song `play` would resume), if any.
    package var currentID: SongID? { player.current }
    /// repeat, random, single, consume.
    package var modes: PlaybackModes { player.modes }
    /// The song `next` would play (`nextsongid` in `status`), if any.
    package var nextSongID: SongID? { player.nextSong(in: queue) }
    /// The crossfade in seconds (0: gapless).
    package var crossfadeSeconds: Int { streams.crossfadeSeconds }
    /// Whether a stream is open for the current song (replay gain is shown only then).
    package var hasStream: Bool { streams.active != nil }
    /// `replay_gain_mode`.
    package var replayGainSetting: ReplayGainMode { loudness.mode }

    // MARK: reading the queue

    /// The queued songs in queue order: the queue's own storage, shared
    /// (copy on write), so a listing sees the queue as it was when it began.
    package var queuedSongs: [QueuedSong] { queue.songs }
    /// Songs in the queue.
    package var queueLength: Int { queue.count }
    /// The queue's version (`playlist:` in `status`).
    package var queueVersion: UInt32 { queue.version }
    /// The position of song `id`, nil when it is not queued.
    package func position(of id: SongID) -> Int? { queue.position(of: id) }
    /// The queued song with id `id`.
    package func queuedSong(withID id: SongID) -> QueuedSong? { queue.song(withID: id) }
    /// The id of the song at queue position `position`.
    /// - Throws: `.argument` "Bad song index" past the queue's end.
    package func songID(at position: Int) throws(ProtocolError) -> SongID {
        guard position >= 0, position < queue.count else { throw ProtocolError(.argument, "Bad song index") }
        return queue.songs[position].id
    }
    /// Positions changed since queue version `version` (`plchanges`).
    package func queueChanges(since version: UInt32) -> [Int] { queue.changes(since: version) }
}

extension PlayerController: UpdateJobs {}
