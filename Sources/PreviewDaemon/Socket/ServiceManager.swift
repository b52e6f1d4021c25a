import PreviewPlatform
import PreviewServer

/// systemd's side channels, without libsystemd: socket activation
/// (`LISTEN_FDS`/`LISTEN_PID`, sd_listen_fds(3)) and readiness
/// notification (`NOTIFY_SOCKET`, sd_notify(3)).
enum ServiceManager {
    /// The first passed socket, fd 3, when systemd started this process
    /// with exactly one (`LISTEN_PID` is ours, `LISTEN_FDS=1`). The
    /// variables are removed so child processes do not inherit them.
    static func listeningSocket() -> FileDescriptor? {
        defer {
            Environment.remove("LISTEN_PID")
            Environment.remove("LISTEN_FDS")
            Environment.remove("LISTEN_FDNAMES")
        }
        guard let pidText = Environment.value("LISTEN_PID"), Int32(pidText) == ThisProcess.id,
            let countText = Environment.value("LISTEN_FDS"), Int(countText) == 1
        else { return nil }
        return FileDescriptor(rawValue: 3)
    }

    /// Sends `state` (`READY=1`, `STOPPING=1`, ...) to `$NOTIFY_SOCKET`, a
    /// Unix datagram socket (a leading `@` names the abstract namespace).
    static func notify(_ state: String) {
        guard let path = Environment.value("NOTIFY_SOCKET"), !path.isEmpty else { return }
        let bytes = Array(path.utf8)
        guard
            let address = try?
                (bytes[0] == UInt8(ascii: "@")
                ? UnixSocketAddress(abstractName: Array(bytes.dropFirst()))
                : UnixSocketAddress(path: path)),
            let socket = try? UnixSocket.make(.datagram)
        else { return }
        try? socket.descriptor.send(Array(state.utf8), to: address)
    }
}
