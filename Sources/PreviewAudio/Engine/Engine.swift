import Glibc
import PreviewCore
import Synchronization

/// The real `AudioEngine`: a network thread (curl multi) filling in-memory
/// downloads (previews, prefetched ahead of play) or a bounded ring (other
/// streams), and a decode/output thread feeding libmpg123 and writing PCM
/// to the output. All methods return at once; outcomes are events.
public final class Engine: AudioEngine, @unchecked Sendable {
    /// Bytes buffered between network and decoder, per stream.
    public let ringCapacity: Int
    /// Most input fed to mpg123 before it must have found an MPEG frame:
    /// mpg123 silently swallows non-audio, so without a cap an HTML page or
    /// an endless junk body would play as silence forever.
    public let maxBytesBeforeAudio = 1 << 20

    private let outputKind: OutputKind
    private let paced: Bool
    /// Fetches the previews; the catalog clients share it (`HTTPClient`).
    private let network: CurlNetwork
    /// The configured output, and beside PulseAudio a paced null output
    /// that `selectOutput(main: false)` switches to (the sound device is
    /// then released while the clock runs on).
    private var output: AudioOutput?
    private var nullOutput: NullOutput?
    private let useMainOutput = Atomic<Bool>(true)
    /// Every output, for calls that reach them all.
    private var outputs: [AudioOutput] { [output, nullOutput].compactMap { $0 } }
    private var events: (@Sendable (EngineEvent) -> Void)?
    private var decodeThread: pthread_t?

    // Shared state, guarded by `monitor`.
    private let monitor = Monitor()
    private struct Request {
        var id: StreamID
        var url: String
        var key: String?
        var start: Double
        var end: Double?
    }
    private var pending: Request?
    private var currentInput: StreamInput?
    /// Bodies kept in memory by key: prefetched ones and the one playing.
    private var downloads: [String: Download] = [:]
    private var playingDownload: Download?
    /// The last `prefetch` list.
    private var wanted: [MediaItem] = []
    /// The largest body downloaded whole: what a new prefetch is expected to take.
    private var expectedSize = 512 * 1024
    /// The stream the decode thread is on.
    private var currentStream: StreamID?
    /// `resume(stream:url:)` answers for a cut stream.
    private var resumeURL: (id: StreamID, url: String)?
    private let budget: MemoryBudget
    private var stopping = false
    private let softwareGain = Atomic<Int32>(65536)
    // Read lock-free by the output while it holds its own lock.
    private let pausedFlag = Atomic<Bool>(false)
    private let interruptFlag = Atomic<Bool>(false)
    private let positionState = Mutex<PlaybackPosition?>(nil)

    /// Seconds a stream may deliver nothing before it counts as failed.
    public let stallTimeout: Double

    /// - Parameters:
    ///   - network: the curl thread previews are fetched on (shut down with the engine).
    ///   - output: where PCM goes.
    ///   - paced: null/wav consume PCM at real-time speed (true) or as fast as decoding allows.
    ///   - ringCapacity: bytes buffered per stream (at least 32 KiB).
    ///   - stallTimeout: seconds without a byte before a stream fails.
    ///   - prefetchBudget: bytes all in-memory downloads may hold together
    ///     (the playing one may pass it; prefetches may not).
    public init(network: CurlNetwork, output: OutputKind, paced: Bool, ringCapacity: Int = 256 * 1024, stallTimeout: Double = 15,
                prefetchBudget: Int = 8 << 20) {
        self.network = network
        outputKind = output
        self.paced = paced
        self.ringCapacity = max(ringCapacity, 32 * 1024)
        self.stallTimeout = stallTimeout
        budget = MemoryBudget(limit: prefetchBudget)
    }

    /// Most times one stream is resumed after a cut before it fails.
    public let maxResumes = Download.maxResumes

