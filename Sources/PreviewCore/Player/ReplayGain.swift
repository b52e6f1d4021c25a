import Glibc

/// MPD's `replay_gain_mode`: which loudness a song is normalised by.
public enum ReplayGainMode: String, Sendable, CaseIterable, Codable {
    /// No gain: the PCM goes out bit-exact.
    case off
    /// Each song by its own loudness.
    case track
    /// Each song by its album's loudness (the track's where the album is
    /// not measured whole), so the album's own dynamics stay.
    case album
    /// As mpd: `album` while the queue plays in order, `track` in random mode.
    case auto

    /// The mode `auto` stands for, given the random mode.
    public func resolved(random: Bool) -> ReplayGainMode {
        self == .auto ? (random ? .track : .album) : self
    }
}

/// A measured EBU R128 loudness: what libebur128 reports for one song, or
/// for an album combined from its songs.
public struct Loudness: Equatable, Sendable, Codable {
    /// Integrated loudness (ITU-R BS.1770, gated), in LUFS.
    public var integrated: Double
    /// The sample peak, linear (1.0 is digital full scale).
    public var peak: Double
    /// The measured audio's length, in seconds (the weight in an album).
    public var seconds: Double

    /// - Parameters: as the properties.
    public init(integrated: Double, peak: Double, seconds: Double) {
        self.integrated = integrated
        self.peak = peak
        self.seconds = seconds
    }

    /// Whether the figures can set a gain: finite, and not silence (a
    /// silent song's loudness is -inf; its gain would be unbounded).
    public var isUsable: Bool {
        integrated.isFinite && integrated > -70 && peak.isFinite && peak > 0 && seconds.isFinite && seconds > 0
    }

    /// An album's loudness from its songs': the mean of their energies
    /// weighted by length, and the highest peak. BS.1770 gates 400 ms
    /// blocks over the whole album, which needs every song's blocks; the
    /// per-song gated figures combined this way differ from that by well
    /// under 1 LU for an album's songs, which are gated alike.
    /// - Returns: nil for no usable song.
    public static func album(_ songs: [Loudness]) -> Loudness? {
        let usable = songs.filter(\.isUsable)
        guard !usable.isEmpty else { return nil }
        let seconds = usable.reduce(0) { $0 + $1.seconds }
        let energy = usable.reduce(0) { $0 + $1.seconds * pow(10, $1.integrated / 10) } / seconds
        return Loudness(integrated: 10 * log10(energy), peak: usable.map(\.peak).max()!, seconds: seconds)
    }
}

/// The gain one song gets, and where it came from: what `status` reports
/// and what the engine applies as a scale on the PCM.
public struct ReplayGain: Equatable, Sendable {
    /// Where a gain came from.
    public enum Source: String, Sendable {
        /// The song's own measured loudness.
        case track
        /// Its album's, every song of which was measured.
        case album
        /// Deezer's `gain` field (the song was not measured yet).
        case deezer
        /// Nothing known (or the mode is off): no gain.
        case none
    }

    /// The ReplayGain 2.0 reference level, in LUFS.
    public static let referenceLoudness = -18.0

    /// The gain in dB (0: none).
    public var decibels: Double
    public var source: Source

    /// - Parameters: as the properties.
    public init(decibels: Double, source: Source) {
        self.decibels = decibels
        self.source = source
    }

    /// No gain.
    public static let none = ReplayGain(decibels: 0, source: .none)

    /// The linear scale on the PCM (1: unchanged).
    public var scale: Double { pow(10, decibels / 20) }

    /// The gain that brings `loudness` to the reference, plus `preamp`
    /// (dB), lowered where it would lift the peak past full scale.
    public static func measured(_ loudness: Loudness, preamp: Double, source: Source) -> ReplayGain {
        let wanted = referenceLoudness - loudness.integrated + preamp
        let headroom = -20 * log10(loudness.peak)
        return ReplayGain(decibels: min(wanted, headroom), source: source)
    }

    /// The gain from Deezer's `gain` field, which is believed to be the
    /// track's loudness in dB (loud modern masters have the highest values;
    /// see docs/sound.md), plus `preamp`. Its peak is unknown, so it never
    /// raises the level: a lift could clip.
    public static func deezer(_ gain: Double, preamp: Double) -> ReplayGain {
        ReplayGain(decibels: min(referenceLoudness - gain + preamp, 0), source: .deezer)
    }

    /// The gain a song gets under `mode`: the album's measurement (album
    /// mode, where the album was measured whole), else the track's, else
    /// Deezer's `gain`, else none.
    /// - Parameters:
    ///   - random: the random mode (what `auto` follows).
    ///   - track, album: the measurements known, if any.
    ///   - deezerGain: the track's `gain` from the catalog, if known.
    ///   - preamp: dB added to measured and Deezer gains.
    public static func choose(
        mode: ReplayGainMode, random: Bool, track: Loudness?, album: Loudness?,
        deezerGain: Double?, preamp: Double
    ) -> ReplayGain {
        let mode = mode.resolved(random: random)
        guard mode != .off else { return .none }
        if mode == .album, let album, album.isUsable { return measured(album, preamp: preamp, source: .album) }
        if let track, track.isUsable { return measured(track, preamp: preamp, source: .track) }
        if let deezerGain, deezerGain.isFinite, abs(deezerGain) < 100 { return deezer(deezerGain, preamp: preamp) }
        return .none
    }
}

/// What the engine needs to choose a song's gain itself, once it has
/// measured the song before its first sample (`StreamInfo.measure`): the
/// same choice as `ReplayGain.choose`, with the measurement filled in.
public struct GainPlan: Equatable, Sendable {
    /// Most seconds a song's first sample waits for its whole body and its
    /// measurement by default (previewd's `--replay-gain-wait`); past it
    /// the song starts with the plan's fallback.
    public static let defaultWait = 1.5

    /// The song's URI: `.loudnessMeasured` names the measurement by it.
    public var key: String
    /// `replay_gain_mode` as the song starts (`auto` resolved by `random`).
    public var mode: ReplayGainMode
    /// The random mode (what `auto` follows).
    public var random: Bool
    /// dB added to measured and Deezer gains.
    public var preamp: Double
    /// The track's `gain` from the catalog, if known.
    public var deezerGain: Double?
    /// The album's other tracks measured so far, and how many tracks it
    /// has: with this song's measurement they may make the album whole.
    public var albumPeers: [Loudness]
    public var albumTrackCount: Int?

    /// - Parameters: as the properties.
    public init(
        key: String, mode: ReplayGainMode, random: Bool, preamp: Double, deezerGain: Double? = nil,
        albumPeers: [Loudness] = [], albumTrackCount: Int? = nil
    ) {
        self.key = key
        self.mode = mode
        self.random = random
        self.preamp = preamp
        self.deezerGain = deezerGain
        self.albumPeers = albumPeers
        self.albumTrackCount = albumTrackCount
    }

    /// The gain given the song's `measured` loudness (nil: not measured in
    /// time): the album's where this song completes it, else the track's,
    /// else Deezer's `gain`, else none.
    public func resolve(_ measured: Loudness?) -> ReplayGain {
        var album: Loudness?
        if let measured, let count = albumTrackCount, count > 0, albumPeers.count + 1 >= count {
            album = Loudness.album(albumPeers + [measured])
        }
        return ReplayGain.choose(
            mode: mode, random: random, track: measured, album: album, deezerGain: deezerGain,
            preamp: preamp)
    }
}
