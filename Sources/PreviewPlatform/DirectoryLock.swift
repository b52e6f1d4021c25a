import Glibc

/// An exclusive advisory lock on a directory, held for the owner's life:
/// `flock(LOCK_EX | LOCK_NB)` on a `lock` file inside it, which also holds
/// the owner's pid for the message another process gets. The kernel drops
/// the lock when the process ends, however it ends (`kill -9` included),
/// so a stale file never blocks a start.
public final class DirectoryLock {
    private let fd: Int32
    /// The lock file's path.
    public let path: String

    /// Why a lock was not taken.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Another process holds it; its pid when the file names one.
        case held(path: String, pid: Int?)
        /// The file could not be opened or locked.
        case system(SystemError)

        public var description: String {
            switch self {
            case .held(let path, let pid?): return "\(path) is locked by pid \(pid)"
            case .held(let path, nil): return "\(path) is locked by another process"
            case .system(let error): return "cannot lock: \(error)"
            }
        }
    }

    /// Takes the lock on `directory/name` (created 0600), or fails at once.
    /// - Throws: `Failure.held` with the holder's pid, or `Failure.system`
    ///   from open(2) or flock(2).
    public init(directory: String, name: String = "lock") throws(Failure) {
        let path = directory + "/" + name
        self.path = path
        let fd: Int32
        do { fd = try Syscall.call("open", path: path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) } } catch {
            throw .system(error)
        }
        do { try Syscall.call("flock", path: path) { flock(fd, LOCK_EX | LOCK_NB) } } catch {
            let pid = DirectoryLock.pid(in: fd)
            Glibc.close(fd)
            throw error.wouldBlock ? .held(path: path, pid: pid) : .system(error)
        }
        self.fd = fd
        let text = Array("\(getpid())\n".utf8)
        // The pid is only for the message: a failed write loses nothing.
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    deinit { Glibc.close(fd) }

    /// The pid written at the start of the open file `fd`, if any.
    private static func pid(in fd: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        return Int(String(decoding: buffer[..<n], as: UTF8.self).filter(\.isNumber))
    }
}