    public func start(events: @escaping @Sendable (EngineEvent) -> Void) throws {
        self.events = events
        switch outputKind {
        case .null: output = NullOutput(paced: paced)
        case .wav(let path): output = WavOutput(path: path, paced: paced)
        case .pulse(let sink):
            let pulse: PulseOutput
            do { pulse = try PulseOutput(sink: sink) } catch { throw EngineError("\(error)") }
            output = pulse
            nullOutput = NullOutput(paced: true)
            // No server yet is no reason not to start: say why, and connect
            // when there is something to play.
            do { try pulse.connect() } catch { reportOutput(lost: error) }
        }
        network.start()
        decodeThread = startThread { [self] in decodeLoop() }
    }

    public func play(stream id: StreamID, url: String, key: String?, from start: Double, until end: Double?) {
        monitor.locked {
            pending = Request(id: id, url: url, key: key, start: max(0, start), end: end)
            currentInput?.cancel()
            interruptFlag.store(true, ordering: .releasing)
            monitor.broadcast()
        }
        wakeOutputs()
    }

    public func setPaused(_ paused: Bool) {
        pausedFlag.store(paused, ordering: .releasing)
        for o in outputs { o.setPaused(paused) }
        monitor.locked { monitor.broadcast() }
        wakeOutputs()
    }

    public func selectOutput(main: Bool) {
        useMainOutput.store(main, ordering: .releasing)
        // A write blocked on the old output sees the change in
        // `isInterrupted` and returns; the next one goes to the new output.
        wakeOutputs()
    }

    private func wakeOutputs() { for o in outputs { o.wake() } }

    public func prefetch(_ items: [MediaItem]) {
        var dropped: [Transfer] = []
        let started: Transfer? = monitor.locked {
            wanted = items
            var keep: [String: Download] = [:]
            // A failed prefetch stays (and is not retried) until it is played.
            for item in items { keep[item.key] = downloads[item.key] }
            if let p = playingDownload { keep[p.key] = p }
            if let key = pending?.key { keep[key] = downloads[key] }
            for (key, d) in downloads where keep[key] !== d {
                if let t = d.transfer { dropped.append(t) }
            }
            downloads = keep
            return nextPrefetchLocked()
        }
        for t in dropped { network.remove(t) }
        if let started { network.add(started) }
    }

    /// Starts the first wanted item not downloaded yet: one at a time (the
    /// next song first, and the playing one keeps its bandwidth), and only
    /// while a body of the largest size seen still fits the budget. Locked.
    private func nextPrefetchLocked() -> Transfer? {
        if downloads.values.contains(where: { $0 !== playingDownload && !$0.isFinished }) { return nil }
        guard let item = wanted.first(where: { downloads[$0.key] == nil }),
              budget.inUse + expectedSize <= budget.limit else { return nil }
        let download = Download(key: item.key, budget: budget)
        let t = Transfer(url: item.url, sink: .download(download))
        download.transfer = t
        download.setFinishHandler { [weak self, weak download] in
            guard let self, let download else { return }
            self.prefetchEnded(download)
        }
        downloads[item.key] = download
        return t
    }

    /// Network thread: a prefetch ended; learn its size and start the next.
    private func prefetchEnded(_ download: Download) {
        let next: Transfer? = monitor.locked {
            if download.isComplete { expectedSize = max(expectedSize, download.count) }
            return nextPrefetchLocked()
        }
        if let next { network.add(next) }
    }

    public func resume(stream id: StreamID, url: String) {
        let transfer: Transfer? = monitor.locked {
            guard currentStream == id else { return nil }
            guard let download = playingDownload else {
                // A ring stream: its decode thread waits for this.
                resumeURL = (id, url)
                monitor.broadcast()
                return nil
            }
            // A download is resumed at once, behind the decoder's back.
            let t = Transfer(url: url, sink: .download(download), rangeStart: download.count)
            download.transfer = t
            download.reopen()
            return t
        }
        if let transfer { network.add(transfer) }
    }

    public func stop() {
        monitor.locked {
            pending = nil
            currentInput?.cancel()
            interruptFlag.store(true, ordering: .releasing)
            monitor.broadcast()
        }
        output?.wake()
        positionState.withLock { $0 = nil }
    }

