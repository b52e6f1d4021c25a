import PreviewCore
import PreviewFetch
import PreviewPlatform

// One stream, decoded and played: mpg123 is fed from the stream's input
// and its PCM goes to the output, between the request's start and end
// points, until the input ends, fails or the stream is dropped.
extension Engine {
    /// How a stream ended, with the PCM frames from the song's start it got
    /// to (skipped ones included).
    enum Outcome {
        case finished(Int)
        case failed(StreamFailure, Int)
        case cancelled
        /// The crossfade into the next stream began (see `beginFade`).
        case faded(Handover)
    }

    /// A pass's compressed input and decoded PCM buffers, freed with the
    /// last pass that holds them (a crossfade's outgoing pass outlives the
    /// `decode` call that made it).
    final class PassBuffers {
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
        // 1152 frames x 2 channels x 2 bytes x 24: 0.63 s of 44.1 kHz stereo
        // per write, more than the sound server asks for at once (0.5 s),
        // so each of its requests takes one write (one memory block it
        // hands back, one wake-up) instead of two or three. Input ends a write early, so a slow
        // stream's samples do not wait for a full buffer.
        let pcm = UnsafeMutableRawBufferPointer.allocate(byteCount: 1152 * 4 * 24, alignment: 16)
        deinit {
            input.deallocate()
            pcm.deallocate()
        }
    }

    /// The running state of one `decode`: where in the song it is, which
    /// frames it plays, and what it has fed and waited, for telling a dead
    /// or trickling stream from a slow one. Decode thread only.
    struct DecodePass {
        /// The stream, as events and `position()` name it.
        let id: StreamID
        /// The replay gain, a linear scale (1: bit-exact); chosen anew once
        /// the song is measured, before its first sample (`holdAndMeasure`).
        var gain: Double
        /// The request's start and end points, in seconds from the song's start.
        let start: Double
        let end: Double?
        /// Replaced once, when a ranged seek gives up after feeding it.
        var decoder: Mpg123Decoder
        /// Compressed bytes on their way to the decoder, and the PCM it writes.
        let buffers = PassBuffers()
        var input: UnsafeMutableRawBufferPointer { buffers.input }
        var pcm: UnsafeMutableRawBufferPointer { buffers.pcm }
        /// Known from the decoder's first `newFormat` (or a ranged seek).
        var format: AudioFormat?
        /// Position in PCM frames from the song's start, including skipped ones.
        var frames = 0
        /// The stream fails once `frames` reach this many seconds (`StreamInfo.maxSeconds`).
        let maxSeconds: Double?
        /// The start and end points in frames: frames before `skipUntil`
        /// are decoded but not played, none from `stopAt` on.
        var skipUntil = 0
        var stopAt: Int?
        /// Bytes fed before the format was known: mpg123 found no frame in
        /// them yet (capped by `maxBytesBeforeAudio`).
        var fedBeforeAudio = 0
        /// Bytes fed once the format was known, and the frames decoded (played
        /// or skipped): the stream's mean rate, for telling a trickle.
        var fedAudio = 0
        var decodedFrames = 0
        /// Seconds spent waiting for bytes since the first one, and when it
        /// came (`monotonicSeconds`): a trickle never stalls outright, so it
        /// is judged by the total.
        var starved = 0.0
        var firstByteAt: Double?
        /// The input has no more bytes: what the decoder still asks for ends the pass.
        var inputEnded = false
        /// `streamStarted` was reported.
        var started = false
        /// Cuts of a ring stream resumed so far (at most `maxResumes`).
        var resumes = 0
        /// Whether this pass looked at fading into the next stream yet
        /// (it does once, as its fade would begin).
        var fadeConsidered = false
        /// An incoming pass's overlap in frames (0: none), the frames of it
        /// played so far, and the outgoing song mixed into them.
        var fadeLength = 0
        var fadeIndex = 0
        var tail: FadeTail?
        /// PCM decoded ahead to measure the song (`holdAndMeasure`), not
        /// played yet: played before the decoder's next PCM, by this pass or,
        /// once it fades out, by its tail.
        var held: HeldPCM?
        /// The song's PCM kept to meter it once its body ends (a hold that
        /// ran out of time).
        var meter: LiveMeter?

