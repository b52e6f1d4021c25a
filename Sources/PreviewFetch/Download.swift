import PreviewCore
import Synchronization
import PreviewPlatform

/// What the decode thread reads one stream's compressed bytes from: a
/// `ByteRing` (streamed, bounded) or a `DownloadReader` (a body kept whole
/// in memory). Both block until bytes, the end, a failure or a cancel.
package protocol StreamInput: AnyObject, Sendable {
    /// Copies up to `buffer.count` bytes; fails after `stallTimeout` seconds
    /// without one.
    func read(into buffer: UnsafeMutableRawBufferPointer, stallTimeout: Double) -> ByteRing.ReadResult
    /// Ends the stream now; a blocked `read` returns `.cancelled`.
    func cancel()
    /// Whether `cancel()` was called.
    var isCancelled: Bool { get }
    /// Bytes of the body received so far: where a Range request resumes.
    var received: Int { get }
    /// The whole body arrived and is in memory: no read waits on the network.
    var hasWholeBody: Bool { get }
}

/// One media body collected whole in memory as it arrives (a prefetched
/// or playing preview), so it can be played, restarted and seeked in
/// before and after the download ends. The network thread appends; any
/// number of readers follow behind at their own cursor.
package final class Download: @unchecked Sendable {
    /// The media's name across URL refreshes (the song's URI).
    package let key: String
    /// Largest body accepted, in bytes: previews are about 0.5 MB.
    package static let sizeLimit = 8 << 20

    private let budget: MemoryBudget
    private let monitor = Monitor()
    private var bytes: [UInt8] = []
    private var finished = false
    private var failure: StreamFailure?
    private var playing = false
    private var resumes = 0
    /// Most times a cut body is resumed before its failure is final.
    package static let maxResumes = 3
    private var onCut: (@Sendable (StreamFailure, Int) -> Void)?
    private var onFinish: (@Sendable () -> Void)?
    /// The transfer filling it now (network-side bookkeeping for `Engine`).
    /// Weak: the transfer holds the download as its sink, and the network
    /// holds the transfer while it runs; a strong link back would keep a
    /// dropped download (and its share of the memory budget) alive forever.
    package weak var transfer: Transfer?

    /// - Parameters: key, as the property; budget, shared with the other downloads.
    package init(key: String, budget: MemoryBudget) {
        self.key = key
        self.budget = budget
    }

    deinit { budget.give(bytes.count) }

    /// Marks the download as the one playing: it may then pass the budget
    /// (a prefetch may not, or it would starve the song being heard).
    package func setPlaying(_ on: Bool) { monitor.locked { playing = on } }

    /// Network thread: appends a chunk.
    /// - Returns: false when the body passes the size limit or, for a
    ///   download not playing, the budget; the download has then failed.
    package func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        monitor.locked {
            guard bytes.count + chunk.count <= Download.sizeLimit else {
                failure = failure ?? .tooLarge(bytes: Download.sizeLimit)
                finished = true
                monitor.broadcast()
                return false
            }
            guard budget.take(chunk.count, mayExceed: playing) else {
                // Not playing, so no reader needs the bytes: free them now.
                failure = failure ?? .transport("over the prefetch memory budget")
                finished = true
                budget.give(bytes.count)
                bytes = []
                monitor.broadcast()
                return false
            }
            bytes.append(contentsOf: chunk)
            monitor.broadcast()
            return true
        }
    }

    /// Network thread: no more bytes come; `failure` says why when abnormal.
    /// A body cut short after some bytes is reported to `onCut` at once, so
    /// its rest can be fetched while the decoder still has bytes to play.
    package func finish(failure: StreamFailure?) {
        let (cut, done) = monitor.locked { () -> ((@Sendable (StreamFailure, Int) -> Void)?, (@Sendable () -> Void)?) in
            finished = true
            if self.failure == nil { self.failure = failure }
            monitor.broadcast()
            return (isResumableLocked ? onCut : nil, onFinish)
        }
        if let cut, let failure { cut(failure, count) }
        done?()
    }

    /// Sets what runs (on the network thread) each time a transfer into
    /// this download ends, well or not.
    package func setFinishHandler(_ handler: (@Sendable () -> Void)?) {
        monitor.locked { onFinish = handler }
    }

    /// Whether no transfer is filling it now.
    package var isFinished: Bool { monitor.locked { finished } }

    /// Sets (or clears) what is told of a cut: the playing stream's handler.
    package func setCutHandler(_ handler: (@Sendable (StreamFailure, Int) -> Void)?) {
        monitor.locked { onCut = handler }
    }

    /// Whether a failure may still be cured by fetching the rest. Locked.
    private var isResumableLocked: Bool {
        guard let failure else { return false }
        return failure.isResumable && !bytes.isEmpty && resumes < Download.maxResumes
    }

    /// A resumed transfer appends the rest.
    package func reopen() {
        monitor.locked {
            resumes += 1
            finished = false
            failure = nil
            monitor.broadcast()
        }
    }

    /// Bytes received so far.
    package var count: Int { monitor.locked { bytes.count } }

    /// Whether the download ended in a failure (and so is not worth reusing).
    package var hasFailed: Bool { monitor.locked { failure != nil } }

    /// Whether the whole body is here.
    package var isComplete: Bool { monitor.locked { finished && failure == nil } }

    /// Copies bytes from `offset` on; blocks as `StreamInput.read` does,
    /// also returning when `cancelled()` turns true (checked on each wake).
    fileprivate func read(
        at offset: Int, into buffer: UnsafeMutableRawBufferPointer, stallTimeout: Double,
        cancelled: () -> Bool
    ) -> ByteRing.ReadResult {
        monitor.locked {
            let deadline = SystemClock.monotonicSeconds() + stallTimeout
            // A cut the playing stream may still resume is waited out like a slow network.
            while !cancelled() && bytes.count <= offset && (!finished || (playing && onCut != nil && isResumableLocked)) {
                let left = deadline - SystemClock.monotonicSeconds()
                if left <= 0 { return .failed(.stalled(seconds: Int(clamping: stallTimeout, rounding: .down))) }
                monitor.wait(seconds: min(left, 3600))
            }
            if cancelled() { return .cancelled }
            if bytes.count <= offset {
                if let failure { return .failed(failure) }
                return .end
            }
            let n = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { all in
                buffer.baseAddress!.copyMemory(from: all.baseAddress! + offset, byteCount: n)
            }
            return .bytes(n)
        }
    }

    /// Wakes blocked readers so they re-check their cancel flag.
    fileprivate func wakeReaders() { monitor.locked { monitor.broadcast() } }
}

/// One stream's cursor over a `Download`.
package final class DownloadReader: StreamInput, @unchecked Sendable {
    package let download: Download
    private let cancelled = Atomic<Bool>(false)
    private var offset = 0  // decode thread only

    /// A reader from the first byte.
    package init(_ download: Download) { self.download = download }

    package func read(into buffer: UnsafeMutableRawBufferPointer, stallTimeout: Double) -> ByteRing.ReadResult {
        let r = download.read(at: offset, into: buffer, stallTimeout: stallTimeout) {
            cancelled.load(ordering: .acquiring)
        }
        if case .bytes(let n) = r { offset += n }
        return r
    }

    package func cancel() {
        cancelled.store(true, ordering: .releasing)
        download.wakeReaders()
    }

    /// Reads from the first byte again (decode thread only).
    package func rewind() { offset = 0 }

    package var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    package var received: Int { download.count }

    package var hasWholeBody: Bool { download.isComplete }
}
