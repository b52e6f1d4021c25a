import PreviewClient
import PreviewCore
import PreviewPlatform
import Synchronization

/// How the front end reaches previewd: a fresh `MPDConnection` per request
/// (the daemon serves many clients; a connection costs a millisecond), as
/// myMPD speaks to mpd. The front end speaks only the protocol, so the
/// daemon stays the one owner of the state. At most `maxConnections` are
/// open at once, well under previewd's own client limit (100), so web
/// traffic never locks other MPD clients out.
public struct MPDClient: Sendable {
    /// The daemon's socket.
    public let socketPath: String
    /// Seconds a reply may take.
    public let timeout: Int
    private let open = Places(limit: MPDClient.maxConnections)

    /// Connections to previewd open at once, at most (event streams included).
    public static let maxConnections = 48

    public init(socketPath: String, timeout: Int = 10) {
        self.socketPath = socketPath
        self.timeout = timeout
    }

    /// A new connection, greeted.
    /// - Throws: `MPDFailure.busy` when `maxConnections` are open,
    ///   `.unreachable`.
    public func connect() throws(MPDFailure) -> PooledConnection {
        guard open.take() else {
            throw .busy("previewweb has \(Self.maxConnections) requests to previewd under way; try again")
        }
        do { return try PooledConnection(socketPath: socketPath, timeout: timeout, count: open) } catch {
            open.giveBack()
            throw error
        }
    }

    /// The fields of a reply as a dictionary (the first value of each key).
    public static func dictionary(_ fields: [(String, String)]) -> [String: String] { ResponseParser.dictionary(fields) }
}

/// Why a command got no reply, or the daemon's refusal.
public enum MPDFailure: Error, Equatable, Sendable {
    /// The socket cannot be reached or stopped answering (the text says why).
    case unreachable(String)
    /// The daemon answered `ACK`: its error code (MPD's `ACK_ERROR_*`: 50
    /// is "no such thing", 54 "busy", 5 "unknown") and message.
    case refused(code: Int, message: String)
    /// Every connection is taken, previewweb's or previewd's (the text says which).
    case busy(String)
}

/// Places taken out of a fixed number (connections to previewd, event
/// streams), shared by the server's threads.
final class Places: Sendable {
    private let taken = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes a place; false when all are taken.
    func take() -> Bool {
        while true {
            let now = taken.load(ordering: .relaxed)
            guard now < limit else { return false }
            if taken.compareExchange(expected: now, desired: now + 1, ordering: .relaxed).exchanged { return true }
        }
    }

    func giveBack() { taken.subtract(1, ordering: .relaxed) }
}

/// One connection to previewd from `MPDClient` (the shared
/// `MPDConnection`), holding its place in the client's count until it is
/// freed; its failures are `MPDFailure`s. Used by one thread at a time.
public final class PooledConnection {
    private let mpd: MPDConnection
    private let count: Places

    /// Connects (the peer must be this user's, as previewctl checks) and
    /// holds a place in `count` from then on; on failure nothing is held.
    /// - Throws: `MPDFailure.unreachable`, or `.busy` when previewd
    ///   answers its client limit instead of the greeting.
    init(socketPath: String, timeout: Int, count: Places) throws(MPDFailure) {
        do { mpd = try MPDConnection(path: socketPath, timeout: Double(timeout)) } catch {
            switch error {
            case .pathTooLong: throw .unreachable("socket path too long")
            case .connect(let reason, _): throw .unreachable("cannot reach previewd at \(socketPath): \(reason)")
            case .otherUser: throw .unreachable("\(socketPath) is not served by this user's previewd")
            default:
                if case .refused = error { throw MPDFailure(error) }
                throw .unreachable("\(socketPath) does not speak the MPD protocol")
            }
        }
        self.count = count
    }

    deinit { count.giveBack() }

    /// Sets how long a read may wait (SO_RCVTIMEO), in seconds.
    func setTimeout(seconds: Int) { mpd.setReplyTimeout(Double(seconds)) }

    /// Sends one line (the newline is added).
    /// - Throws: `MPDFailure.unreachable`.
    func send(_ line: String) throws(MPDFailure) {
        do { try mpd.send(line + "\n") } catch { throw MPDFailure(error) }
    }

    /// The replies to `lines`, one array of fields each; more than one line
    /// is sent as one command list (`command_list_ok_begin`), so the daemon
    /// runs them in a row.
    /// - Throws: `MPDFailure`: `.refused` with the daemon's message when a
    ///   command fails (those before it have run).
    public func run(_ lines: [String]) throws(MPDFailure) -> [[(String, String)]] {
        do { return try mpd.requestEach(lines) } catch { throw MPDFailure(error) }
    }

    /// A binary reply (`albumart`): its fields and the chunk's bytes.
    /// - Throws: `MPDFailure`.
    func runBinary(_ line: String) throws(MPDFailure) -> (fields: [(String, String)], bytes: [UInt8]) {
        do { return try mpd.requestBinary(line) } catch { throw MPDFailure(error) }
    }

    /// The next line; nil at the end of the stream.
    /// - Throws: `.unreachable` on a read error or when the receive
    ///   timeout ran out.
    func nextLine() throws(MPDFailure) -> String? {
        do { return try mpd.nextLine() } catch { throw MPDFailure(error) }
    }

    /// What `wait(watching:seconds:)` saw first.
    enum Wait { case reply, clientGone, quiet }

    /// Waits (poll(2)) until a reply line can be read, or `client` (an
    /// HTTP connection's socket, -1: none) is readable or hung up, which
    /// on an event stream means its page left, or `seconds` pass.
    func wait(watching client: Int32, seconds: Int) -> Wait {
        switch mpd.wait(watching: client, seconds: seconds) {
        case .reply: return .reply
        case .watchedReadable: return .clientGone
        case .quiet: return .quiet
        }
    }

    /// The text of `.unreachable` when a read waited its whole timeout.
    static let timedOut = "previewd did not answer in time"
}

extension MPDFailure {
    /// The web's word for a failed exchange.
    init(_ error: MPDClientError) {
        switch error {
        case .refused(let code, _, let message):
            self = message.hasPrefix("too many clients") ? .busy("previewd: " + message) : .refused(code: code, message: message)
        case .timedOut: self = .unreachable(PooledConnection.timedOut)
        case .lost(let why), .malformed(let why): self = .unreachable(why)
        case .pathTooLong, .connect, .otherUser, .noGreeting: self = .unreachable("previewd could not be reached")
        }
    }
}
