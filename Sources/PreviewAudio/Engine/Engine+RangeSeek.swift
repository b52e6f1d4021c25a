import PreviewCore
import PreviewFetch

// A start point far into a song that is still downloading, reached by an
// HTTP Range fetch from just before it instead of waiting for every byte
// up to it.
extension Engine {
    enum RangeSeekOutcome {
        /// The download will have the target's bytes soon, or the stream's
        /// frames cannot be located by offset: decode from the start.
        case notNeeded
        /// The decoder goes on from PCM frame `target` in `format`.
        case seeked(AudioFormat, target: Int)
        /// The Range answer could not be used (refused, cut, or no frame
        /// found in it); the download goes on, and decoding starts over from
        /// its first byte with a fresh decoder.
        case fromStart
        case failed(StreamFailure)
        case cancelled
    }

    /// One step of the seek: what it got, or how the seek ends right there.
    private enum Step<Value> {
        case next(Value)
        case done(RangeSeekOutcome)
    }

    /// Where the Range fetch starts, worked out from the body's head.
    private struct RangePlan {
        let layout: ConstantBitrateLayout
        /// The start point, in PCM frames.
        let target: Int
        /// The body offset the Range fetch asks from: a few frames before
        /// the target's frame.
        let rangeStart: Int

        /// nil when the head shows no constant-bitrate layout, or the start
        /// point lies in its first few frames.
        init?(head: [UInt8], start: Double) {
            guard let layout = ConstantBitrateLayout(prefix: head) else { return nil }
            let target = Int(clamping: start * Double(layout.header.sampleRate))
            // The encoder delay only moves the target's frame later, so this
            // many frames back leave room for the preroll and its alignment.
            let firstWanted = target / Layer3FrameHeader.samplesPerFrame - layout.prerollFrames - 5
            let rangeStart = layout.approximateOffset(ofFrame: firstWanted) - 8
            guard rangeStart > layout.firstFrame else { return nil }
            self.layout = layout
            self.target = target
            self.rangeStart = rangeStart
        }
    }

    /// A start point far past what the playing download holds: rather than
    /// wait for every byte before it, fetch from a few frames before the
    /// target with an HTTP Range and let mpg123 seek there, knowing which
    /// frame the bytes start with; once that has worked, the download stops.
    /// Only for constant-bitrate streams (see `ConstantBitrateLayout`),
    /// where that is exact: the decode from there equals a decode from the
    /// start. Whatever goes wrong on the way leaves the download to it.
    func seekByRange(_ request: Request, feed: inout Feed, decoder: Mpg123Decoder) -> RangeSeekOutcome {
        guard request.start > 0, let download = feed.download, !download.isComplete else { return .notNeeded }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { chunk.deallocate() }
        // The head says whether frames can be found by offset. Whatever is
        // read goes to the decoder, which then goes on as usual if not.
        let head: [UInt8]
        switch readHead(of: feed.input, using: chunk) {
        case .next(let bytes): head = bytes
        case .done(let outcome): return outcome
        }
        // Within about a second of a 128 kbit/s preview: soon here anyway.
        guard let plan = RangePlan(head: head, start: request.start), plan.rangeStart > download.count + 16 * 1024 else {
            return feedDecoder(decoder, with: head[...]).map { .failed($0) } ?? .notNeeded
        }

        // mpg123 reads the Info/LAME frame (length, gapless trimming) and
        // announces the format from the head; the rest comes by Range.
        let layout = plan.layout
        let headEnd = min(head.count, layout.firstFrame + 2 * layout.header.byteCount + 4)
        if let failure = feedDecoder(decoder, with: head[0..<headEnd]) { return .failed(failure) }
        guard let format = announcedFormat(of: decoder) else { return fromStart(feed) }

        let ring = ByteRing(capacity: ringCapacity)
        let transfer = Transfer(url: request.url, sink: .ring(ring), rangeStart: plan.rangeStart, rangeRequired: true)
        // While the answer is probed the ring is the stream's input, so a
        // new `play` cancels it; the download keeps going until it is proven.
        guard replaceInput(feed.input, with: ring) else { return .cancelled }
        startTransfer(transfer)

        let fetched: [UInt8], found: (offset: Int, frame: Int)?
        switch probe(ring, of: transfer, plan: plan, using: chunk) {
        case .next(let probed): (fetched, found) = probed
        case .done(let outcome): return outcome
        }
        guard let found,
            decoder.seek(
                to: plan.target, resumingAt: found.offset, frame: found.frame,
                firstFrameOffset: layout.firstFrame, preroll: layout.prerollFrames)
        else {
            stopTransfer(transfer)
            return replaceInput(ring, with: feed.input) ? fromStart(feed) : .cancelled
        }

        guard dropDownload(download, for: ring) else {
            stopTransfer(transfer)
            return .cancelled
        }
        feed = Feed(input: ring, transfer: transfer, download: nil, base: plan.rangeStart)
        if let failure = feedDecoder(decoder, with: fetched[(found.offset - plan.rangeStart)...]) { return .failed(failure) }
        return .seeked(format, target: plan.target)
    }