    public func setVolume(_ percent: Int) {
        softwareGain.store(SoftwareVolume.gain(percent: percent), ordering: .releasing)
        for o in outputs { o.setVolume(percent) }
    }

    public func position() -> PlaybackPosition? { positionState.withLock { $0 } }

    public func shutdown() {
        let wasRunning = monitor.locked { () -> Bool in
            defer { stopping = true }
            currentInput?.cancel()
            interruptFlag.store(true, ordering: .releasing)
            monitor.broadcast()
            return !stopping
        }
        guard wasRunning else { return }
        output?.wake()
        if let decodeThread { pthread_join(decodeThread, nil) }
        network.shutdown()
        for o in outputs { o.close() }
    }

    // MARK: decode thread

    /// Where a stream's bytes come from and the transfer fetching them.
    private struct Feed {
        var input: StreamInput
        /// The transfer this stream owns (ring streams); downloads own theirs.
        var transfer: Transfer?
        var download: Download?
        /// The body offset of the input's first byte (a Range fetch's start).
        var base = 0
    }

    /// Sets up the input for `request`: its kept download (started now if
    /// missing or failed), or a fresh ring and transfer. Call locked, in the
    /// same turn that takes `pending`, so a `play` cancels the right input.
    private func openFeed(_ request: Request) -> Feed {
        playingDownload?.setPlaying(false)
        playingDownload?.setCutHandler(nil)
        playingDownload = nil
        currentStream = request.id
        interruptFlag.store(false, ordering: .releasing)
        resumeURL = nil
        guard let key = request.key else {
            let ring = ByteRing(capacity: ringCapacity)
            currentInput = ring
            return Feed(input: ring, transfer: Transfer(url: request.url, sink: .ring(ring)), download: nil)
        }
        var fresh: Transfer?
        let download: Download
        if let d = downloads[key], !d.hasFailed {
            download = d
        } else {
            download = Download(key: key, budget: budget)
            let t = Transfer(url: request.url, sink: .download(download))
            download.transfer = t
            downloads[key] = download
            fresh = t
        }
        download.setPlaying(true)
        let id = request.id
        download.setCutHandler { [weak self] failure, bytes in self?.events?(.streamCut(id, failure, bytes: bytes)) }
        playingDownload = download
        let reader = DownloadReader(download)
        currentInput = reader
        if let fresh { network.add(fresh) }
        return Feed(input: reader, transfer: nil, download: download)
    }

    /// Fetches the rest of a cut ring stream's body from `url`, from the
    /// first byte not yet received.
    private func restart(_ feed: inout Feed, url: String) {
        let from = feed.base + feed.input.received
        if case .ring(let ring)? = feed.transfer?.sink {
            ring.reopen()
            if let old = feed.transfer { network.remove(old) }
            let t = Transfer(url: url, sink: .ring(ring), rangeStart: from)
            feed.transfer = t
            network.add(t)
        }
    }

    /// Blocks until `resume(stream: id, ...)` names a URL, or the stream is
    /// abandoned (nil).
    private func awaitResume(_ id: StreamID, input: StreamInput) -> String? {
        monitor.locked {
            while resumeURL?.id != id && !input.isCancelled && !stopping { monitor.wait(seconds: 1) }
            guard !input.isCancelled, !stopping, let url = resumeURL?.url else { return nil }
            resumeURL = nil
            return url
        }
    }

    private func decodeLoop() {
        while true {
            let next: (Request, Feed)? = monitor.locked {
                while pending == nil && !stopping { monitor.wait() }
                guard !stopping, let request = pending else { return nil }
                pending = nil
                return (request, openFeed(request))
            }
            guard let (request, opened) = next else { return }
            var feed = opened
            let id = request.id
            if let t = feed.transfer { network.add(t) }
            let outcome = decode(request, feed: &feed)
            if let t = feed.transfer { network.remove(t) }
            monitor.locked { if currentInput === feed.input { currentInput = nil } }
            switch outcome {
            case .finished(let frames):
                configuredOutput?.trackEnded()
                events?(.streamFinished(id, frames: frames))
            case .failed(let failure, let frames):
                configuredOutput?.trackEnded()
                events?(.streamFailed(id, failure, frames: frames))
            case .cancelled:
                configuredOutput?.discard()
            }
        }
    }

