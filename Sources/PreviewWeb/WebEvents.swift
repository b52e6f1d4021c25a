import PreviewCore
import PreviewHTTP
import Synchronization

/// `GET /api/events`: Server-Sent Events pushed from previewd's `idle`
/// (the MPD protocol's change notification), so every open page shows a
/// change made anywhere (a hotkey, mpc, another tab) as soon as the daemon
/// reports it, without polling. Each stream holds one MPD connection in
/// `idle`:
///
/// - first `event: ready` (the page loads its state then, also after a
///   reconnect, so nothing between its load and the stream is missed);
/// - then one `event: idle` per wake-up, `data:` the changed subsystems
///   separated by spaces (`player mixer`);
/// - a `: keepalive` comment after `keepAlive` seconds without a change
///   (`noidle`), so a page that left is noticed and its connection freed.
///
/// EventSource reconnects by itself after `retry` ms when the stream ends.
final class IdleEventStream: HTTPStream, @unchecked Sendable {
    // Used by its connection's thread only (libmicrohttpd calls `next`
    // and `close` there), hence unchecked.
    private var connection: MPDConnection?
    private var started = false
    private let onClose: @Sendable () -> Void

    /// Seconds without a change before a keep-alive comment: less than
    /// the server's idle timeout (15 s), which would close the stream.
    static let keepAlive = 10

    init(connection: MPDConnection, onClose: @escaping @Sendable () -> Void) {
        self.connection = connection
        self.onClose = onClose
    }

    func next() -> [UInt8]? {
        guard let connection else { return nil }
        if !started {
            started = true
            return Array("retry: 1000\nevent: ready\ndata: \n\n".utf8)
        }
        connection.setTimeout(seconds: Self.keepAlive)
        do {
            try connection.send("idle")
            var changed: [String] = []
            var quieted = false
            while true {
                let line: String?
                do { line = try connection.nextLine() } catch {
                    // Nothing changed for a while: end the idle (its OK follows).
                    guard !quieted, error == .unreachable(MPDConnection.timedOut) else { throw error }
                    quieted = true
                    try connection.send("noidle")
                    continue
                }
                guard let line, !ResponseParser.isAck(line) else { return nil }
                if line == "OK" { break }
                if let (key, value) = ResponseParser.field(line[...]), key == "changed" { changed.append(value) }
            }
            return Array(Self.event(changed).utf8)
        } catch {
            return nil
        }
    }

    /// The text sent for one wake-up with these changed subsystems.
    static func event(_ changed: [String]) -> String {
        changed.isEmpty ? ": keepalive\n\n" : "event: idle\ndata: \(changed.joined(separator: " "))\n\n"
    }

    func close() {
        if connection != nil { onClose() }
        connection = nil
    }
}

/// Counts the open event streams against `WebApp.maxEventStreams`.
final class StreamCount: Sendable {
    private let open = Atomic<Int>(0)

    /// Takes a place; false when all are taken.
    func take(limit: Int) -> Bool {
        while true {
            let now = open.load(ordering: .relaxed)
            guard now < limit else { return false }
            if open.compareExchange(expected: now, desired: now + 1, ordering: .relaxed).exchanged { return true }
        }
    }

    func giveBack() { open.subtract(1, ordering: .relaxed) }
}
