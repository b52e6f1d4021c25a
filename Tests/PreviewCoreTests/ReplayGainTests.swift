import PreviewCore
import Glibc
import Testing

@Suite struct ReplayGainTests {
    static let loud = Loudness(integrated: -9.5, peak: 0.84, seconds: 30)
    static let quiet = Loudness(integrated: -22, peak: 0.2, seconds: 30)

    @Test func offGivesNoGainWhateverIsKnown() {
        let g = ReplayGain.choose(mode: .off, random: false, track: Self.loud, album: Self.loud, deezerGain: -7.8, preamp: 3)
        #expect(g == .none && g.scale == 1)
    }

    @Test func trackModeBringsTheSongToMinus18LUFSPlusThePreamp() {
        let g = ReplayGain.choose(mode: .track, random: false, track: Self.loud, album: nil, deezerGain: nil, preamp: 1)
        #expect(g.source == .track)
        #expect(abs(g.decibels - (-18 + 9.5 + 1)) < 1e-9)
    }

    @Test func aLiftIsLimitedByThePeak() {
        // -22 LUFS wants +4 dB (+10 with the preamp), but a 0.2 peak leaves 13.98 dB.
        #expect(abs(ReplayGain.measured(Self.quiet, preamp: 0, source: .track).decibels - 4) < 1e-9)
        let limited = ReplayGain.measured(Self.quiet, preamp: 12, source: .track)
        #expect(abs(limited.decibels - (-20 * log10(0.2))) < 1e-9)
        #expect(Self.quiet.peak * limited.scale <= 1.0 + 1e-12)
    }

    @Test func albumModeTakesTheAlbumOnlyWhenMeasuredWholeAndAutoFollowsRandom() {
        let album = Loudness(integrated: -12, peak: 0.9, seconds: 300)
        #expect(ReplayGain.choose(mode: .album, random: false, track: Self.loud, album: album, deezerGain: nil, preamp: 0).source == .album)
        #expect(ReplayGain.choose(mode: .album, random: false, track: Self.loud, album: nil, deezerGain: nil, preamp: 0).source == .track)
        #expect(ReplayGain.choose(mode: .auto, random: false, track: Self.loud, album: album, deezerGain: nil, preamp: 0).source == .album)
        #expect(ReplayGain.choose(mode: .auto, random: true, track: Self.loud, album: album, deezerGain: nil, preamp: 0).source == .track)
    }

    @Test func deezersGainIsTheFallbackAndNeverLifts() {
        let g = ReplayGain.choose(mode: .track, random: false, track: nil, album: nil, deezerGain: -7.8, preamp: 0)
        #expect(g.source == .deezer && abs(g.decibels - (-10.2)) < 1e-9)
        #expect(ReplayGain.deezer(-18.2, preamp: 0).decibels == 0)
        #expect(ReplayGain.choose(mode: .track, random: false, track: nil, album: nil, deezerGain: nil, preamp: 0) == .none)
    }

    @Test func silenceAndNonsenseSetNoGain() {
        let silent = Loudness(integrated: -.infinity, peak: 0, seconds: 30)
        #expect(!silent.isUsable)
        #expect(ReplayGain.choose(mode: .track, random: false, track: silent, album: nil, deezerGain: .nan, preamp: 0) == .none)
    }

    @Test func anAlbumIsTheLengthWeightedMeanOfItsSongsEnergies() throws {
        let a = Loudness(integrated: -10, peak: 0.5, seconds: 10)
        let b = Loudness(integrated: -20, peak: 0.9, seconds: 30)
        let album = try #require(Loudness.album([a, b]))
        // (10 x 10^-1 + 30 x 10^-2) / 40 = 0.0325 -> -14.88 LUFS.
        #expect(abs(album.integrated - 10 * log10(0.0325)) < 1e-9)
        #expect(album.peak == 0.9 && album.seconds == 40)
        #expect(Loudness.album([]) == nil)
    }
}
