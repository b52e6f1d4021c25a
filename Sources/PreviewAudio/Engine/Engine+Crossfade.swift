import PreviewCore
import PreviewFetch

// Crossfade (MPD's `crossfade N`): as the playing pass reaches its last N
// seconds, the next stream's pass takes over as the one playing, and the
// outgoing pass becomes its tail, decoded alongside and mixed into its
// first N seconds with equal-power curves (`Crossfade`). Only songs whole
// in memory fade (a complete download; for the outgoing song also a
// streamed body whose rest has arrived in the ring, as it has once the song
// was held whole to be measured), so neither pass can wait on the network
// mid-fade.
extension Engine {
    /// The outgoing song of a crossfade: its pass, its input, and PCM it
    /// decoded but has not mixed yet (a range of its pass's buffer).
    final class FadeTail {
        var pass: DecodePass
        let feed: Feed
        let format: AudioFormat
        var ready: Range<Int>
        /// No PCM left (its end, its end point, or a decoder error).
        var ended = false

        init(pass: DecodePass, feed: Feed, format: AudioFormat, ready: Range<Int>) {
            self.pass = pass
            self.feed = feed
            self.format = format
            self.ready = ready
        }
    }

    /// A prepared fade: the incoming request, its pass (decoder past the
    /// format, the outgoing tail attached) and feed, and the outgoing
    /// pass's frame where the fade begins.
    struct Handover {
        let request: Request
        var pass: DecodePass
        var feed: Feed
        let fadedAt: Int
    }

    /// Prepares the fade when this chunk (`playable` of the pass's PCM)
    /// reaches the pass's last `crossfade` seconds, a next stream is
    /// queued, both songs' bodies are whole in memory (`hasWholeBody`, and
    /// the next one's download) and the next decodes to `format`.
    /// Looks once per pass; nil: no fade now.
    func beginFade(_ pass: inout DecodePass, feed: Feed, playable: Range<Int>, format: AudioFormat) -> Handover? {
        // A song held whole has its exact length; the decoder's is for bodies it was fed whole.
        let heldWhole = pass.held?.wholeSong == true
        guard !pass.fadeConsidered, pass.fadeIndex >= pass.fadeLength,
            let end = pass.stopAt ?? (heldWhole ? pass.held?.totalFrames(in: format) : pass.decoder.lengthInFrames)
        else { return nil }
        let chunkEnd = pass.frames + playable.count / format.bytesPerFrame
        // Only a song's last `Crossfade.maxSeconds` can hold a fade: no lock per chunk before.
        guard chunkEnd + Crossfade.maxSeconds * format.sampleRate > end else { return nil }
        let plan: (NextStream, Int, Download)? = monitor.locked {
            guard let next = queuedNext, crossfadeSeconds > 0, feed.input.hasWholeBody,
                let d = downloads[next.key], d.isComplete
            else { return nil }
            return (next, Int(crossfadeSeconds * Double(format.sampleRate)), d)
        }
        guard let (next, length, download) = plan else { return nil }
        let fadedAt = end - length
        guard chunkEnd > fadedAt else { return nil }
        pass.fadeConsidered = true
        // Started inside its last seconds (a seek): no room for the fade.
        guard fadedAt >= pass.frames, fadedAt > pass.skipUntil else { return nil }
        let request = Request(id: next.id, url: next.url, key: next.key, start: next.start, end: next.end, info: next.info)
        guard var incoming = try? DecodePass(request) else { return nil }
        let inFeed = Feed(input: DownloadReader(download), transfer: nil, download: download)
        guard announcedFormat(&incoming, input: inFeed.input) == format else { return nil }
        var outgoing = pass
        outgoing.frames = chunkEnd
        let cut = playable.lowerBound + (fadedAt - pass.frames) * format.bytesPerFrame
        incoming.tail = FadeTail(pass: outgoing, feed: feed, format: format, ready: cut..<playable.upperBound)
        incoming.fadeLength = length
        return Handover(request: request, pass: incoming, feed: inFeed, fadedAt: fadedAt)
    }

    /// Feeds a fresh pass from a whole download until mpg123 announces the
    /// format (nil: no audio, or a decoder error).
    private func announcedFormat(_ pass: inout DecodePass, input: StreamInput) -> AudioFormat? {
        while true {
            switch try? pass.decoder.decode(into: pass.pcm) {
            case .newFormat(let f)?:
                pass.announced(f)
                return f
            case .needMore?:
                guard case .bytes(let n) = input.read(into: pass.input, stallTimeout: stallTimeout),
                    (try? pass.decoder.feed(UnsafeRawBufferPointer(rebasing: pass.input[0..<n]))) != nil
                else { return nil }
            case .pcm?, nil:
                return nil
            }
        }
    }