    private enum Outcome {
        case finished(Int)
        case failed(StreamFailure, Int)
        case cancelled
    }

    private func isInterrupted() -> Bool {
        interruptFlag.load(ordering: .acquiring) || pausedFlag.load(ordering: .acquiring)
            || (configuredOutput != nil && selectedOutput() !== configuredOutput)
    }

    // Decode thread only: the output last configured, and for which format.
    private var configuredOutput: AudioOutput?
    private var configuredFormat: AudioFormat?

    /// The output `selectOutput` asks for.
    private func selectedOutput() -> AudioOutput {
        if let nullOutput, !useMainOutput.load(ordering: .acquiring) { return nullOutput }
        return output!
    }

    private enum WriteOutcome {
        case wrote(Int)
        case failed(StreamFailure)
        case cancelled
    }

    /// Writes `chunk` to the selected output, opening it for `format` first
    /// when it is new or the format changed. A lost output that can come
    /// back (the sound server restarting) holds the stream's place, tries
    /// again with back-off, and the same samples go out once it is back.
    private func write(_ chunk: UnsafeRawBufferPointer, format: AudioFormat, source: StreamInput) -> WriteOutcome {
        while true {
            let out = selectedOutput()
            do {
                if out !== configuredOutput || format != configuredFormat {
                    if let old = configuredOutput, old !== out { old.release() }
                    configuredOutput = nil
                    try out.configure(format)
                    configuredOutput = out
                    configuredFormat = format
                }
                let n = try out.write(chunk, interrupted: isInterrupted)
                reportOutput(lost: nil)
                return .wrote(n)
            } catch {
                guard out.canReconnect else { return .failed(error) }
                reportOutput(lost: error)
                configuredOutput = nil
                if !backOff(source) { return .cancelled }
            }
        }
    }

