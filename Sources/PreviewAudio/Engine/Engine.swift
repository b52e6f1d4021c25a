import Glibc
import PreviewCore
import Synchronization

/// Which output the engine plays to.
public enum OutputKind: Equatable, Sendable {
    /// PulseAudio through the asynchronous API.
    case pulse
    /// Discard the PCM.
    case null
    /// Write the PCM to WAV files starting at this path.
    case wav(String)
}

/// The real `AudioEngine`: a network thread (curl multi) streaming into a
/// bounded ring, and a decode/output thread feeding libmpg123 and writing
/// PCM to the output. All methods return at once; outcomes are events.
public final class Engine: AudioEngine, @unchecked Sendable {
    /// Bytes buffered between network and decoder, per stream.
    public let ringCapacity: Int
    /// Most input fed to mpg123 before it must have found an MPEG frame:
    /// mpg123 silently swallows non-audio, so without a cap an HTML page or
    /// an endless junk body would play as silence forever.
    public let maxBytesBeforeAudio = 1 << 20

    private let outputKind: OutputKind
    private let paced: Bool
    private let network = CurlNetwork()
    private var output: AudioOutput?
    private var events: (@Sendable (EngineEvent) -> Void)?
    private var decodeThread: pthread_t?

    // Shared state, guarded by `monitor`.
    private let monitor = Monitor()
    private struct Request {
        var id: StreamID
        var url: String
        var start: Double
        var end: Double?
    }
    private var pending: Request?
    private var currentRing: ByteRing?
    private var stopping = false
    private let softwareGain = Atomic<Int32>(65536)
    // Read lock-free by the output while it holds its own lock.
    private let pausedFlag = Atomic<Bool>(false)
    private let interruptFlag = Atomic<Bool>(false)
    private let positionState = Mutex<PlaybackPosition?>(nil)

    /// Seconds a stream may deliver nothing before it counts as failed.
    public let stallTimeout: Double

    /// - Parameters:
    ///   - output: where PCM goes.
    ///   - paced: null/wav consume PCM at real-time speed (true) or as fast as decoding allows.
    ///   - ringCapacity: bytes buffered per stream (at least 32 KiB).
    ///   - stallTimeout: seconds without a byte before a stream fails.
    public init(output: OutputKind, paced: Bool, ringCapacity: Int = 256 * 1024, stallTimeout: Double = 15) {
        outputKind = output
        self.paced = paced
        self.ringCapacity = max(ringCapacity, 32 * 1024)
        self.stallTimeout = stallTimeout
    }

    public func start(events: @escaping @Sendable (EngineEvent) -> Void) throws {
        self.events = events
        switch outputKind {
        case .null: output = NullOutput(paced: paced)
        case .wav(let path): output = WavOutput(path: path, paced: paced)
        case .pulse:
            do { output = try PulseOutput() } catch { throw EngineError("\(error)") }
        }
        network.start()
        decodeThread = startThread { [self] in decodeLoop() }
    }

    public func play(stream id: StreamID, url: String, from start: Double, until end: Double?) {
        monitor.locked {
            pending = Request(id: id, url: url, start: max(0, start), end: end)
            currentRing?.cancel()
            interruptFlag.store(true, ordering: .releasing)
            monitor.broadcast()
        }
        output?.wake()
    }

    public func setPaused(_ paused: Bool) {
        pausedFlag.store(paused, ordering: .releasing)
        output?.setPaused(paused)
        monitor.locked { monitor.broadcast() }
        output?.wake()
    }

    public func stop() {
        monitor.locked {
            pending = nil
            currentRing?.cancel()
            interruptFlag.store(true, ordering: .releasing)
            monitor.broadcast()
        }
        output?.wake()
        positionState.withLock { $0 = nil }
    }

    public func setVolume(_ percent: Int) {
        softwareGain.store(SoftwareVolume.gain(percent: percent), ordering: .releasing)
        output?.setVolume(percent)
    }

    public func httpGet(request id: RequestID, url: String) {
        let sink = events
        network.add(Transfer(url: url, sink: .memory(limit: CurlNetwork.defaultMemoryLimit) { result in
            sink?(.httpResult(id, result))
        }))
    }

    public func position() -> PlaybackPosition? { positionState.withLock { $0 } }

