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
///   (`noidle`), so the connection is not closed as idle.
///
/// The HTTP connection's socket is watched beside the MPD one: a page that
/// leaves frees its place and its MPD connection at once.
///
/// EventSource reconnects by itself after `retry` ms when the stream ends.
final class IdleEventStream: HTTPStream, @unchecked Sendable {
    // Used by its connection's thread only (libmicrohttpd calls `next`
    // and `close` there), hence unchecked.
    private var connection: PooledConnection?
    private var started = false
    private let client: Int32
    private let onClose: @Sendable () -> Void

    /// Seconds without a change before a keep-alive comment: less than
    /// the server's idle timeout (15 s), which would close the stream.
    static let keepAlive = 10

    /// - Parameter client: the HTTP connection's socket, watched so that a
    ///   page that leaves frees its place at once (-1: at the next keep-alive).
    init(connection: PooledConnection, client: Int32, onClose: @escaping @Sendable () -> Void) {
        self.connection = connection
        self.client = client
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
                switch connection.wait(watching: client, seconds: Self.keepAlive) {
                case .clientGone: return nil
                case .quiet:
                    // Nothing changed for a while: end the idle (its OK follows).
                    guard !quieted else { return nil }
                    quieted = true
                    try connection.send("noidle")
                    continue
                case .reply: break
                }
                guard let line = try connection.nextLine(), !ResponseParser.isAck(line) else { return nil }
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