        /// A pass with a fresh decoder.
        /// - Throws: `StreamFailure.decode` when mpg123 cannot be set up.
        init(_ request: Request) throws(StreamFailure) {
            id = request.id
            gain = request.info.gain
            maxSeconds = request.info.maxSeconds
            start = request.start
            end = request.end
            decoder = try Mpg123Decoder()
        }

        /// A ranged seek put the decoder at PCM frame `target`, in `format`.
        mutating func seeked(to target: Int, in format: AudioFormat) {
            self.format = format
            frames = target
            skipUntil = target
            stopAt = end.map { Int(clamping: $0 * Double(format.sampleRate)) }
        }

        /// The decoder announced `format`. The first one places the start and
        /// end points; a later one (a stream changing its rate mid-way) does
        /// not move them.
        mutating func announced(_ format: AudioFormat) {
            if self.format == nil {
                skipUntil = Int(clamping: start * Double(format.sampleRate))
                stopAt = end.map { Int(clamping: $0 * Double(format.sampleRate)) }
            }
            self.format = format
        }

        /// Counts `decoded` bytes of fresh PCM in `pcm`, and moves past those
        /// before the start point.
        /// - Returns: the bytes of `pcm` to play: from the start point, and
        ///   not past the end point (maybe none).
        mutating func playable(_ decoded: Int, in format: AudioFormat) -> Range<Int> {
            decodedFrames += decoded / format.bytesPerFrame
            var offset = 0
            var bytes = decoded
            if frames < skipUntil {
                let drop = min(skipUntil - frames, decoded / format.bytesPerFrame)
                frames += drop
                offset = drop * format.bytesPerFrame
            }
            if let stopAt {
                bytes = min(bytes, offset + max(0, stopAt - frames) * format.bytesPerFrame)
            }
            return offset..<bytes
        }

        /// Counts the wait for `read`, asked for at `asked` (`monotonicSeconds`).
        /// - Returns: the stream's mean rate in bytes per second, once the
        ///   waits add up past `stallTimeout` and it is below what playing
        ///   needs; nil while it keeps up.
        mutating func trickleRate(
            after read: ByteRing.ReadResult, askedAt asked: Double,
            source: StreamInput, stallTimeout: Double
        ) -> Double? {
            guard let since = firstByteAt else {
                if case .bytes = read { firstByteAt = SystemClock.monotonicSeconds() }
                return nil
            }
            starved += SystemClock.monotonicSeconds() - asked
            guard case .bytes = read, starved > stallTimeout else { return nil }
            // Long waits are fine while the bytes come at the rate playing
            // needs (a seek waiting for its target on a modest link); a
            // trickle below it is not.
            let rate = Double(source.received) / max(SystemClock.monotonicSeconds() - since, 0.001)
            let needed = StreamRate.bytesPerSecondNeeded(
                fedBytes: fedAudio, decodedFrames: decodedFrames,
                sampleRate: format?.sampleRate ?? 0, frameBitrate: decoder.bitrate)
            return rate < 0.75 * needed ? rate : nil
        }
    }

    /// Decodes one stream from `feed` to the output until its end (or the
    /// request's end point), dropping the frames before its start point.
    func decode(_ request: Request, feed: inout Feed) -> Outcome {
        guard clock != nil else { return .failed(.output("no output"), 0) }
        var pass: DecodePass
        do { pass = try DecodePass(request) } catch { return .failed(error, 0) }
        positionState.withLock { $0 = PositionState(position: PlaybackPosition(stream: request.id, frames: 0, format: nil, bitrate: 0)) }
        if let outcome = seekToStart(request, pass: &pass, feed: &feed) { return outcome }
        return playThrough(&pass, feed: &feed, plan: request.info.measure)
    }

    /// Decodes and plays the pass to its end (a crossfade's incoming pass
    /// starts here, its decoder already past the format).
    func run(_ pass: inout DecodePass, feed: inout Feed) -> Outcome {
        while true {
            let produced: Mpg123Decoder.Output
            do { produced = try pass.decoder.decode(into: pass.pcm) } catch {
                return .failed(error, pass.frames)
            }
            switch produced {
            case .newFormat(let format):
                // The output opens for it with the first samples written.
                if let known = pass.format, known != format { dropMeter(&pass) }
                pass.announced(format)
                publishPosition(of: pass, in: format)
            case .pcm(let decoded):
                keepForMeter(&pass, decoded)
                if let outcome = play(decoded, pass: &pass, feed: feed) { return outcome }
            case .needMore:
                if let outcome = readMore(pass: &pass, feed: &feed) { return outcome }
            }
        }
    }

