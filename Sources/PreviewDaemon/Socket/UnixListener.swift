import PreviewCore
import PreviewPlatform
import PreviewServer

/// A failure to set up or use a socket, with errno's text.
public struct SocketError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// `FUNCTION [PATH]: REASON`, as the platform error says it.
    init(_ error: SystemError) { description = error.description }
    init(message: String) { description = message }
}

/// The listening Unix stream socket. Owns the file descriptor and removes
/// the socket file on `close()`.
final class UnixListener {
    let fd: FileDescriptor
    let path: String
    /// Whether the socket came from the service manager (socket activation):
    /// then it is not ours to remove.
    let inherited: Bool

    /// Adopts a listening socket passed by systemd (`LISTEN_FDS`), fd 3.
    init(inheritedFD: FileDescriptor, path: String) {
        fd = inheritedFD
        self.path = path
        inherited = true
        inheritedFD.setNonBlockingCloseOnExec()
    }

    /// Creates the directory (0700) and binds `path` (0600 from the start).
    /// A stale socket file is replaced; a live daemon on the path is an error.
    /// - Throws: `SocketError` naming the step that failed.
    init(path: String) throws(SocketError) {
        self.path = path
        inherited = false
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path: path) } catch {
            throw SocketError(message: "socket path too long: \(path)")
        }
        try UnixListener.makeDirectories(parentOf: path)
        if let kind = FileSystem.kind(ofLink: path) {
            guard kind == .socket else {
                throw SocketError(message: "\(path) exists and is not a socket; not replacing it")
            }
            if UnixListener.isLive(address) {
                throw SocketError(message: "another previewd is already listening on \(path)")
            }
            try? FileSystem.remove(path)
        }
        do { fd = try UnixSocket.listen(at: address, backlog: 128, creationMask: 0o177).release() } catch {
            throw SocketError(error)
        }
    }

    /// Accepts one pending connection (non-blocking), or nil.
    func accept() -> FileDescriptor? {
        try? fd.accept()
    }

    /// Closes the socket and removes its file (unless systemd owns it).
    func close() {
        fd.close()
        if !inherited { try? FileSystem.remove(path) }
    }

    /// Whether something accepts connections on `address`.
    static func isLive(_ address: UnixSocketAddress) -> Bool {
        do {
            _ = try UnixSocket.connect(to: address, type: .stream)
            return true
        } catch {
            return false
        }
    }

    /// mkdir -p for the socket's directory; directories it creates are 0700.
    static func makeDirectories(parentOf path: String) throws(SocketError) {
        guard let directory = SocketPath.directory(of: path) else { return }
        try makeDirectories(directory)
    }

    /// mkdir -p `dir` with mode 0700 for the directories it creates.
    static func makeDirectories(_ dir: String) throws(SocketError) {
        do { try FileSystem.makeDirectories(dir, mode: 0o700) } catch { throw SocketError(error) }
    }
}
