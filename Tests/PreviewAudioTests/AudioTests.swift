import Glibc
import PreviewCore
import PreviewPlatform
import PreviewFetch
import PreviewTestSupport
import Testing
@testable import PreviewAudio

/// The MP3 corpus in ../shared/corpus/mp3 and its manifest.
enum Corpus {
    /// The file's bytes, empty when there is none.
    static func bytes(_ name: String) -> [UInt8] {
        Fixtures.bytes("corpus/mp3/" + name) ?? []
    }

    /// manifest.tsv's (frames, md5) for `name`.
    static func expected(_ name: String) -> (Int, String)? {
        let text = String(decoding: bytes("manifest.tsv"), as: UTF8.self)
        for line in text.split(separator: "\n") {
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false)
            if cols.first.map(String.init) == name { return (Int(cols[8])!, String(cols[9])) }
        }
        return nil
    }
}

@Suite struct DecoderTests {
    /// Feeds `input` in `chunk`-byte pieces, only on NEED_MORE, as the engine does.
    func decode(_ input: [UInt8], chunk: Int) throws -> (AudioFormat?, Int, String) {
        let decoder = try Mpg123Decoder()
        let pcm = UnsafeMutableRawBufferPointer.allocate(byteCount: 16384, alignment: 16)
        defer { pcm.deallocate() }
        var md5 = MD5()
        var format: AudioFormat?
        var bytes = 0
        var offset = 0
        while true {
            switch try decoder.decode(into: pcm) {
            case .newFormat(let f): format = f
            case .pcm(let n):
                md5.update(UnsafeRawBufferPointer(rebasing: pcm[0..<n]))
                bytes += n
            case .needMore:
                if offset >= input.count {
                    return (format, bytes / (format?.bytesPerFrame ?? 4), md5.hexDigest())
                }
                let end = min(offset + chunk, input.count)
                try input[offset..<end].withUnsafeBytes { try decoder.feed($0) }
                offset = end
            }
        }
    }

    @Test(arguments: [1, 417, 16384])
    func gaplessPreviewAtAnyChunkSize(chunk: Int) throws {
        let (frames, md5) = try #require(Corpus.expected("preview-01.mp3"))
        let result = try decode(Corpus.bytes("preview-01.mp3"), chunk: chunk)
        #expect(result.0 == AudioFormat(sampleRate: 44100, channels: 2))
        #expect(result.1 == frames)
        #expect(result.2 == md5)
    }

    @Test func monoMPEG2() throws {
        let (frames, md5) = try #require(Corpus.expected("preview-08-mono22k.mp3"))
        let result = try decode(Corpus.bytes("preview-08-mono22k.mp3"), chunk: 4096)
        #expect(result.0 == AudioFormat(sampleRate: 22050, channels: 1))
        #expect((result.1, result.2) == (frames, md5))
    }

    @Test func htmlGivesNoFormat() throws {
        let html = Array("<!doctype html><html><body>Access denied</body></html>\n".utf8)
        let result = try decode(html + html + html, chunk: 16)
        #expect(result.0 == nil)
        #expect(result.1 == 0)
    }
}

@Suite struct ByteRingTests {
    @Test func wrapsAroundAndSignalsSpace() throws {
        let ring = ByteRing(capacity: 32 * 1024)
        final class Flag: @unchecked Sendable { var woken = 0 }
        let flag = Flag()
        ring.onSpace = { flag.woken += 1 }
        let block = [UInt8](repeating: 7, count: 20 * 1024)
        #expect(block.withUnsafeBytes { ring.write($0) })
        #expect(block.withUnsafeBytes { ring.write($0) } == false)  // full: producer must pause
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: 20 * 1024, alignment: 1)
        defer { out.deallocate() }
        #expect(ring.read(into: out) == .bytes(20 * 1024))
        #expect(flag.woken == 1)
        let second = (0..<(20 * 1024)).map { UInt8($0 & 0xff) }
        #expect(second.withUnsafeBytes { ring.write($0) })  // wraps past the end
        ring.finish(failure: nil)
        #expect(ring.read(into: out) == .bytes(20 * 1024))
        #expect(Array(out) == second)
        #expect(ring.read(into: out) == .end)
    }

    @Test func failureAfterDataAndCancel() {
        let ring = ByteRing(capacity: 32 * 1024)
        ring.finish(failure: .httpStatus(403))
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)
        defer { out.deallocate() }
        #expect(ring.read(into: out) == .failed(.httpStatus(403)))
        let other = ByteRing(capacity: 32 * 1024)
        other.cancel()
        #expect(other.read(into: out) == .cancelled)
    }
}

