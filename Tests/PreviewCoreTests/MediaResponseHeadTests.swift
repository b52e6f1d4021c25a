import Testing
@testable import PreviewCore

@Suite struct MediaResponseHeadTests {
    @Test func firstByteOfAContentRange() {
        #expect(MediaResponseHead.contentRangeStart("bytes 397823-482676/482677") == 397823)
        #expect(MediaResponseHead.contentRangeStart(" bytes 0-9/10") == 0)
        #expect(MediaResponseHead.contentRangeStart("bytes */482677") == nil)  // unsatisfied: no part sent
        #expect(MediaResponseHead.contentRangeStart("items 1-2/3") == nil)
        #expect(MediaResponseHead.contentRangeStart("") == nil)
        #expect(MediaResponseHead.contentRangeStart("bytes 99999999999999999999-1/2") == nil)
        #expect(MediaResponseHead.contentRangeStart("bytes +5-9/10") == 5)
    }

    @Test func rangeAnswers() {
        let asked = 400_000
        // An earlier start: the extra bytes are skipped; a later one fails.
        #expect(
            MediaResponseHead(status: 206, contentRange: "bytes 395820-482676/482677")
                .bytesToSkip(rangeStart: asked, rangeRequired: true) == .success(4180))
        #expect(
            MediaResponseHead(status: 206, contentRange: "bytes 400003-482676/482677")
                .bytesToSkip(rangeStart: asked, rangeRequired: true)
                == .failure(.transport("the server sent bytes from 400003 on, not from 400000")))
        #expect(
            MediaResponseHead(status: 206, contentRange: "bytes 400000-482676/482677")
                .bytesToSkip(rangeStart: asked, rangeRequired: false) == .success(0))
        // A number that does not fit, or no number: no part is named.
        #expect(
            MediaResponseHead(status: 206, contentRange: "bytes 99999999999999999999-482676/482677")
                .bytesToSkip(rangeStart: asked, rangeRequired: true)
                == .failure(.transport("the server sent an unreadable Content-Range: bytes 99999999999999999999-482676/482677")))
        #expect(
            MediaResponseHead(status: 206, contentRange: "bytes */482677")
                .bytesToSkip(rangeStart: asked, rangeRequired: false)
                == .failure(.transport("the server sent an unreadable Content-Range: bytes */482677")))
        // None at all: the part asked for, as before.
        #expect(MediaResponseHead(status: 206).bytesToSkip(rangeStart: asked, rangeRequired: false) == .success(0))
        // Range ignored: the prefix is skipped, or a seek's probe gives up.
        #expect(MediaResponseHead(status: 200).bytesToSkip(rangeStart: asked, rangeRequired: false) == .success(asked))
        #expect(
            MediaResponseHead(status: 200).bytesToSkip(rangeStart: asked, rangeRequired: true)
                == .failure(.transport("the server ignores Range requests")))
        #expect(MediaResponseHead(status: 200).bytesToSkip(rangeStart: 0, rangeRequired: false) == .success(0))
    }

    @Test func statusAndType() {
        #expect(MediaResponseHead(status: 403).bytesToSkip(rangeStart: 0, rangeRequired: false) == .failure(.httpStatus(403)))
        #expect(
            MediaResponseHead(status: 200, contentType: "Text/HTML; charset=utf-8").bytesToSkip(rangeStart: 0, rangeRequired: false)
                == .failure(.notAudio("the server sent text/html; charset=utf-8")))
        #expect(
            MediaResponseHead(status: 200, contentType: "application/json").bytesToSkip(rangeStart: 0, rangeRequired: false)
                == .failure(.notAudio("the server sent application/json")))
        #expect(MediaResponseHead(status: 200, contentType: "audio/mpeg").bytesToSkip(rangeStart: 0, rangeRequired: false) == .success(0))
    }
}

@Suite struct StreamRateTests {
    @Test func theMeanOnceASecondIsDecoded() {
        // 2 s of 44.1 kHz audio from 48,000 bytes: 24,000 B/s, whatever the
        // current frame's rate (a VBR frame at 320 kbit/s is 40,000 B/s).
        #expect(StreamRate.bytesPerSecondNeeded(fedBytes: 48_000, decodedFrames: 88_200, sampleRate: 44_100, frameBitrate: 320) == 24_000)
        #expect(StreamRate.bytesPerSecondNeeded(fedBytes: 48_000, decodedFrames: 44_099, sampleRate: 44_100, frameBitrate: 320) == 40_000)
        #expect(StreamRate.bytesPerSecondNeeded(fedBytes: 0, decodedFrames: 0, sampleRate: 0, frameBitrate: 0) == 16_000)
    }
}