    /// Makes the handover's stream the one playing, unless a `play`, a
    /// `stop` or a new `queueNext` came first.
    /// - Returns: whether the fade goes ahead.
    func commitFade(_ handover: Handover, outgoing: Feed) -> Bool {
        monitor.locked {
            guard pending == nil, !stopping, !outgoing.input.isCancelled, currentInput === outgoing.input,
                queuedNext?.id == handover.request.id, let download = handover.feed.download
            else { return false }
            queuedNext = nil
            playingDownload?.setPlaying(false)
            playingDownload?.setCutHandler(nil)
            download.setPlaying(true)
            playingDownload = download
            downloads[download.key] = download
            currentStream = handover.request.id
            currentInput = handover.feed.input
            return true
        }
    }

    /// Mixes the outgoing tail into `range` of the incoming pass's PCM,
    /// scaling the incoming frames by the fade-in curve, until the overlap
    /// is over.
    func mixFade(into pass: inout DecodePass, _ range: Range<Int>, format: AudioFormat) {
        let frames = range.count / format.bytesPerFrame
        let incoming = UnsafeMutableRawBufferPointer(rebasing: pass.pcm[range]).bindMemory(to: Int16.self)
        let channels = format.channels
        for frame in 0..<frames where pass.fadeIndex + frame < pass.fadeLength {
            let w = Crossfade.weights(at: pass.fadeIndex + frame, of: pass.fadeLength)
            let outgoing = pass.tail.flatMap { nextTailFrame($0) }
            for c in 0..<channels {
                let i = frame * channels + c
                incoming[i] = Crossfade.mix(outgoing?[c] ?? 0, incoming[i], w)
            }
        }
        pass.fadeIndex = min(pass.fadeLength, pass.fadeIndex + frames)
        if pass.fadeIndex >= pass.fadeLength { pass.tail = nil }
    }

    /// The tail's next frame (as many samples as channels), decoding more
    /// as needed; nil once it has none.
    private func nextTailFrame(_ tail: FadeTail) -> UnsafeMutableBufferPointer<Int16>? {
        let size = tail.format.bytesPerFrame
        while tail.ready.count < size {
            guard !tail.ended, let decoded = decodeTail(tail) else {
                tail.ended = true
                return nil
            }
            tail.ready = decoded
        }
        let frame = UnsafeMutableRawBufferPointer(rebasing: tail.pass.pcm[tail.ready.lowerBound..<tail.ready.lowerBound + size])
        tail.ready = tail.ready.lowerBound + size..<tail.ready.upperBound
        return frame.bindMemory(to: Int16.self)
    }

    /// Decodes the tail's next PCM (scaled like any played PCM): what its
    /// pass held first, then the decoder's.
    /// - Returns: its range in the tail's buffer; nil at its end.
    private func decodeTail(_ tail: FadeTail) -> Range<Int>? {
        while true {
            if let stopAt = tail.pass.stopAt, tail.pass.frames >= stopAt { return nil }
            if let held = tail.pass.held {
                guard let n = held.next(into: tail.pass.pcm) else {
                    tail.pass.held = nil
                    if held.formatChangesAfter { return nil }
                    continue
                }
                let range = tail.pass.playable(n, in: tail.format)
                tail.pass.frames += range.count / tail.format.bytesPerFrame
                guard !range.isEmpty else { continue }
                scale(tail.pass, range)
                return range
            }
            switch try? tail.pass.decoder.decode(into: tail.pass.pcm) {
            case .pcm(let n)?:
                let range = tail.pass.playable(n, in: tail.format)
                tail.pass.frames += range.count / tail.format.bytesPerFrame
                guard !range.isEmpty else { continue }
                scale(tail.pass, range)
                return range
            case .needMore?:
                guard case .bytes(let n) = tail.feed.input.read(into: tail.pass.input, stallTimeout: stallTimeout),
                    (try? tail.pass.decoder.feed(UnsafeRawBufferPointer(rebasing: tail.pass.input[0..<n]))) != nil
                else { return nil }
            case .newFormat(let f)? where f == tail.format:
                continue
            case .newFormat?, nil:
                return nil
            }
        }
    }

    /// Ends a crossfade early (a pause): the incoming song plays on alone.
    func abandonFade(_ pass: inout DecodePass) {
        pass.tail = nil
        pass.fadeLength = 0
        pass.fadeIndex = 0
    }
}
