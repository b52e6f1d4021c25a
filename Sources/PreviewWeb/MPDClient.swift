import PreviewCore
import PreviewPlatform

/// One command to previewd over its MPD socket: connect, read the
/// greeting, send the line, read the reply up to `OK` or `ACK`, close. The
/// front end speaks only the protocol, as any MPD client does (myMPD's
/// way), so the daemon stays the one owner of the state.
public struct MPDClient: Sendable {
    /// The daemon's socket.
    public let socketPath: String
    /// Seconds a reply may take.
    public let timeout: Int

    /// Why a command got no reply, or the daemon's refusal.
    public enum Failure: Error, Equatable {
        /// The socket cannot be reached (the text says why).
        case unreachable(String)
        /// The daemon answered `ACK`: its message.
        case refused(String)
    }

    public init(socketPath: String, timeout: Int = 10) {
        self.socketPath = socketPath
        self.timeout = timeout
    }

    /// The reply's `key: value` lines, in order.
    /// - Throws: `Failure`.
    public func run(_ line: String) throws(Failure) -> [(String, String)] {
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path: socketPath) } catch { throw .unreachable("socket path too long") }
        let fd: FileDescriptor
        do { fd = try UnixSocket.connect(to: address, type: .stream).release() } catch {
            throw .unreachable("cannot reach previewd at \(socketPath): \(error.reason)")
        }
        defer { fd.close() }
        // Whoever listens there gets every command: only a daemon of this
        // user is spoken to (as previewctl does).
        guard let peer = fd.peerCredentials(), peer.userID == ThisProcess.userID else {
            throw .unreachable("\(socketPath) is not served by this user's previewd")
        }
        try? fd.setReceiveTimeout(seconds: timeout)
        var reader = LineReader(fd: fd)
        // A read error (the timeout) ends the reply as the end of the stream does.
        func next() -> String? { (try? reader.next()) ?? nil }
        guard let greeting = next(), greeting.hasPrefix("OK MPD ") else {
            throw .unreachable("\(socketPath) does not speak the MPD protocol")
        }
        do { try fd.writeAll(Array((line + "\n").utf8)) } catch { throw .unreachable(error.description) }
        var fields: [(String, String)] = []
        while let reply = next() {
            if reply == "OK" { return fields }
            if reply.hasPrefix("ACK ") {
                if case .ack(_, _, _, let message, _)? = ResponseParser.parse([reply][...])?.0 { throw .refused(message) }
                throw .refused(reply)
            }
            guard let colon = reply.firstRange(of: ": ") else { continue }
            fields.append((String(reply[..<colon.lowerBound]), String(reply[colon.upperBound...])))
        }
        throw .unreachable("previewd closed the connection")
    }

    /// The fields of a reply as a dictionary (the first value of each key).
    public static func dictionary(_ fields: [(String, String)]) -> [String: String] {
        Dictionary(fields, uniquingKeysWith: { first, _ in first })
    }
}