    /// Tries a ranged seek to the request's start point (see `seekByRange`);
    /// otherwise the pass decodes from the first byte and skips to it.
    /// - Returns: the stream's outcome when it ended already.
    private func seekToStart(_ request: Request, pass: inout DecodePass, feed: inout Feed) -> Outcome? {
        switch seekByRange(request, feed: &feed, decoder: pass.decoder) {
        case .notNeeded: return nil
        case .seeked(let format, let target):
            pass.seeked(to: target, in: format)
            return nil
        case .fromStart:
            // The Range answer was of no use: decode the download from its
            // first byte (in memory), with a decoder that saw nothing yet.
            do { pass.decoder = try Mpg123Decoder() } catch { return .failed(error, 0) }
            return nil
        case .failed(let failure): return .failed(failure, 0)
        case .cancelled: return .cancelled
        }
    }

    /// Plays the `decoded` bytes of PCM the decoder just wrote, less those
    /// outside the start and end points; an incoming crossfade pass mixes
    /// the outgoing song in, and a pass reaching its fade hands over.
    /// - Returns: the stream's outcome when it ended (its end point reached,
    ///   the output failed, the stream dropped, the fade begun); nil to decode on.
    func play(_ decoded: Int, pass: inout DecodePass, feed: Feed) -> Outcome? {
        guard decoded > 0, let format = pass.format else { return nil }
        let playable = pass.playable(decoded, in: format)
        if !playable.isEmpty { scale(pass, playable) }
        if pass.fadeIndex < pass.fadeLength { mixFade(into: &pass, playable, format: format) }
        let handover = beginFade(&pass, feed: feed, playable: playable, format: format)
        let cut = handover.map { playable.lowerBound + ($0.fadedAt - pass.frames) * format.bytesPerFrame } ?? playable.upperBound
        if let outcome = writeOut(&pass, playable.lowerBound..<cut, format: format, source: feed.input) { return outcome }
        if let handover {
            if commitFade(handover, outgoing: feed) { return .faded(handover) }
            // The next song changed at the last moment: this one plays on alone.
            if let outcome = writeOut(&pass, cut..<playable.upperBound, format: format, source: feed.input) { return outcome }
        }
        publishPosition(of: pass, in: format)
        if let stopAt = pass.stopAt, pass.frames >= stopAt { return .finished(pass.frames) }
        if let limit = pass.maxSeconds, Double(pass.frames) >= limit * Double(format.sampleRate) {
            return .failed(.tooLong(seconds: Int(limit)), pass.frames)
        }
        return nil
    }

    /// Writes `range` of the pass's PCM to the output, counting its frames.
    /// - Returns: the stream's outcome when it ended meanwhile; nil when all went out.
    private func writeOut(_ pass: inout DecodePass, _ range: Range<Int>, format: AudioFormat, source: StreamInput) -> Outcome? {
        var offset = range.lowerBound
        while offset < range.upperBound {
            if !pass.started {
                // Reported as the first samples are handed over (a paced
                // output may hold this write as long as it plays), or are
                // ready while paused.
                pass.started = true
                events?(
                    .streamStarted(
                        pass.id, format, bitrate: pass.decoder.bitrate,
                        totalFrames: pass.decoder.lengthInFrames))
            }
            // A pause during a crossfade ends it: the incoming song resumes alone.
            if pass.tail != nil, pausedFlag.load(ordering: .acquiring) { abandonFade(&pass) }
            if waitWhilePaused(source) { return .cancelled }
            // In pieces of at most `maxWriteFrames`: the outputs that follow
            // get each piece as the one setting the pace takes it, so a
            // listener hears the first samples at once, and a block of a
            // low-rate song (2.5 s of 22 kHz mono) never comes in one burst.
            let piece = min(range.upperBound, offset + Engine.maxWriteFrames * format.bytesPerFrame)
            let chunk = UnsafeRawBufferPointer(rebasing: pass.pcm[offset..<piece])
            publishPosition(of: pass, in: format, pending: chunk.count / format.bytesPerFrame)
            let n: Int
            switch write(chunk, format: format, source: source) {
            case .wrote(let count): n = count
            case .failed(let failure): return .failed(failure, pass.frames)
            case .cancelled: return .cancelled
            }
            offset += n
            pass.frames += n / format.bytesPerFrame
            if source.isCancelled { return .cancelled }
        }
        return nil
    }

