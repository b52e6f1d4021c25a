import Dispatch
import Glibc
import PreviewPlatform
import Synchronization

/// The connections that owe the server a whole request (its headers and
/// any body), each with its socket and the time it is due by. Pure: the
/// caller passes the time and does the closing.
struct HTTPDeadlineTable {
    private var waiting: [UInt: (socket: Int32, deadline: Double)] = [:]

    /// Connections waiting now.
    var count: Int { waiting.count }

    /// `connection` (its `MHD_Connection` address) on `socket` owes a
    /// request by `deadline` (monotonic seconds): it opened, or its last
    /// answer was sent.
    mutating func expect(_ connection: UInt, socket: Int32, by deadline: Double) {
        waiting[connection] = (socket, deadline)
    }

    /// `connection`'s request came whole, or the connection is closed.
    mutating func forget(_ connection: UInt) { waiting[connection] = nil }

    /// The sockets of the connections past their deadline at `now`, each
    /// given once (they are forgotten here).
    mutating func takeOverdue(now: Double) -> [Int32] {
        let overdue = waiting.filter { $0.value.deadline <= now }
        for key in overdue.keys { waiting[key] = nil }
        return overdue.values.map(\.socket).sorted()
    }
}

/// A deadline for each request: a connection that has not sent a whole
/// request within `seconds` of opening, or of its last answer, is shut
/// down, however it dribbles its bytes (libmicrohttpd's own timeout is an
/// idle one, which a byte a second keeps off). A watchdog on a Dispatch
/// timer looks once a second and calls `shutdown(2)` on the overdue
/// sockets; the connection's thread then sees the end and closes it.
/// The table's lock is held around `shutdown`, and libmicrohttpd reports
/// a connection closed (`closed`, under the same lock) before it closes
/// the socket: a socket number shut down is never one already reused.
final class HTTPRequestDeadlines: Sendable {
    /// Seconds a connection has for a whole request.
    let seconds: Double
    private let table = Mutex(HTTPDeadlineTable())
    // Set once, in init; Dispatch's sources may be cancelled from any thread.
    private nonisolated(unsafe) let timer: any DispatchSourceTimer

    /// Starts the watchdog.
    /// - Parameter seconds: the time a connection has for each request.
    init(seconds: Double) {
        self.seconds = seconds
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self] in self?.sweep() }
        timer.resume()
    }

    deinit { timer.cancel() }

    /// `connection` on `socket` opened, or was answered: it owes the next request.
    func expect(_ connection: OpaquePointer, socket: Int32) {
        guard socket >= 0 else { return }
        let due = SystemClock.monotonicSeconds() + seconds
        table.withLock { $0.expect(UInt(bitPattern: UnsafeRawPointer(connection)), socket: socket, by: due) }
    }

    /// `connection`'s request came whole, or the connection is closed.
    func forget(_ connection: OpaquePointer) {
        table.withLock { $0.forget(UInt(bitPattern: UnsafeRawPointer(connection))) }
    }

    /// Shuts down the sockets of the overdue connections (`shutdown(2)`,
    /// both ways), under the table's lock.
    func sweep() {
        let now = SystemClock.monotonicSeconds()
        table.withLock { table in
            for socket in table.takeOverdue(now: now) { _ = shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// Stops the watchdog (the daemon is stopped: no socket is left to watch).
    func stop() {
        timer.cancel()
        table.withLock { $0 = HTTPDeadlineTable() }
    }
}
