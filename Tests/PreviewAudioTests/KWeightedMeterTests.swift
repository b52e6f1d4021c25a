import PreviewCore
import Testing
@testable import PreviewAudio

/// The fast meter against libebur128 on the corpus: the same integrated
/// loudness (within 0.001 LU; 1e-9 LU when last run) and the same sample peak.
@Suite struct KWeightedMeterTests {
    /// The whole PCM of a corpus file and its format.
    func decoded(_ name: String) throws -> ([UInt8], AudioFormat) {
        let decoder = try Mpg123Decoder()
        let pcm = UnsafeMutableRawBufferPointer.allocate(byteCount: 16384, alignment: 16)
        defer { pcm.deallocate() }
        let input = Corpus.bytes(name)
        var out: [UInt8] = []
        var format: AudioFormat?
        var fed = false
        while true {
            switch try decoder.decode(into: pcm) {
            case .newFormat(let f): format = f
            case .pcm(let n): out.append(contentsOf: UnsafeRawBufferPointer(rebasing: pcm[0..<n]))
            case .needMore:
                if fed { return (out, try #require(format)) }
                try input.withUnsafeBytes { try decoder.feed($0) }
                fed = true
            }
        }
    }

    @Test(arguments: [
        "preview-01.mp3", "preview-02.mp3", "preview-05.mp3", "preview-07-48k.mp3", "preview-08-mono22k.mp3",
        "preview-09-vbr.mp3", "audio-scan--no-tags-mp2l3-mono.mp3",
        "audio-scan--no-tags-mp1l3-cbr320.mp3",
    ])
    func agreesWithLibebur128(name: String) throws {
        let (pcm, format) = try decoded(name)
        let reference = try LoudnessMeter(format: format)
        pcm.withUnsafeBytes { reference.add($0) }
        let expected = try #require(reference.loudness)
        let got = try #require(pcm.withUnsafeBytes { KWeightedMeter.loudness(of: $0, format: format) })
        #expect(abs(got.integrated - expected.integrated) < 0.001, "\(name): \(got.integrated) vs \(expected.integrated)")
        #expect(got.peak == expected.peak, "\(name)")
        #expect(got.seconds == expected.seconds)
    }

    @Test func silenceAndShortInputs() {
        let format = AudioFormat(sampleRate: 44100, channels: 2)
        let silence = [UInt8](repeating: 0, count: 44100 * 4)
        let quiet = silence.withUnsafeBytes { KWeightedMeter.loudness(of: $0, format: format) }
        #expect(quiet?.integrated == -.infinity && quiet?.isUsable == false)
        let short = [UInt8](repeating: 1, count: 4410 * 4 * 3)  // 300 ms: no whole 400 ms block
        #expect(short.withUnsafeBytes { KWeightedMeter.loudness(of: $0, format: format) } == nil)
        #expect(silence.withUnsafeBytes { KWeightedMeter.loudness(of: $0, format: AudioFormat(sampleRate: 44100, channels: 6)) } == nil)
    }
}