    public func shutdown() {
        let wasRunning = monitor.locked { () -> Bool in
            defer { stopping = true }
            currentRing?.cancel()
            interruptFlag.store(true, ordering: .releasing)
            monitor.broadcast()
            return !stopping
        }
        guard wasRunning else { return }
        output?.wake()
        if let decodeThread { pthread_join(decodeThread, nil) }
        network.shutdown()
        output?.close()
    }

    // MARK: decode thread

    private func decodeLoop() {
        while true {
            let next: (Request, ByteRing)? = monitor.locked {
                while pending == nil && !stopping { monitor.wait() }
                guard !stopping, let request = pending else { return nil }
                pending = nil
                let ring = ByteRing(capacity: ringCapacity)
                currentRing = ring
                interruptFlag.store(false, ordering: .releasing)
                return (request, ring)
            }
            guard let (request, ring) = next else { return }
            let id = request.id
            let transfer = Transfer(url: request.url, sink: .ring(ring))
            network.add(transfer)
            let outcome = decode(request, ring: ring)
            network.remove(transfer)
            monitor.locked { if currentRing === ring { currentRing = nil } }
            switch outcome {
            case .finished(let frames):
                output?.trackEnded()
                events?(.streamFinished(id, frames: frames))
            case .failed(let failure, let frames):
                output?.trackEnded()
                events?(.streamFailed(id, failure, frames: frames))
            case .cancelled:
                output?.discard()
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
    }

    /// Decodes one stream from `ring` to the output until its end (or the
    /// request's end point), dropping the frames before its start point.
    private func decode(_ request: Request, ring: ByteRing) -> Outcome {
        let id = request.id
        guard let output else { return .failed(.output("no output"), 0) }
        let decoder: Mpg123Decoder
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
        var inputEnded = false
        var started = false
        positionState.withLock { $0 = PlaybackPosition(stream: id, frames: 0, format: nil, bitrate: 0) }

        while true {
            let produced: Mpg123Decoder.Output
            do { produced = try decoder.decode(into: pcm) } catch {
                return .failed(error, frames)
            }
            switch produced {
            case .newFormat(let f):
                do { try output.configure(f) } catch { return .failed(error, frames) }
                if format == nil {
                    skipUntil = Int((request.start * Double(f.sampleRate)).rounded())
                    stopAt = request.end.map { Int(($0 * Double(f.sampleRate)).rounded()) }
                }
                format = f
                let bitrate = decoder.bitrate
                positionState.withLock { $0 = PlaybackPosition(stream: id, frames: frames, format: f, bitrate: bitrate) }
            case .pcm(let decoded):
                guard decoded > 0, let f = format else { continue }
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
                if !output.hasMixer, offset < bytes {
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
                    if waitWhilePaused(ring) { return .cancelled }
                    let chunk = UnsafeRawBufferPointer(rebasing: pcm[offset..<bytes])
                    let n: Int
                    do { n = try output.write(chunk, interrupted: isInterrupted) } catch { return .failed(error, frames) }
                    offset += n
                    frames += n / f.bytesPerFrame
                    if ring.isCancelled { return .cancelled }
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
                switch ring.read(into: input, stallTimeout: stallTimeout) {
                case .bytes(let n):
                    if format == nil {
                        fedBeforeAudio += n
                        if fedBeforeAudio > maxBytesBeforeAudio {
                            return .failed(.notAudio("no MPEG audio frames in the first \(maxBytesBeforeAudio) bytes"), frames)
                        }
                    }
                    do { try decoder.feed(UnsafeRawBufferPointer(rebasing: input[0..<n])) } catch { return .failed(error, frames) }
                case .end:
                    inputEnded = true
                case .failed(let failure):
                    // Play what decoded before a mid-stream failure only if nothing
                    // came at all is it the track's failure; otherwise report it too.
                    return .failed(failure, frames)
                case .cancelled:
                    return .cancelled
                }
            }
        }
    }

    /// Blocks while paused. - Returns: true when the stream was cancelled meanwhile.
    private func waitWhilePaused(_ ring: ByteRing) -> Bool {
        if ring.isCancelled { return true }
        guard pausedFlag.load(ordering: .acquiring) else { return false }
        return monitor.locked {
            while pausedFlag.load(ordering: .acquiring) && currentRing === ring && !stopping && !ring.isCancelled {
                monitor.wait(seconds: 0.5)
            }
            return ring.isCancelled || stopping
        }
    }
}