    /// Decodes one stream from `ring` to the output until its end (or the
    /// request's end point), dropping the frames before its start point.
    private func decode(_ request: Request, feed: inout Feed) -> Outcome {
        var source = feed.input
        var resumes = 0
        let id = request.id
        guard output != nil else { return .failed(.output("no output"), 0) }
        var decoder: Mpg123Decoder
        do { decoder = try Mpg123Decoder() } catch { return .failed(error, 0) }
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
        // 1152 frames x 2 channels x 2 bytes x 4: several MPEG frames per write.
        let pcm = UnsafeMutableRawBufferPointer.allocate(byteCount: 1152 * 4 * 4, alignment: 16)
        defer {
            input.deallocate()
            pcm.deallocate()
        }
        var format: AudioFormat?
        // Position in frames from the song's start, including skipped ones.
        var frames = 0
        var skipUntil = 0
        var stopAt: Int?
        var fedBeforeAudio = 0
        // Bytes fed once the format was known, and the frames decoded (played
        // or skipped): the stream's mean rate, for telling a trickle.
        var fedAudio = 0
        var decodedFrames = 0
        // Seconds spent waiting for bytes since the first one, and when it came:
        // a trickle never stalls outright, so it is judged by the total.
        var starved = 0.0
        var firstByteAt: Double?
        var inputEnded = false
        var started = false
        positionState.withLock { $0 = PlaybackPosition(stream: id, frames: 0, format: nil, bitrate: 0) }
        switch seekByRange(request, feed: &feed, decoder: decoder) {
        case .notNeeded: break
        case .seeked(let f, let target):
            format = f
            frames = target
            skipUntil = target
            stopAt = request.end.map { Int(clamping: $0 * Double(f.sampleRate)) }
        case .fromStart:
            // The Range answer was of no use: decode the download from its
            // first byte (in memory), with a decoder that saw nothing yet.
            do { decoder = try Mpg123Decoder() } catch { return .failed(error, 0) }
        case .failed(let failure): return .failed(failure, 0)
        case .cancelled: return .cancelled
        }
        source = feed.input

        while true {
            let produced: Mpg123Decoder.Output
            do { produced = try decoder.decode(into: pcm) } catch {
                return .failed(error, frames)
            }
            switch produced {
            case .newFormat(let f):
                // The output opens for it with the first samples written.
                if format == nil {
                    skipUntil = Int(clamping: request.start * Double(f.sampleRate))
                    stopAt = request.end.map { Int(clamping: $0 * Double(f.sampleRate)) }
                }
                format = f
                let bitrate = decoder.bitrate
                positionState.withLock { $0 = PlaybackPosition(stream: id, frames: frames, format: f, bitrate: bitrate) }
            case .pcm(let decoded):
                guard decoded > 0, let f = format else { continue }
                decodedFrames += decoded / f.bytesPerFrame
                var offset = 0
                var bytes = decoded
                if frames < skipUntil {
                    let drop = min(skipUntil - frames, decoded / f.bytesPerFrame)
                    frames += drop
                    offset = drop * f.bytesPerFrame
                }
                if let stopAt {
                    bytes = min(bytes, offset + max(0, stopAt - frames) * f.bytesPerFrame)
                }
                if !selectedOutput().hasMixer, offset < bytes {
                    SoftwareVolume.apply(gain: softwareGain.load(ordering: .acquiring),
                                         to: UnsafeMutableRawBufferPointer(rebasing: pcm[offset..<bytes]))
                }
                while offset < bytes {
                    if !started && offset < bytes {
                        // Reported as the first samples are handed over (a paced
                        // output may hold this write as long as it plays), or are
                        // ready while paused.
                        started = true
                        events?(.streamStarted(id, f, bitrate: decoder.bitrate, totalFrames: decoder.lengthInFrames))
                    }
                    if waitWhilePaused(source) { return .cancelled }
                    let chunk = UnsafeRawBufferPointer(rebasing: pcm[offset..<bytes])
                    let n: Int
                    switch write(chunk, format: f, source: source) {
                    case .wrote(let count): n = count
                    case .failed(let failure): return .failed(failure, frames)
                    case .cancelled: return .cancelled
                    }
                    offset += n
                    frames += n / f.bytesPerFrame
                    if source.isCancelled { return .cancelled }
                }
                let bitrate = decoder.bitrate
                positionState.withLock { $0 = PlaybackPosition(stream: id, frames: frames, format: f, bitrate: bitrate) }
                if let stopAt, frames >= stopAt { return .finished(frames) }
            case .needMore:
                if inputEnded {
                    return format == nil
                        ? .failed(.notAudio("no MPEG audio frames found"), frames)
                        : .finished(frames)
                }
                let asked = monotonicSeconds()
                let read = source.read(into: input, stallTimeout: stallTimeout)
                if let since = firstByteAt {
                    starved += monotonicSeconds() - asked
                    if case .bytes = read, starved > stallTimeout {
                        // Long waits are fine while the bytes come at the
                        // rate playing needs (a seek waiting for its target
                        // on a modest link); a trickle below it is not.
                        let rate = Double(source.received) / max(monotonicSeconds() - since, 0.001)
                        let needed = StreamRate.bytesPerSecondNeeded(
                            fedBytes: fedAudio, decodedFrames: decodedFrames,
                            sampleRate: format?.sampleRate ?? 0, frameBitrate: decoder.bitrate)
                        if rate < 0.75 * needed { return .failed(.tooSlow(bytesPerSecond: Int(clamping: rate, rounding: .down)), frames) }
                    }
                } else if case .bytes = read {
                    firstByteAt = monotonicSeconds()
                }
                switch read {
                case .bytes(let n):
                    if format == nil {
                        fedBeforeAudio += n
                        if fedBeforeAudio > maxBytesBeforeAudio {
                            return .failed(.notAudio("no MPEG audio frames in the first \(maxBytesBeforeAudio) bytes"), frames)
                        }
                    } else {
                        fedAudio += n
                    }
                    do { try decoder.feed(UnsafeRawBufferPointer(rebasing: input[0..<n])) } catch { return .failed(error, frames) }
                case .end:
                    inputEnded = true
                case .failed(let failure):
                    // A body cut short after some bytes can go on where it
                    // stopped; the decoder keeps its state, so no sample is
                    // lost or repeated. A failure before any byte is the track's.
                    // (Downloads report their cuts from the network side.)
                    let received = source.received
                    guard feed.download == nil, received > 0, resumes < maxResumes, failure.isResumable else {
                        return .failed(failure, frames)
                    }
                    resumes += 1
                    events?(.streamCut(id, failure, bytes: received))
                    guard let url = awaitResume(id, input: source) else { return .cancelled }
                    restart(&feed, url: url)
                case .cancelled:
                    return .cancelled
                }
            }
        }
    }

