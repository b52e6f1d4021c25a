import Glibc
import PreviewCore
import PreviewFetch
import PreviewHTTP
import Synchronization
import PreviewPlatform

/// The real `AudioEngine`: a network thread (curl multi) filling in-memory
/// downloads (previews, prefetched ahead of play) or a bounded ring (other
/// streams), and a decode/output thread feeding libmpg123 and writing PCM
/// to the output. All methods return at once; outcomes are events.
///
/// Three kinds of thread meet here: callers of the public methods, the
/// network thread and the decode thread. What they share is declared in
/// one block ("shared state"), each field with what guards it; the decode
/// thread's work is in the Engine+ files: its loop (DecodeThread), its
/// input (Feed), the decode pass (Decode), the ranged seek (RangeSeek)
/// and the output (Output).
public final class Engine: AudioEngine, @unchecked Sendable {
    /// Bytes buffered between network and decoder, per stream.
    public let ringCapacity: Int
    /// Most input fed to mpg123 before it must have found an MPEG frame:
    /// mpg123 silently swallows non-audio, so without a cap an HTML page or
    /// an endless junk body would play as silence forever.
    public let maxBytesBeforeAudio = 1 << 20

    private let outputKinds: [OutputKind]
    let paced: Bool
    /// Fetches the previews; the catalog clients share it (`HTTPClient`).
    private let network: CurlNetwork
    /// The configured outputs, in their order (`setOutputs` names them by
    /// it), and the clock that sets the pace while no device is enabled (a
    /// null output, paced as a device would be). Set in `start`, before the
    /// threads run; read-only afterwards.
    var slots: [OutputSlot] = []
    var clock: NullOutput?
    /// Every output, for calls that reach them all.
    var outputs: [AudioOutput] { slots.map(\.output) + (clock.map { [$0] } ?? []) }
    /// Where a line for the log goes (an HTTP stream's address, a listener
    /// dropped), from any thread; nil: nowhere.
    let log: (@Sendable (String) -> Void)?
    /// Listeners each HTTP stream output serves at once (`--stream-listeners`).
    let streamListeners: Int
    /// The password an HTTP stream output asks for (`--stream-password-file`); nil: none.
    let streamCredentials: HTTPCredentials?
    /// Where outcomes go, from any of the engine's threads. Set in `start`,
    /// before the threads run; read-only afterwards.
    var events: (@Sendable (EngineEvent) -> Void)?
    /// Set in `start`; `shutdown` joins it.
    private var decodeThread: pthread_t?

    // MARK: shared state
    //
    // Everything the public methods (any thread), the network thread (the
    // downloads' finish and cut handlers) and the decode thread share, in
    // one place, each field with what guards it. Fields marked "guarded by
    // `monitor`" are read and written only inside `monitor.locked`; the
    // atomics and `positionState` are for readers that must not take
    // `monitor` (an output's write holds its own lock while it asks
    // `isInterrupted`, and `position()` is polled).

