import PreviewCore
import Testing

/// The equal-power curves and the mix of one sample.
@Suite struct CrossfadeCurveTests {
    @Test func theCurvesStartAtTheOutgoingSongAndKeepThePower() {
        #expect(Crossfade.weights(at: 0, of: 100) == (1, 0))
        let mid = Crossfade.weights(at: 50, of: 100)
        #expect(abs(mid.out - 0.5.squareRoot()) < 1e-12 && abs(mid.in - 0.5.squareRoot()) < 1e-12)
        for i in stride(from: 0, to: 100, by: 7) {
            let w = Crossfade.weights(at: i, of: 100)
            #expect(abs(w.out * w.out + w.in * w.in - 1) < 1e-12)
        }
        #expect(Crossfade.weights(at: 100, of: 100) == (0, 1), "past the overlap: the incoming song alone")
    }

    @Test func aMixedSampleIsRoundedAndClamped() {
        let half = Crossfade.weights(at: 50, of: 100)
        #expect(Crossfade.mix(1000, 1000, half) == 1414)
        #expect(Crossfade.mix(32767, 32767, half) == 32767)
        #expect(Crossfade.mix(-32768, -32768, half) == -32768)
        #expect(Crossfade.mix(1234, -5, (1, 0)) == 1234)
    }
}
