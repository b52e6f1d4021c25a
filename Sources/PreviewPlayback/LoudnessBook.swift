import PreviewCore
import PreviewPlatform
import PreviewStorage

/// What is known of each song's loudness, and the replay gain it gets:
/// measurements (kept in `loudness.sqlite` across restarts), Deezer's
/// `gain` from `/track` bodies, and the measurements asked of the engine.
package final class LoudnessBook {
    /// `replay_gain_mode` (saved with the state).
    var mode: ReplayGainMode = .off
    /// dB added to every gain (`--replay-gain-preamp`); the peak limit still holds.
    package var preamp = 0.0

    private var measured: [String: Loudness] = [:]
    /// The measured songs of each album id, for `album` mode.
    private var albums: [Int: Set<String>] = [:]
    /// Deezer's `gain` by song URI, as `/track` bodies gave it (bounded).
    private var deezerGains: [String: Double] = [:]
    static let deezerGainLimit = 10_000
    /// Songs the engine held to measure before their first sample in this
    /// run (bounded as `deezerGains`); each is held once.
    private var held: Set<String> = []
    /// Songs whose measurement was asked for in this run; each is asked once.
    private var asked: Set<String> = []
    private let store: LoudnessStore?
    private let log: Log

    /// - Parameters:
    ///   - store: where measurements persist; nil keeps them in memory only
    ///     (the database could not be opened: said once in the log).
    package init(store: LoudnessStore?, log: Log) {
        self.store = store
        self.log = log
        guard let store else { return }
        do {
            for row in try store.load() { remember(row.uri, album: row.album, row.loudness) }
        } catch {
            log.warning("\(store.path): measurements not read (\(error)); songs are measured again")
        }
    }

    /// The measured loudness of the song `uri`, if any.
    func loudness(of uri: String) -> Loudness? { measured[uri] }

    /// The gain `song` gets now: by `mode` (with `auto` following `random`),
    /// the album's measurement where every track of the album was measured,
    /// else the song's, else Deezer's `gain`, else none.
    func gain(for song: Song, random: Bool) -> ReplayGain {
        ReplayGain.choose(
            mode: mode, random: random, track: measured[song.uri], album: albumLoudness(of: song),
            deezerGain: deezerGains[song.uri], preamp: preamp)
    }

    /// What the engine needs to measure `song` before its first sample and
    /// choose its gain itself; nil when no measurement is wanted: replay
    /// gain is off, the song is measured already, it was held once in this
    /// run already (`wasHeld`: an endless stream, a silent song give no
    /// figure to keep), or it is neither a catalog track nor a direct
    /// http(s) URL.
    func plan(for song: Song, random: Bool) -> GainPlan? {
        let uri = song.uri
        guard mode != .off, measured[uri] == nil, !held.contains(uri),
            uri.hasPrefix("deezer:track:") || song.isDirectURL
        else { return nil }
        var peers: [Loudness] = []
        if let id = song.albumTags?.id { peers = (albums[id] ?? []).filter { $0 != uri }.compactMap { measured[$0] } }
        return GainPlan(
            key: uri, mode: mode, random: random, preamp: preamp, deezerGain: deezerGains[uri],
            albumPeers: peers, albumTrackCount: song.albumTags?.trackCount)
    }

    /// Notes that the engine held the song `uri` (it chose its gain): no
    /// plan is made for it again in this run. Noted as the engine reports
    /// it, not as the plan is made, since a plan for a fade's next song
    /// is not used when the next song changes first.
    func wasHeld(_ uri: String) {
        if held.count >= LoudnessBook.deezerGainLimit { held.removeAll(keepingCapacity: true) }
        held.insert(uri)
    }

    /// The album's loudness, once all its `trackCount` tracks are measured.
    private func albumLoudness(of song: Song) -> Loudness? {
        guard let tags = song.albumTags, let id = tags.id, let count = tags.trackCount, count > 0,
            let songs = albums[id], songs.count >= count
        else { return nil }
        return Loudness.album(songs.compactMap { measured[$0] })
    }

    /// Whether the song `uri` should be measured: replay gain is on, the
    /// song is a catalog track (its body is kept by key) not measured yet,
    /// and it was not asked for already. Marks it asked.
    func shouldMeasure(_ uri: String) -> Bool {
        guard mode != .off, measured[uri] == nil, uri.hasPrefix("deezer:track:"), !asked.contains(uri) else { return false }
        asked.insert(uri)
        return true
    }

    /// Notes that measuring the song `uri` gave no figure to keep (no
    /// audio, or silence): it is not measured again in this run.
    func gaveNoFigure(_ uri: String) {
        asked.insert(uri)
    }

    /// Keeps a measurement of the song `uri` of album `album`, and saves it.
    func record(_ uri: String, album: Int?, _ loudness: Loudness) {
        guard loudness.isUsable else { return }
        remember(uri, album: album, loudness)
        do {
            try store?.save(LoudnessStore.Row(uri: uri, album: album, loudness: loudness))
        } catch {
            log.warning("loudness of \(uri) not saved: \(error)")
        }
    }

    /// Keeps Deezer's `gain` of a track from its `/track` body.
    func note(_ track: DeezerTrack) {
        guard let gain = track.gain else { return }
        if deezerGains.count >= LoudnessBook.deezerGainLimit { deezerGains.removeAll(keepingCapacity: true) }
        deezerGains["deezer:track:\(track.id)"] = gain
    }

    private func remember(_ uri: String, album: Int?, _ loudness: Loudness) {
        measured[uri] = loudness
        if let album { albums[album, default: []].insert(uri) }
    }
}