    /// Reads the download's first bytes: as many as tell whether (and
    /// where) its frames lie at offsets that follow from their numbers,
    /// or all of a shorter body.
    private func readHead(of input: StreamInput, using chunk: UnsafeMutableRawBufferPointer) -> Step<[UInt8]> {
        var head: [UInt8] = []
        while head.count < ConstantBitrateLayout.prefixLength(knowing: head) ?? 10 {
            switch input.read(into: chunk, stallTimeout: stallTimeout) {
            case .bytes(let n): head += chunk[0..<n]
            case .end: return .next(head)
            case .failed(let failure): return .done(.failed(failure))
            case .cancelled: return .done(.cancelled)
            }
        }
        return .next(head)
    }

    /// Feeds `bytes` to `decoder`. - Returns: its failure, nil when it took them.
    private func feedDecoder(_ decoder: Mpg123Decoder, with bytes: ArraySlice<UInt8>) -> StreamFailure? {
        let fed = bytes.withUnsafeBytes { all in
            Result { () throws(StreamFailure) in try decoder.feed(all) }
        }
        if case .failure(let failure) = fed { return failure }
        return nil
    }

    /// The format mpg123 announces from what it was fed so far; nil when
    /// it announces none (or anything else comes first).
    private func announcedFormat(of decoder: Mpg123Decoder) -> AudioFormat? {
        let pcm = UnsafeMutableRawBufferPointer.allocate(byteCount: 1152 * 4 * 4, alignment: 16)
        defer { pcm.deallocate() }
        guard case .newFormat(let format)? = try? decoder.decode(into: pcm) else { return nil }
        return format
    }

    /// Makes `new` the stream's input in place of `old`, so that a `play`
    /// or `stop` cancels the right one.
    /// - Returns: false when `old` was no longer the input: the stream was
    ///   dropped meanwhile.
    private func replaceInput(_ old: StreamInput, with new: StreamInput) -> Bool {
        monitor.locked {
            guard currentInput === old else { return false }
            currentInput = new
            return true
        }
    }

    /// Reads the Range answer up to a run of three frames (or some 64 KiB):
    /// the first of them is where mpg123 goes on, and its number follows
    /// from its offset.
    /// - Returns: the bytes read, and the frame found in them (nil: the
    ///   answer ended, failed or held none first); `.done(.cancelled)`,
    ///   with `transfer` removed, when the stream was dropped.
    private func probe(
        _ ring: ByteRing, of transfer: Transfer, plan: RangePlan,
        using chunk: UnsafeMutableRawBufferPointer
    ) -> Step<([UInt8], (offset: Int, frame: Int)?)> {
        var fetched: [UInt8] = []
        while fetched.count <= 64 * 1024 {
            switch ring.read(into: chunk, stallTimeout: stallTimeout) {
            case .bytes(let n): fetched += chunk[0..<n]
            case .end, .failed: return .next((fetched, nil))
            case .cancelled:
                stopTransfer(transfer)
                return .done(.cancelled)
            }
            if let at = plan.layout.locateFrame(in: fetched, base: plan.rangeStart) { return .next((fetched, at)) }
        }
        return .next((fetched, nil))
    }

    /// The download stops: its bytes are not needed now, and its
    /// bandwidth is. (Played again, the song is fetched again.)
    /// - Returns: false when `ring` was no longer the stream's input: the
    ///   stream was dropped meanwhile, and the download is left as it is.
    private func dropDownload(_ download: Download, for ring: ByteRing) -> Bool {
        let (current, headTransfer) = monitor.locked { () -> (Bool, Transfer?) in
            guard currentInput === ring else { return (false, nil) }
            download.setCutHandler(nil)
            download.setPlaying(false)
            if downloads[download.key] === download { downloads[download.key] = nil }
            playingDownload = nil
            return (true, download.transfer)
        }
        if let headTransfer { stopTransfer(headTransfer) }
        return current
    }

    /// Gives a seek back to the download: its reader starts over at byte 0.
    private func fromStart(_ feed: Feed) -> RangeSeekOutcome {
        guard let reader = feed.input as? DownloadReader else { return .cancelled }
        reader.rewind()
        return .fromStart
    }
}
