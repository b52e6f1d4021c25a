import Glibc
import PreviewCore
import Testing
@testable import PreviewAudio

@Suite struct PCMConverterTests {
    /// All of `samples` through `converter`, flushed.
    func converted(_ samples: [Int16], _ converter: PCMConverter, pieces: Int = 4096) -> [Int16] {
        var out: [Int16] = []
        var offset = 0
        while offset < samples.count {
            let end = min(offset + pieces, samples.count)
            samples[offset..<end].withUnsafeBytes { converter.convert($0) { out += $0 } }
            offset = end
        }
        converter.flush { out += $0 }
        return out
    }

    /// A 440 Hz tone at `rate` in `channels`, `seconds` long.
    func tone(rate: Int, channels: Int, seconds: Double) -> [Int16] {
        let frames = Int(Double(rate) * seconds)
        var out: [Int16] = []
        for i in 0..<frames {
            let phase = 2 * Double.pi * 440 * Double(i) / Double(rate)
            let sample = Int16(12000 * sin(phase))
            for _ in 0..<channels { out.append(sample) }
        }
        return out
    }

    @Test func fortyFourKilohertzStereoPassesBitExact() throws {
        let input = tone(rate: 44100, channels: 2, seconds: 0.5)
        let converter = try PCMConverter(from: AudioFormat(sampleRate: 44100, channels: 2))
        #expect(converted(input, converter) == input)
    }

    @Test func monoIsDuplicatedToBothChannelsBitExact() throws {
        let input = tone(rate: 44100, channels: 1, seconds: 0.5)
        let converter = try PCMConverter(from: AudioFormat(sampleRate: 44100, channels: 1))
        #expect(converted(input, converter) == input.flatMap { [$0, $0] })
    }

    @Test(arguments: [(22050, 1), (48000, 2), (32000, 2), (8000, 1)])
    func otherRatesBecome44100StereoOfTheSameLength(rate: Int, channels: Int) throws {
        let input = tone(rate: rate, channels: channels, seconds: 1)
        let converter = try PCMConverter(from: AudioFormat(sampleRate: rate, channels: channels))
        let out = converted(input, converter, pieces: 1000 * channels)
        // One second in, one second out (to a sample or two of rounding).
        #expect(abs(out.count / 2 - 44100) <= 2, "\(out.count / 2) frames")
        // Still a 440 Hz tone at about its level: the peak mid-way.
        let middle = out[(44100 - 2000)..<(44100 + 2000)]
        let peak = middle.map { abs(Int($0)) }.max() ?? 0
        #expect(abs(peak - 12000) < 400, "peak \(peak)")
        // Mono is resampled once and duplicated (stereo has its own dither per channel).
        if channels == 1 { #expect(stride(from: 0, to: out.count, by: 2).allSatisfy { out[$0] == out[$0 + 1] }) }
    }

    @Test func stereoToMonoIsTheMean() throws {
        let converter = try PCMConverter(
            from: AudioFormat(sampleRate: 44100, channels: 2),
            to: AudioFormat(sampleRate: 44100, channels: 1))
        #expect(converted([100, 200, -3, -4, 32767, 32767], converter) == [150, -3, 32767])
    }

    @Test func aFormatBeyondItsRangeIsRefused() {
        #expect(throws: StreamFailure.self) { try PCMConverter(from: AudioFormat(sampleRate: 44100, channels: 6)) }
    }
}