    /// Guards the fields so marked; its condition wakes the decode thread
    /// for a new request, a resume URL, the end of a pause or the shutdown.
    let monitor = Monitor()
    /// One `play`: the stream, where its body is, and its start and end
    /// points in seconds from the song's start (`end` nil: to the end).
    struct Request {
        var id: StreamID
        var url: String
        /// The in-memory download to play from; nil: a ring stream.
        var key: String?
        var start: Double
        var end: Double?
        /// Handed to the output as the stream begins (`AudioOutput.nowPlaying`).
        var info: StreamInfo
    }
    /// The request the decode thread has not taken yet. Guarded by
    /// `monitor`; set by `play`, cleared by `stop` and by the decode thread
    /// as it takes it.
    var pending: Request?
    /// The playing stream's input, so that `play`, `stop` and `shutdown`
    /// can cancel it. Guarded by `monitor`; set by the decode thread (a
    /// ranged seek swaps it for the Range answer's ring).
    var currentInput: StreamInput?
    /// Bodies kept in memory by key: prefetched ones and the one playing.
    /// Guarded by `monitor`; `prefetch` prunes it, the decode thread adds
    /// the playing one and drops it after a ranged seek.
    var downloads: [String: Download] = [:]
    /// The download the decode thread plays from (nil: a ring stream, or
    /// none). Guarded by `monitor`; set by the decode thread, read by
    /// `prefetch` (it is kept) and `resume` (it is resumed).
    var playingDownload: Download?
    /// The last `prefetch` list. Guarded by `monitor`.
    private var wanted: [MediaItem] = []
    /// The largest body downloaded whole: what a new prefetch is expected
    /// to take, in bytes. Guarded by `monitor`; grown on the network thread.
    private var expectedSize = 512 * 1024
    /// The stream the decode thread is on, for `resume` to check. Guarded
    /// by `monitor`; set by the decode thread.
    var currentStream: StreamID?
    /// `resume(stream:url:)` answers for a cut ring stream. Guarded by
    /// `monitor`; set by `resume`, taken by the decode thread.
    var resumeURL: (id: StreamID, url: String)?
    /// Set once by `shutdown`. Guarded by `monitor`.
    var stopping = false
    /// `dropBuffered` asked for the output's audio to be dropped while the
    /// decode thread is idle. Guarded by `monitor`; set by `dropBuffered`,
    /// cleared by the decode thread.
    var dropPending = false
    /// `stop` asked for the output to be let go (played out, then closed)
    /// once the decode thread is idle; a `play` before then keeps it open,
    /// so a stop that only precedes the next song costs no reopen.
    /// Guarded by `monitor`; set by `stop`, cleared by `play` and the decode thread.
    var outputToStop = false
    /// The stream to crossfade into and the overlap in seconds
    /// (`queueNext`). Guarded by `monitor`; cleared by `play`, `stop` and
    /// the decode thread as the fade begins (`commitFade`).
    var queuedNext: NextStream?
    var crossfadeSeconds = 0.0
    /// Keys whose loudness is wanted once their body is whole. Guarded by
    /// `monitor`; `measureLoudness` adds, the end of a download takes.
    private var loudnessWanted: Set<String> = []
    /// The key of the song metered as it plays (`LiveMeter`): asking to
    /// measure it meanwhile is answered by that meter. Guarded by `monitor`.
    var meteringKey: String?
    /// Measures whole bodies on its own thread (thread-safe itself).
    private(set) lazy var analyzer = LoudnessAnalyzer { [weak self] key, loudness in
        self?.events?(.loudnessMeasured(key: key, loudness))
    }
    /// The bytes all downloads hold; thread-safe itself (its own atomic).
    let budget: MemoryBudget

    /// The software volume as a Q16 gain (65536: unchanged), for outputs
    /// without a mixer. Atomic; written by `setVolume`, read by the decode thread.
    let softwareGain = Atomic<Int32>(65536)
    /// The player is paused: no sample goes out, a write gives up its wait.
    /// Atomic; written by `setPaused`, read by the decode thread and, in
    /// `isInterrupted`, by an output's write while it holds its own lock.
    let pausedFlag = Atomic<Bool>(false)
    /// The current write is to give up: a new stream, a stop or the
    /// shutdown. Atomic; set by `play`, `stop` and `shutdown`, cleared by
    /// the decode thread as it opens the next stream; read like `pausedFlag`.
    let interruptFlag = Atomic<Bool>(false)
    /// What `position()` answers from: the frames handed over, and the
    /// chunk being handed over now (`pending` frames since `since`,
    /// monotonic seconds), so `elapsed` moves with the output's clock
    /// during a write that blocks, not in steps of a chunk. An output that
    /// buffers ahead of the listener (`AudioOutput.clock`) is asked instead,
    /// against its reading as the chunk began (`clockAtStart`). Its own
    /// mutex; written by the decode thread, cleared by `stop`.
    struct PositionState {
        var position: PlaybackPosition
        var pending = 0
        var since = 0.0
        var output: AudioOutput?
        var clockAtStart: OutputClock?
    }
    let positionState = Mutex<PositionState?>(nil)

