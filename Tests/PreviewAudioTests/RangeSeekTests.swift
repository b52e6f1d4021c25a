import PreviewCore
import Testing
@testable import PreviewAudio

/// Seeking into bytes fetched apart from the head (as an HTTP Range gives
/// them): the decode from there must equal the decode from the start.
@Suite struct RangeSeekTests {
    /// All PCM of `input`, fed in 4 KiB pieces.
    func decodeAll(_ input: [UInt8]) throws -> [UInt8] {
        let decoder = try Mpg123Decoder()
        return try drain(decoder, input[...])
    }

    /// Feeds `input` and collects the PCM until the decoder wants more and there is none.
    func drain(_ decoder: Mpg123Decoder, _ input: ArraySlice<UInt8>) throws -> [UInt8] {
        let pcm = UnsafeMutableRawBufferPointer.allocate(byteCount: 16384, alignment: 16)
        defer { pcm.deallocate() }
        var out: [UInt8] = []
        var offset = input.startIndex
        while true {
            switch try decoder.decode(into: pcm) {
            case .newFormat: break
            case .pcm(let n): out += pcm[0..<n]
            case .needMore:
                if offset >= input.endIndex { return out }
                let end = min(offset + 4096, input.endIndex)
                try input[offset..<end].withUnsafeBytes { try decoder.feed($0) }
                offset = end
            }
        }
    }

    /// Decodes `file` from PCM frame `target` as the engine does after a seek
    /// past its download: head, then bytes from a few frames before the target.
    func decodeByRange(_ file: [UInt8], from target: Int) throws -> (AudioFormat, [UInt8]) {
        let parsed = ConstantBitrateLayout(prefix: file.prefix(64 * 1024))
        let layout = try #require(parsed)
        let decoder = try Mpg123Decoder()
        let headEnd = layout.firstFrame + 2 * layout.header.byteCount + 4
        try file[0..<headEnd].withUnsafeBytes { try decoder.feed($0) }
        let pcm = UnsafeMutableRawBufferPointer.allocate(byteCount: 16384, alignment: 16)
        defer { pcm.deallocate() }
        guard case .newFormat(let format) = try decoder.decode(into: pcm) else {
            Issue.record("no format from the head")
            throw StreamFailure.decode("no format")
        }
        let firstWanted = target / Layer3FrameHeader.samplesPerFrame - layout.prerollFrames - 5
        let rangeStart = layout.approximateOffset(ofFrame: firstWanted) - 8
        let located = layout.locateFrame(in: file[rangeStart...], base: rangeStart)
        let found = try #require(located)
        #expect(
            decoder.seek(
                to: target, resumingAt: found.offset, frame: found.frame,
                firstFrameOffset: layout.firstFrame, preroll: layout.prerollFrames))
        return (format, try drain(decoder, file[found.offset...]))
    }

    @Test(arguments: [
        "preview-01.mp3", "preview-07-48k.mp3", "taglib-sharp--sample_v2_4_unsynch.mp3",
        "taglib-sharp--sample_replaygain.mp3", "taglib-sharp--sample_both.mp3",
    ])
    func decodeFromARangeEqualsTheDecodeFromTheStart(name: String) throws {
        let file = Corpus.bytes(name)
        let whole = try decodeAll(file)
        // Stereo and mono, and targets in each phase of the synthesis
        // filter (frames 4k ... 4k+3).
        for step in 0..<4 {
            for fraction in [3, 2] {
                let parsed = ConstantBitrateLayout(prefix: file.prefix(8192))
                let channels = try #require(parsed).header.channels
                let bytesPerFrame = 2 * channels
                let total = whole.count / bytesPerFrame
                let target = total / fraction + step * Layer3FrameHeader.samplesPerFrame + 100
                let (format, pcm) = try decodeByRange(file, from: target)
                #expect(format.channels == channels)
                #expect(pcm.count == whole.count - target * bytesPerFrame, "\(name) from \(target)")
                let same = pcm[...] == whole[(target * bytesPerFrame)...]
                #expect(same, "\(name) from \(target)")
            }
        }
    }

    @Test func onlyConstantBitrateMPEG1WithAnInfoFrameHasALayout() {
        func parses(_ name: String) -> Bool { ConstantBitrateLayout(prefix: Corpus.bytes(name).prefix(8192)) != nil }
        #expect(parses("preview-01.mp3"))
        #expect(!parses("preview-06.mp3"))  // no Info frame
        #expect(!parses("preview-08-mono22k.mp3"))  // MPEG-2
        #expect(!parses("preview-09-vbr.mp3"))  // a Xing frame: VBR
    }

    @Test func everyFrameOfAPreviewIsNumberedFromItsOffset() throws {
        let file = Corpus.bytes("preview-01.mp3")
        let parsed = ConstantBitrateLayout(prefix: file.prefix(8192))
        let layout = try #require(parsed)
        #expect(layout.firstFrame == 1603 + 417)
        #expect(layout.header == Layer3FrameHeader(file, at: 1603))
        var offset = layout.firstFrame, n = 0
        while let h = Layer3FrameHeader(file, at: offset) {
            #expect(layout.frame(startingAt: offset) == n)
            #expect(abs(layout.approximateOffset(ofFrame: n) - offset) <= 2)
            // A search from inside the previous frame lands here (while two
            // more frames follow to confirm it).
            if n > 0 && n < 1148 {
                let found = layout.locateFrame(in: file[(offset - 200)...], base: offset - 200)
                #expect(found?.offset == offset && found?.frame == n, "frame \(n) at \(offset): \(String(describing: found))")
            }
            offset += h.byteCount
            n += 1
        }
        #expect(n == 1150)
    }
}
