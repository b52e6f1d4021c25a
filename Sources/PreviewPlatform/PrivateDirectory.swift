import Glibc

/// A directory only its owner may use. Anyone can create `/tmp/previewd-UID`
/// before its user does, and a socket inside a directory another user owns
/// (or reached through their symbolic link) is theirs to answer: so before
/// trusting such a directory, previewd and previewctl check it as tmux
/// checks `/tmp/tmux-UID`.
public enum PrivateDirectory {
    /// Why a directory cannot be trusted; `description` names the path.
    public struct Unsafe: Error, CustomStringConvertible, Equatable, Sendable {
        public let path: String
        /// "is a symbolic link", "is owned by uid 1001", "has mode 0755", or
        /// errno's text when it could not be made or seen.
        public let reason: String
        public var description: String { "\(path) \(reason)" }
    }

    /// Makes `path` with mode 0700 when it is missing (and `create`), then
    /// requires that lstat(2) show a directory, not a symbolic link, owned
    /// by `owner`, with no permission bits for group or others.
    /// - Returns: false when `path` is missing and `create` is false.
    /// - Throws: `Unsafe` saying which check failed (mkdir(2) or lstat(2)
    ///   errors included).
    @discardableResult
    public static func check(_ path: String, owner: UInt32, create: Bool) throws(Unsafe) -> Bool {
        if create {
            do { try Syscall.call("mkdir", path: path) { mkdir(path, 0o700) } } catch {
                if !error.isAlreadyExisting { throw Unsafe(path: path, reason: "cannot be made: \(error.reason)") }
            }
        }
        var st = stat()
        guard lstat(path, &st) == 0 else {
            let error = SystemError("lstat", path: path)
            if error.isNotFound, !create { return false }
            throw Unsafe(path: path, reason: "cannot be examined: \(error.reason)")
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: throw Unsafe(path: path, reason: "is a symbolic link")
        default: throw Unsafe(path: path, reason: "is not a directory")
        }
        guard st.st_uid == owner else { throw Unsafe(path: path, reason: "is owned by uid \(st.st_uid), not \(owner)") }
        let mode = st.st_mode & 0o7777
        guard mode & 0o077 == 0 else {
            throw Unsafe(path: path, reason: "has mode 0\(String(mode, radix: 8)) (group or others may use it; 0700 is needed)")
        }
        return true
    }

    /// chmod(2) `path` to 0700 when it is a directory this process owns
    /// (lstat(2): a link is left alone), so that a directory made before
    /// under a wider umask is narrowed at start-up.
    /// - Throws: `SystemError("chmod", path:)`.
    public static func narrow(_ path: String) throws(SystemError) {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR, st.st_uid == getuid(),
            st.st_mode & 0o077 != 0
        else { return }
        try Syscall.call("chmod", path: path) { chmod(path, 0o700) }
    }
}
