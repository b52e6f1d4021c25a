import Glibc

/// systemd's side channels, without libsystemd: socket activation
/// (`LISTEN_FDS`/`LISTEN_PID`, sd_listen_fds(3)) and readiness
/// notification (`NOTIFY_SOCKET`, sd_notify(3)).
enum ServiceManager {
    /// The first passed socket, fd 3, when systemd started this process
    /// with exactly one (`LISTEN_PID` is ours, `LISTEN_FDS=1`). The
    /// variables are removed so child processes do not inherit them.
    static func listeningSocket() -> Int32? {
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pidText = getenv("LISTEN_PID").map({ String(cString: $0) }), Int32(pidText) == getpid(),
              let countText = getenv("LISTEN_FDS").map({ String(cString: $0) }), Int(countText) == 1 else { return nil }
        return 3
    }

    /// Sends `state` (`READY=1`, `STOPPING=1`, ...) to `$NOTIFY_SOCKET`, a
    /// Unix datagram socket (a leading `@` names the abstract namespace).
    static func notify(_ state: String) {
        guard let raw = getenv("NOTIFY_SOCKET") else { return }
        let path = Array(String(cString: raw).utf8)
        var addr = sockaddr_un()
        guard !path.isEmpty, path.count < MemoryLayout.size(ofValue: addr.sun_path) else { return }
        let s = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { return }
        defer { close(s) }
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.enumerated() { raw[i] = (i == 0 && b == UInt8(ascii: "@")) ? 0 : b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        var message = Array(state.utf8)
        _ = withUnsafePointer(to: &addr) { a in
            a.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                message.withUnsafeMutableBytes { sendto(s, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sa, length) }
            }
        }
    }
}