    /// The output last configured, and for which format: a change of
    /// either opens the output again. Decode thread only (`isInterrupted`
    /// runs there too, inside the output's write).
    var configuredOutput: AudioOutput?
    var configuredFormat: AudioFormat?
    /// The output was reported lost and not back yet, and the delay before
    /// the next reconnection attempt in seconds. Decode thread only (and
    /// `start`, before that thread runs).
    var outputLost = false
    var reconnectDelay = 0.0

    /// Seconds a stream may deliver nothing before it counts as failed.
    public let stallTimeout: Double
    /// Most bytes of PCM a song is held for before it is measured, and
    /// most seconds its first sample waits: `Engine.measureHoldLimit`
    /// (lowered by tests only) and `measureWait` from `init`. Set before
    /// `start`.
    var holdLimit = Engine.measureHoldLimit
    var holdWait: Double

    /// - Parameters:
    ///   - network: the curl thread previews are fetched on (shut down with the engine).
    ///   - outputs: where PCM goes, each on until `setOutputs` says otherwise.
    ///   - streamListeners: listeners an HTTP stream output serves at once.
    ///   - streamCredentials: what an HTTP stream output asks for (needed beyond loopback).
    ///   - log: where the outputs' lines for the log go.
    ///   - paced: null/wav consume PCM at real-time speed (true) or as fast as decoding allows.
    ///   - ringCapacity: bytes buffered per stream (at least 32 KiB).
    ///   - stallTimeout: seconds without a byte before a stream fails.
    ///   - prefetchBudget: bytes all in-memory downloads may hold together
    ///     (the playing one may pass it; prefetches may not).
    ///   - measureWait: most seconds a song not measured yet holds its first
    ///     sample for its measurement (`--replay-gain-wait`).
    public init(
        network: CurlNetwork, outputs: [OutputKind], paced: Bool, ringCapacity: Int = 256 * 1024, stallTimeout: Double = 15,
        prefetchBudget: Int = 8 << 20, measureWait: Double = GainPlan.defaultWait, streamListeners: Int = 16,
        streamCredentials: HTTPCredentials? = nil, log: (@Sendable (String) -> Void)? = nil
    ) {
        holdWait = measureWait
        self.log = log
        self.streamListeners = streamListeners
        self.streamCredentials = streamCredentials
        self.network = network
        outputKinds = outputs
        self.paced = paced
        self.ringCapacity = max(ringCapacity, 32 * 1024)
        self.stallTimeout = stallTimeout
        budget = MemoryBudget(limit: prefetchBudget)
    }

    /// Most times one stream is resumed after a cut before it fails.
    public let maxResumes = Download.maxResumes

    public func start(events: @escaping @Sendable (EngineEvent) -> Void) throws {
        self.events = events
        try makeOutputs(outputKinds)
        network.start()
        analyzer.start()
        decodeThread = startThread { [self] in decodeLoop() }
    }