    /// Applies the pass's replay gain and the software volume to `range` of its PCM.
    func scale(_ pass: DecodePass, _ range: Range<Int>) {
        let volume = selectedOutput().hasMixer ? 65536 : softwareGain.load(ordering: .acquiring)
        PCMScale.apply(
            PCMScale.factor(replayGain: pass.gain, volume: volume),
            to: UnsafeMutableRawBufferPointer(rebasing: pass.pcm[range]))
    }

    /// What `position()` answers from now on: the pass's frame, in
    /// `format`, and `pending` more frames going out from now on.
    func publishPosition(of pass: DecodePass, in format: AudioFormat, pending: Int = 0) {
        let output = selectedOutput()
        // The output's reading matters only for a chunk going out (it takes
        // a sound server's lock), not after every decoded piece.
        let now = PositionState(
            position: PlaybackPosition(
                stream: pass.id, frames: pass.frames, format: format,
                bitrate: pass.decoder.bitrate),
            pending: pending, since: pending > 0 ? SystemClock.monotonicSeconds() : 0,
            output: output, clockAtStart: pending > 0 ? output.clock() : nil)
        positionState.withLock { $0 = now }
    }

    /// Feeds the decoder the input's next bytes, waiting for them.
    /// - Returns: the stream's outcome when it ended (the input ended,
    ///   failed for good, trickles, or holds no audio); nil to decode on.
    func readMore(pass: inout DecodePass, feed: inout Feed) -> Outcome? {
        if pass.inputEnded {
            return pass.format == nil
                ? .failed(.notAudio("no MPEG audio frames found"), pass.frames)
                : .finished(pass.frames)
        }
        let source = feed.input
        let asked = SystemClock.monotonicSeconds()
        let read = source.read(into: pass.input, stallTimeout: stallTimeout)
        if let rate = pass.trickleRate(after: read, askedAt: asked, source: source, stallTimeout: stallTimeout) {
            return .failed(.tooSlow(bytesPerSecond: Int(clamping: rate, rounding: .down)), pass.frames)
        }
        switch read {
        case .bytes(let n):
            if pass.format == nil {
                pass.fedBeforeAudio += n
                if pass.fedBeforeAudio > maxBytesBeforeAudio {
                    return .failed(.notAudio("no MPEG audio frames in the first \(maxBytesBeforeAudio) bytes"), pass.frames)
                }
            } else {
                pass.fedAudio += n
            }
            do { try pass.decoder.feed(UnsafeRawBufferPointer(rebasing: pass.input[0..<n])) } catch {
                return .failed(error, pass.frames)
            }
            return nil
        case .end:
            pass.inputEnded = true
            return nil
        case .failed(let failure):
            return resumeAfterCut(failure, pass: &pass, feed: &feed)
        case .cancelled:
            return .cancelled
        }
    }

    /// A body cut short after some bytes can go on where it stopped; the
    /// decoder keeps its state, so no sample is lost or repeated. A failure
    /// before any byte is the track's. (Downloads report their cuts from
    /// the network side.)
    /// - Returns: nil once the rest of the body is on its way; otherwise
    ///   the stream's outcome.
    private func resumeAfterCut(_ failure: StreamFailure, pass: inout DecodePass, feed: inout Feed) -> Outcome? {
        let source = feed.input
        let received = source.received
        guard feed.download == nil, received > 0, pass.resumes < maxResumes, failure.isResumable else {
            return .failed(failure, pass.frames)
        }
        pass.resumes += 1
        events?(.streamCut(pass.id, failure, bytes: received))
        guard let url = awaitResume(pass.id, input: source) else { return .cancelled }
        restart(&feed, url: url)
        return nil
    }
}