@Suite struct WavOutputTests {
    @Test func followOnFileNames() {
        #expect(WavOutput.path(base: "/tmp/out.wav", index: 1) == "/tmp/out.wav")
        #expect(WavOutput.path(base: "/tmp/out.wav", index: 3) == "/tmp/out-3.wav")
        #expect(WavOutput.path(base: "/tmp/a.b/out", index: 2) == "/tmp/a.b/out-2")
    }

    @Test func headerIsValidAfterTrackEnd() throws {
        let path = "/tmp/previewd-wavtest-\(getpid()).wav"
        defer { unlink(path) }
        let out = WavOutput(path: path, paced: false)
        try out.configure(AudioFormat(sampleRate: 22050, channels: 1))
        let pcm: [UInt8] = [1, 0, 2, 0, 3, 0]
        _ = try pcm.withUnsafeBytes { try out.write($0, interrupted: { false }) }
        out.trackEnded()
        let bytes = Corpus.bytesAt(path)
        #expect(bytes.count == 50)
        #expect(Array(bytes[0..<4]) == Array("RIFF".utf8))
        #expect(bytes[4] == 42)  // 36 + 6
        #expect(bytes[24] == 0x22 && bytes[25] == 0x56)  // 22050
        #expect(bytes[40] == 6)
        #expect(Array(bytes[44...]) == pcm)
        out.close()
    }
}

extension Corpus {
    static func bytesAt(_ path: String) -> [UInt8] {
        guard let f = fopen(path, "rb") else { return [] }
        defer { fclose(f) }
        var data: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n <= 0 { break }
            data += buf[..<n]
        }
        return data
    }
}

@Suite struct SoftwareVolumeTests {
    @Test func fullVolumeIsBitExactAndLowerFollowsTheCubicScale() {
        #expect(SoftwareVolume.gain(percent: 100) == 65536)
        #expect(SoftwareVolume.gain(percent: 50) == 8192)
        #expect(SoftwareVolume.gain(percent: 0) == 0)
        var samples: [Int16] = [1000, -1000, 32767, -32768, 7]
        samples.withUnsafeMutableBytes { PCMScale.apply(PCMScale.factor(replayGain: 1, volume: 8192), to: $0) }
        #expect(samples == [125, -125, 4095, -4096, 0])
    }

    @Test func replayGainAndVolumeAreOneScaleThatClamps() {
        // No gain and full volume: the samples are not touched.
        #expect(PCMScale.factor(replayGain: 1, volume: 65536) == 65536)
        // -6.02 dB (x0.5) at 50 % volume (x0.125): x0.0625.
        #expect(PCMScale.factor(replayGain: 0.5, volume: 8192) == 4096)
        var samples: [Int16] = [1000, -1000, 20000, -20000, 3]
        // +6.02 dB: doubled, and what would pass full scale is clamped.
        samples.withUnsafeMutableBytes { PCMScale.apply(PCMScale.factor(replayGain: 2, volume: 65536), to: $0) }
        #expect(samples == [2000, -2000, 32767, -32768, 6])
    }
}

/// Issue 43: an output beside the one that sets the pace is fed on its own
/// thread; one that stalls loses PCM, never delays the caller.
@Suite struct OutputBranchTests {
    /// Takes one write and then blocks until told to go on (a stalled listener).
    final class StalledOutput: AudioOutput, @unchecked Sendable {
        let gate = Monitor()
        var open = false
        var taken = 0
        func configure(_ format: AudioFormat) throws(StreamFailure) {}
        func write(_ pcm: UnsafeRawBufferPointer, interrupted: () -> Bool) throws(StreamFailure) -> Int {
            gate.locked { while !open && !interrupted() { gate.wait(seconds: 0.05) } }
            gate.locked { taken += pcm.count }
            return pcm.count
        }
        func setPaused(_ paused: Bool) {}
        func discard() {}
        func trackEnded() {}
        func setVolume(_ percent: Int) {}
        var hasMixer: Bool { false }
        func wake() {}
        func close() {}
    }

    @Test func aStalledOutputDropsWhatDoesNotFitAndTheCallerNeverWaits() {
        let output = StalledOutput()
        let branch = OutputBranch(output, capacity: 4096) { _ in }
        let chunk = [UInt8](repeating: 1, count: 1024)
        let format = AudioFormat(sampleRate: 44100, channels: 2)
        var kept = 0
        for _ in 0..<100 { if chunk.withUnsafeBytes({ branch.push($0, format: format) }) { kept += 1 } }
        // One chunk in the stalled write, four in the queue: the rest dropped.
        #expect(kept <= 5 && branch.droppedBytes == (100 - kept) * 1024)
        output.gate.locked { output.open = true }
        branch.suspend(release: false)
        branch.close()
        #expect(!branch.isActive)
    }

}