    public func play(stream id: StreamID, url: String, key: String?, from start: Double, until end: Double?, info: StreamInfo) {
        monitor.locked {
            pending = Request(id: id, url: url, key: key, start: max(0, start), end: end, info: info)
            outputToStop = false
            queuedNext = nil
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

    public func setOutputs(enabled: [Bool]) {
        for (slot, on) in zip(slots, enabled) { slot.enabled.store(on, ordering: .releasing) }
        // A write blocked on the old output sees the change in
        // `isInterrupted` and returns; the next one goes to the new leader.
        wakeOutputs()
        monitor.locked { monitor.broadcast() }
    }

    func wakeOutputs() { for o in outputs { o.wake() } }

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
            // A wanted measurement of a body no longer kept cannot come.
            loudnessWanted = loudnessWanted.filter { keep[$0] != nil }
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
            budget.inUse + expectedSize <= budget.limit
        else { return nil }
        let download = Download(key: item.key, budget: budget)
        let t = Transfer(url: item.url, sink: .download(download))
        download.transfer = t
        watchEnd(of: download)
        downloads[item.key] = download
        return t
    }

    /// Has `downloadEnded` called when `download` ends.
    func watchEnd(of download: Download) {
        download.setFinishHandler { [weak self, weak download] in
            guard let self, let download else { return }
            self.downloadEnded(download)
        }
    }

    /// Network thread: a download ended; learn its size, measure it if
    /// asked to, and start the next prefetch.
    private func downloadEnded(_ download: Download) {
        let next: Transfer? = monitor.locked {
            if download.isComplete {
                expectedSize = max(expectedSize, download.count)
                if loudnessWanted.remove(download.key) != nil { analyzer.measure(download) }
            }
            return nextPrefetchLocked()
        }
        if let next { network.add(next) }
    }

    public func measureLoudness(_ key: String) {
        monitor.locked {
            if key == meteringKey { return }
            if let d = downloads[key], d.isComplete {
                analyzer.measure(d)
            } else {
                loudnessWanted.insert(key)
            }
        }
    }

    public func queueNext(_ next: NextStream?, crossfade seconds: Double) {
        monitor.locked {
            queuedNext = seconds > 0 ? next : nil
            crossfadeSeconds = max(0, seconds)
        }
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
            outputToStop = true
            queuedNext = nil
            currentInput?.cancel()
            interruptFlag.store(true, ordering: .releasing)
            monitor.broadcast()
        }
        wakeOutputs()
        positionState.withLock { $0 = nil }
    }

    public func dropBuffered() {
        monitor.locked {
            dropPending = true
            monitor.broadcast()
        }
    }

    public func setVolume(_ percent: Int) {
        softwareGain.store(SoftwareVolume.gain(percent: percent), ordering: .releasing)
        for o in outputs { o.setVolume(percent) }
    }

    public func position() -> PlaybackPosition? {
        guard let state = positionState.withLock({ $0 }) else { return nil }
        var p = state.position
        if let clock = state.output?.clock() {
            // What the output took of the chunk, less what it has not played
            // (of this song or, at its start, of the one before).
            let base = state.clockAtStart.flatMap { $0.stream == clock.stream ? $0.accepted : nil } ?? 0
            let written = min(max(0, clock.accepted - base), state.pending)
            let heard = p.frames + written - clock.unplayed
            p.frames = max(0, heard)
            p.framesBeforeStart = max(0, -heard)
        } else if state.pending > 0, let rate = p.format?.sampleRate, rate > 0, !pausedFlag.load(ordering: .acquiring) {
            // Within the chunk being written, as far as real time has gone (none while paused).
            let moved = Int((SystemClock.monotonicSeconds() - state.since) * Double(rate))
            p.frames += min(max(0, moved), state.pending)
        }
        return p
    }

    public func shutdown() {
        let wasRunning = monitor.locked { () -> Bool in
            defer { stopping = true }
            currentInput?.cancel()
            interruptFlag.store(true, ordering: .releasing)
            monitor.broadcast()
            return !stopping
        }
        guard wasRunning else { return }
        wakeOutputs()
        if let decodeThread { pthread_join(decodeThread, nil) }
        analyzer.shutdown()
        network.shutdown()
        for slot in slots { slot.branch.close() }
        for o in outputs { o.close() }
    }

    // `network` stays private to this file; the decode thread's code in
    // the other Engine+ files adds and removes its transfers through these.

    /// Hands `transfer` to the network thread (`CurlNetwork.add`).
    func startTransfer(_ transfer: Transfer) { network.add(transfer) }

    /// Takes `transfer` back from the network thread (`CurlNetwork.remove`).
    func stopTransfer(_ transfer: Transfer) { network.remove(transfer) }
}
