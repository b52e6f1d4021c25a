import PreviewCore
import PreviewPlatform

/// The bounded buffer between the network thread (producer, curl's write
/// callback) and the decode thread (consumer). Memory never grows: when a
/// chunk does not fit, the producer pauses its transfer and is woken through
/// `onSpace` once the consumer has made room.
package final class ByteRing: StreamInput, @unchecked Sendable {
    /// How a read ended.
    package enum ReadResult: Equatable {
        /// `n` bytes were copied.
        case bytes(Int)
        /// The transfer finished and every byte was read.
        case end
        /// The transfer failed; bytes before it were read.
        case failed(StreamFailure)
        /// `cancel()` was called.
        case cancelled
    }

    /// Capacity in bytes.
    package let capacity: Int
    private let storage: UnsafeMutableRawBufferPointer
    private let monitor = Monitor()
    private var head = 0  // next byte to read
    private var count = 0
    private var finished = false
    private var failure: StreamFailure?
    private var cancelled = false
    private var producerWaiting = false
    private var written = 0
    /// Called (on the consumer's thread, without the lock) when a paused
    /// producer may continue.
    package var onSpace: (@Sendable () -> Void)?

    /// A ring of `capacity` bytes; must be above curl's largest write chunk (16 KiB).
    package init(capacity: Int) {
        precondition(capacity >= 32 * 1024, "ring smaller than curl's write chunk hangs")
        self.capacity = capacity
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// Producer: copies all of `bytes` or nothing.
    /// - Returns: false when there is no room; the producer must pause and
    ///   wait for `onSpace`.
    package func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        monitor.locked {
            if cancelled { return true }  // drop silently; the transfer is being removed
            guard capacity - count >= bytes.count else {
                producerWaiting = true
                return false
            }
            var tail = (head + count) % capacity
            var offset = 0
            while offset < bytes.count {
                let n = min(bytes.count - offset, capacity - tail)
                (storage.baseAddress! + tail).copyMemory(from: bytes.baseAddress! + offset, byteCount: n)
                offset += n
                tail = (tail + n) % capacity
            }
            count += bytes.count
            written += bytes.count
            monitor.broadcast()
            return true
        }
    }

    /// Producer: no more bytes will come; `failure` says why when abnormal.
    package func finish(failure: StreamFailure?) {
        monitor.locked {
            finished = true
            if self.failure == nil { self.failure = failure }
            monitor.broadcast()
        }
    }

    /// Either side: stop now; a blocked reader returns `.cancelled`.
    package func cancel() {
        monitor.locked {
            cancelled = true
            monitor.broadcast()
        }
    }

    /// Whether `cancel()` was called.
    package var isCancelled: Bool { monitor.locked { cancelled } }

    /// Bytes written since the start, over every transfer.
    package var received: Int { monitor.locked { written } }

    /// The transfer ended well and its rest is in the ring (a short body, or
    /// the end of a long one): reads no longer wait on the network.
    package var hasWholeBody: Bool { monitor.locked { finished && failure == nil } }

    /// Accepts bytes again after the end or a failure (a resumed transfer).
    package func reopen() {
        monitor.locked {
            finished = false
            failure = nil
            producerWaiting = false
        }
    }

    /// Consumer: blocks until at least one byte, the end, a failure or a
    /// cancel; after `stallTimeout` seconds without a byte, the stream has
    /// stalled and counts as failed (curl's own speed check would also fire
    /// while the transfer is paused on a full ring, so it is done here).
    package func read(into buffer: UnsafeMutableRawBufferPointer, stallTimeout: Double = .infinity) -> ReadResult {
        var wake = false
        let result: ReadResult = monitor.locked {
            let deadline = SystemClock.monotonicSeconds() + stallTimeout
            while !cancelled && count == 0 && !finished {
                let left = deadline - SystemClock.monotonicSeconds()
                if left <= 0 {
                    return .failed(.stalled(seconds: Int(clamping: stallTimeout, rounding: .down)))
                }
                if left.isFinite { monitor.wait(seconds: left) } else { monitor.wait() }
            }
            if cancelled { return .cancelled }
            if count == 0 {
                if let failure { return .failed(failure) }
                return .end
            }
            let n = min(buffer.count, count)
            var copied = 0
            while copied < n {
                let chunk = min(n - copied, capacity - head)
                (buffer.baseAddress! + copied).copyMemory(from: storage.baseAddress! + head, byteCount: chunk)
                copied += chunk
                head = (head + chunk) % capacity
            }
            count -= n
            // Wake the producer only once a whole curl chunk fits again.
            if producerWaiting && capacity - count >= 32 * 1024 {
                producerWaiting = false
                wake = true
            }
            return .bytes(n)
        }
        if wake { onSpace?() }
        return result
    }
}
