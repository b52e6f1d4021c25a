import Glibc
import PreviewCore
import PreviewPlatform

/// Feeds one output that does not set the pace (a follower: a pipe, a
/// stream, a second device) on a thread of its own, from a bounded queue
/// the decode thread fills without ever waiting: what does not fit is
/// dropped for this output alone, so a stalled pipe or listener, or a full
/// disk, delays no other output and never the engine (MPD's output threads
/// and their pipe, in small).
///
/// The decode thread calls `push`, `mark`, `discard` and `suspend`; the
/// branch's thread makes every call into the output while it follows, the
/// decode thread every call while it leads, never both at once.
final class OutputBranch: @unchecked Sendable {
    /// What the branch's thread does next, in the order the decode thread gave it.
    enum Item {
        /// PCM in this format (whole s16 frames).
        case pcm(AudioFormat, [UInt8])
        /// A song begins (`AudioOutput.nowPlaying`).
        case songStarts(StreamInfo)
        /// A song ended cleanly (`AudioOutput.trackEnded`).
        case trackEnded
        /// Playback stopped (`AudioOutput.stopped`).
        case stopped
    }

    let output: AudioOutput
    /// Bytes of PCM the queue holds at most: a few seconds of CD audio.
    let capacity: Int
    /// Told once per failure spell, from the branch's thread.
    private let failed: @Sendable (StreamFailure?) -> Void
    private let monitor = Monitor()
    // Guarded by `monitor`.
    private var queue: [Item] = []
    private var queuedBytes = 0
    private var active = false
    private var writing = false
    private var closing = false
    private var discardPending = false
    private var releasePending = false
    /// Bytes dropped since the last report (full queue or failed output).
    private(set) var droppedBytes = 0
    // The branch's thread only.
    private var configured: AudioFormat?
    private var failing = false
    private var thread: pthread_t?

    /// - Parameters:
    ///   - capacity: bytes of PCM queued at most (default 4 s of 44.1 kHz stereo).
    ///   - failed: the output failed (with why) or works again (nil).
    init(_ output: AudioOutput, capacity: Int = 4 * 44100 * 4, failed: @escaping @Sendable (StreamFailure?) -> Void) {
        self.output = output
        self.capacity = capacity
        self.failed = failed
        thread = startThread { [self] in run() }
    }

    /// Whether the branch feeds its output now.
    var isActive: Bool { monitor.locked { active } }

    /// Queues a copy of `pcm` (decode thread), making the branch active.
    /// - Returns: false when it did not fit and was dropped.
    @discardableResult
    func push(_ pcm: UnsafeRawBufferPointer, format: AudioFormat) -> Bool {
        monitor.locked {
            active = true
            guard queuedBytes + pcm.count <= capacity else {
                droppedBytes += pcm.count
                return false
            }
            queue.append(.pcm(format, Array(pcm)))
            queuedBytes += pcm.count
            monitor.broadcast()
            return true
        }
    }

    /// Queues a song's start, end or the stop, in order with the PCM
    /// (decode thread); nothing while the branch is not active.
    func mark(_ item: Item) {
        monitor.locked {
            guard active else { return }
            queue.append(item)
            monitor.broadcast()
        }
    }

    /// Drops what is queued and what the output holds (a skip, a stop).
    func discard() {
        monitor.locked {
            guard active else { return }
            queue.removeAll()
            queuedBytes = 0
            discardPending = true
            monitor.broadcast()
        }
        output.wake()
    }

    /// Stops feeding the output (decode thread): the queue is dropped and,
    /// once the write under way returned, the decode thread may call the
    /// output itself (it leads now), or with `release` the device is let go
    /// (the output was turned off).
    func suspend(release: Bool) {
        monitor.locked {
            guard active else { return }
            active = false
            queue.removeAll()
            queuedBytes = 0
            releasePending = release
            monitor.broadcast()
        }
        output.wake()
        monitor.locked { while writing || releasePending { monitor.wait() } }
        configured = nil
    }

    /// Ends the thread (at shutdown, after `suspend`); the engine closes the output.
    func close() {
        monitor.locked {
            closing = true
            monitor.broadcast()
        }
        output.wake()
        if let thread { pthread_join(thread, nil) }
    }

    /// The branch's thread: takes items in order and hands them to the output.
    private func run() {
        while true {
            let next: Item? = monitor.locked {
                while !closing && !discardPending && !releasePending && (queue.isEmpty || !active) { monitor.wait() }
                if closing { return nil }
                writing = true
                return queue.isEmpty ? .pcm(AudioFormat(sampleRate: 0, channels: 0), []) : queue.removeFirst()
            }
            guard let item = next else { return }
            if monitor.locked({ discardPending }) {
                output.discard()
                monitor.locked { discardPending = false }
            }
            if monitor.locked({ releasePending }) {
                output.release()
                configured = nil
                monitor.locked {
                    releasePending = false
                    writing = false
                    monitor.broadcast()
                }
                continue
            }
            handle(item)
            monitor.locked {
                writing = false
                monitor.broadcast()
            }
        }
    }

    private func handle(_ item: Item) {
        switch item {
        case .pcm(let format, let bytes):
            guard !bytes.isEmpty else { return }
            monitor.locked { queuedBytes -= bytes.count }
            write(bytes, format: format)
        case .songStarts(let info): output.nowPlaying(info)
        case .trackEnded: output.trackEnded()
        case .stopped:
            output.stopped()
            configured = nil
        }
    }

    /// Writes all of `bytes` unless the branch is suspended meanwhile; a
    /// failure drops them (and the next, until a write works again).
    private func write(_ bytes: [UInt8], format: AudioFormat) {
        do throws(StreamFailure) {
            if configured != format {
                try output.configure(format)
                configured = format
            }
            var offset = 0
            while offset < bytes.count {
                let written: Result<Int, StreamFailure> = bytes.withUnsafeBytes { pcm in
                    Result { () throws(StreamFailure) -> Int in
                        try output.write(
                            UnsafeRawBufferPointer(rebasing: pcm[offset...]),
                            interrupted: { [self] in
                                monitor.locked { !active || closing || discardPending }
                            })
                    }
                }
                let n = try written.get()
                offset += n
                if n == 0 || monitor.locked({ !active || closing || discardPending }) { break }
            }
            if failing {
                failing = false
                failed(nil)
            }
        } catch {
            configured = nil
            monitor.locked { droppedBytes += bytes.count }
            if !failing {
                failing = true
                failed(error)
            }
        }
    }
}