    private enum RangeSeekOutcome {
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

    /// A start point far past what the playing download holds: rather than
    /// wait for every byte before it, fetch from a few frames before the
    /// target with an HTTP Range and let mpg123 seek there, knowing which
    /// frame the bytes start with; once that has worked, the download stops.
    /// Only for constant-bitrate streams (see `ConstantBitrateLayout`),
    /// where that is exact: the decode from there equals a decode from the
    /// start. Whatever goes wrong on the way leaves the download to it.
    private func seekByRange(_ request: Request, feed: inout Feed, decoder: Mpg123Decoder) -> RangeSeekOutcome {
        guard request.start > 0, let download = feed.download, !download.isComplete else { return .notNeeded }
        // The head says whether frames can be found by offset. Whatever is
        // read goes to the decoder, which then goes on as usual if not.
        var head: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { chunk.deallocate() }
        var headEnded = false
        while !headEnded, head.count < ConstantBitrateLayout.prefixLength(knowing: head) ?? 10 {
            switch feed.input.read(into: chunk, stallTimeout: stallTimeout) {
            case .bytes(let n): head += chunk[0..<n]
            case .end: headEnded = true
            case .failed(let failure): return .failed(failure)
            case .cancelled: return .cancelled
            }
        }
        func feedDecoder(_ bytes: ArraySlice<UInt8>) -> StreamFailure? {
            let fed = bytes.withUnsafeBytes { all in
                Result { () throws(StreamFailure) in try decoder.feed(all) }
            }
            if case .failure(let failure) = fed { return failure }
            return nil
        }
        let target: Int, rangeStart: Int
        let layout = ConstantBitrateLayout(prefix: head)
        if let layout {
            target = Int(clamping: request.start * Double(layout.header.sampleRate))
            // The encoder delay only moves the target's frame later, so this
            // many frames back leave room for the preroll and its alignment.
            let firstWanted = target / Layer3FrameHeader.samplesPerFrame - layout.prerollFrames - 5
            rangeStart = layout.approximateOffset(ofFrame: firstWanted) - 8
        } else {
            (target, rangeStart) = (0, 0)
        }
        // Within about a second of a 128 kbit/s preview: soon here anyway.
        guard let layout, rangeStart > layout.firstFrame, rangeStart > download.count + 16 * 1024 else {
            return feedDecoder(head[...]).map { .failed($0) } ?? .notNeeded
        }

        // mpg123 reads the Info/LAME frame (length, gapless trimming) and
        // announces the format from the head; the rest comes by Range.
        let headEnd = min(head.count, layout.firstFrame + 2 * layout.header.byteCount + 4)
        if let failure = feedDecoder(head[0..<headEnd]) { return .failed(failure) }
        let pcm = UnsafeMutableRawBufferPointer.allocate(byteCount: 1152 * 4 * 4, alignment: 16)
        defer { pcm.deallocate() }
        guard case .newFormat(let format)? = try? decoder.decode(into: pcm) else { return fromStart(feed) }

        let ring = ByteRing(capacity: ringCapacity)
        let transfer = Transfer(url: request.url, sink: .ring(ring), rangeStart: rangeStart, rangeRequired: true)
        // While the answer is probed the ring is the stream's input, so a
        // new `play` cancels it; the download keeps going until it is proven.
        let probing: Bool = monitor.locked {
            guard currentInput === feed.input else { return false }
            currentInput = ring
            return true
        }
        guard probing else { return .cancelled }
        network.add(transfer)

        // Bytes up to a run of three frames: the first of them is where
        // mpg123 goes on, and its number follows from its offset.
        var fetched: [UInt8] = []
        var found: (offset: Int, frame: Int)?
        probe: while fetched.count <= 64 * 1024 {
            switch ring.read(into: chunk, stallTimeout: stallTimeout) {
            case .bytes(let n): fetched += chunk[0..<n]
            case .end, .failed: break probe
            case .cancelled:
                network.remove(transfer)
                return .cancelled
            }
            if let at = layout.locateFrame(in: fetched, base: rangeStart) {
                found = at
                break
            }
        }
        guard let found, decoder.seek(to: target, resumingAt: found.offset, frame: found.frame,
                                      firstFrameOffset: layout.firstFrame, preroll: layout.prerollFrames) else {
            network.remove(transfer)
            let back: Bool = monitor.locked {
                guard currentInput === ring else { return false }
                currentInput = feed.input
                return true
            }
            return back ? fromStart(feed) : .cancelled
        }

        // The download stops: its bytes are not needed now, and its
        // bandwidth is. (Played again, the song is fetched again.)
        let (current, headTransfer) = monitor.locked { () -> (Bool, Transfer?) in
            guard currentInput === ring else { return (false, nil) }
            download.setCutHandler(nil)
            download.setPlaying(false)
            if downloads[download.key] === download { downloads[download.key] = nil }
            playingDownload = nil
            return (true, download.transfer)
        }
        guard current else {
            network.remove(transfer)
            return .cancelled
        }
        if let headTransfer { network.remove(headTransfer) }
        feed = Feed(input: ring, transfer: transfer, download: nil, base: rangeStart)
        if let failure = feedDecoder(fetched[(found.offset - rangeStart)...]) { return .failed(failure) }
        return .seeked(format, target: target)
    }

