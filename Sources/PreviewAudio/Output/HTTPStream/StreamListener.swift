import Glibc
import PreviewHTTP
import PreviewPlatform

/// One connection to a stream: what the encoder made for it and the
/// connection has not taken yet, bounded. The encoding thread offers (and
/// never waits); libmicrohttpd's thread for the connection takes, waiting
/// while there is nothing. A listener that stops reading fills its
/// bound and is dropped: its connection is shut down, never waited for.
final class StreamListener: HTTPStream, @unchecked Sendable {
    private enum Item {
        case audio([UInt8])
        case title(String)
    }

    private enum State { case open, ending, closed }

    private let monitor = Monitor()
    // Guarded by `monitor`.
    private var queue: [Item] = []
    private var queuedBytes = 0
    private var state = State.open
    private var icy: ICYInserter?

    /// Encoded bytes held at most (a few seconds of the format).
    let bound: Int
    /// The connection's socket, owned by libmicrohttpd: only shut down
    /// here (before `close`, so never a descriptor number reused since).
    private let socket: Int32
    /// Called once when the connection is gone (to free its place).
    private let onClose: @Sendable () -> Void

    /// - Parameters:
    ///   - bound: bytes of encoded audio held at most before the listener is dropped.
    ///   - icy: whether to insert ICY metadata (the client sent `Icy-MetaData: 1`).
    ///   - socket: the connection's socket, to shut down on a drop (-1: none).
    ///   - onClose: called once when libmicrohttpd is done with the connection.
    init(bound: Int, icy: Bool, socket: Int32, onClose: @escaping @Sendable () -> Void) {
        self.bound = bound
        self.icy = icy ? ICYInserter() : nil
        self.socket = socket
        self.onClose = onClose
    }

    /// What became of an offer.
    enum Offer: Equatable {
        /// Queued (or nothing to queue).
        case taken
        /// The connection is gone or ending: forget the listener.
        case gone
        /// The bytes would pass the bound: the connection was shut now.
        case dropped
    }

    /// Queues `bytes` (whole frames) for the connection.
    func offer(_ bytes: [UInt8]) -> Offer {
        monitor.locked {
            guard state == .open else { return .gone }
            guard !bytes.isEmpty else { return .taken }
            guard queuedBytes + bytes.count <= bound else {
                dropLocked()
                return .dropped
            }
            queue.append(.audio(bytes))
            queuedBytes += bytes.count
            monitor.broadcast()
            return .taken
        }
    }

    /// The song whose audio is offered next (for ICY's StreamTitle).
    func offerTitle(_ title: String) {
        monitor.locked {
            guard state == .open, icy != nil else { return }
            queue.append(.title(title))
        }
    }

    /// Ends the response once what is queued has been taken.
    func end() {
        monitor.locked {
            if state == .open { state = .ending }
            monitor.broadcast()
        }
    }

    /// The bytes queued so far (the listener's lag), for tests and logs.
    var backlog: Int { monitor.locked { queuedBytes } }

    /// Shuts the connection (`shutdown(2)`, so libmicrohttpd's thread,
    /// blocked sending to a client that reads nothing, fails at once and
    /// closes it) and forgets what is queued.
    private func dropLocked() {
        state = .ending
        queue = []
        queuedBytes = 0
        if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
        monitor.broadcast()
    }

    // HTTPStream, on the connection's thread.

    func next() -> [UInt8]? {
        monitor.locked {
            while queue.isEmpty {
                if state != .open { return nil }
                monitor.wait()
            }
            var out: [UInt8] = []
            out.reserveCapacity(queuedBytes + 64)
            for item in queue {
                switch item {
                case .audio(let bytes):
                    if icy == nil { out.append(contentsOf: bytes) } else { icy?.insert(bytes, into: &out) }
                case .title(let title):
                    icy?.setTitle(title)
                }
            }
            queue = []
            queuedBytes = 0
            return out
        }
    }

    func close() {
        let first: Bool = monitor.locked {
            defer {
                state = .closed
                queue = []
                queuedBytes = 0
                monitor.broadcast()
            }
            return state != .closed
        }
        if first { onClose() }
    }
}