    /// Gives a seek back to the download: its reader starts over at byte 0.
    private func fromStart(_ feed: Feed) -> RangeSeekOutcome {
        guard let reader = feed.input as? DownloadReader else { return .cancelled }
        reader.rewind()
        return .fromStart
    }

    // Decode thread and start-up only.
    private var outputLost = false
    private var reconnectDelay = 0.0

    /// Reports the output lost (with why) or back (nil), once per change.
    private func reportOutput(lost failure: StreamFailure?) {
        if let failure {
            guard !outputLost else { return }
            outputLost = true
            reconnectDelay = 0
            let why: String
            if case .output(let text) = failure { why = text } else { why = "\(failure)" }
            events?(.outputChanged(lost: why))
        } else if outputLost {
            outputLost = false
            events?(.outputChanged(lost: nil))
        }
    }

    /// Waits before the next reconnection attempt: 0.1 s, doubling to at
    /// most 1 s so a restarted server is heard again within about a second.
    /// - Returns: false when the stream was dropped meanwhile.
    private func backOff(_ source: StreamInput) -> Bool {
        reconnectDelay = min(max(reconnectDelay * 2, 0.1), 1)
        let deadline = monotonicSeconds() + reconnectDelay
        return monitor.locked {
            while !source.isCancelled && !stopping {
                let left = deadline - monotonicSeconds()
                if left <= 0 { break }
                monitor.wait(seconds: left)
            }
            return !source.isCancelled && !stopping
        }
    }

    /// Blocks while paused. - Returns: true when the stream was cancelled meanwhile.
    private func waitWhilePaused(_ source: StreamInput) -> Bool {
        if source.isCancelled { return true }
        guard pausedFlag.load(ordering: .acquiring) else { return false }
        return monitor.locked {
            while pausedFlag.load(ordering: .acquiring) && currentInput === source && !stopping && !source.isCancelled {
                monitor.wait(seconds: 0.5)
            }
            return source.isCancelled || stopping
        }
    }
}
