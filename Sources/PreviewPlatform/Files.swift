import Glibc

/// Files written so a crash leaves either the old or the new content, never
/// a mix: a temporary file beside the target, fsync, rename over the
/// target, fsync of the directory.
public enum AtomicFile {
    /// Replaces `path` with `bytes`, through `PATH.tmp-PID` (mode 0600).
    /// The temporary file is made anew (`O_EXCL | O_NOFOLLOW`): a link or a
    /// file someone else put at its name is never written through, and
    /// rename(2) replaces a link at `path` itself, not what it points to.
    /// - Throws: `SystemError` whose `function` is the step that failed
    ///   (`open`, `write`, `fsync`, `rename`) and whose `path` is the
    ///   temporary file; the temporary file is removed. `open` fails with
    ///   EEXIST when something at the temporary name cannot be removed (in
    ///   a sticky directory, another user's).
    public static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let temp = path + temporarySuffix + "\(getpid())"
        let fd = try createExclusive(temp)
        let file = OwnedDescriptor(FileDescriptor(rawValue: fd))
        do throws(SystemError) {
            do { try file.descriptor.writeAll(bytes) } catch { throw SystemError("write", errno: error.errno, path: temp) }
            do { try file.descriptor.sync() } catch { throw SystemError("fsync", errno: error.errno, path: temp) }
        } catch {
            file.close()
            unlink(temp)
            throw error
        }
        file.close()
        do { try Syscall.call("rename", path: temp) { rename(temp, path) } } catch {
            unlink(temp)
            throw error
        }
        syncDirectory(of: path)
    }

    /// open(2) with `O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC`, mode 0600.
    /// A name already taken (a save of a process with this PID, cut short)
    /// is unlinked and tried once more: unlink(2) removes a link, never
    /// what it points to.
    /// - Throws: `SystemError("open", path:)`.
    static func createExclusive(_ path: String) throws(SystemError) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        do { return try Syscall.call("open", path: path) { open(path, flags, 0o600) } } catch {
            guard error.isAlreadyExisting, unlink(path) == 0 else { throw error }
            return try Syscall.call("open", path: path) { open(path, flags, 0o600) }
        }
    }

    /// What a temporary file adds to its target's name, before the PID.
    static let temporarySuffix = ".tmp-"

    /// Removes every temporary file (`NAME.tmp-PID`) in `directories` whose
    /// PID is not this process's: a `write` cut short between the temporary
    /// file and the rename (`kill -9`) leaves one, and nothing else would
    /// ever remove it. Call it where no other process writes these
    /// directories (previewd holds the state directory's lock).
    /// - Returns: the paths removed.
    public static func removeStaleTemporaries(in directories: [String]) -> [String] {
        let own = getpid()
        var removed: [String] = []
        for directory in directories {
            for name in (try? FileSystem.entries(ofDirectory: directory)) ?? [] {
                guard let pid = writerPID(ofTemporary: name), pid != own else { continue }
                let path = directory + "/" + name
                guard FileSystem.kind(ofLink: path) == .regular, (try? FileSystem.remove(path)) != nil else { continue }
                removed.append(path)
            }
        }
        return removed
    }

    /// The PID in a temporary file's name `BASE.tmp-PID`, or nil for any other name.
    static func writerPID(ofTemporary name: String) -> Int32? {
        guard let mark = name.ranges(of: temporarySuffix).last, mark.lowerBound > name.startIndex else { return nil }
        let digits = name[mark.upperBound...]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int32(digits)
    }

    /// fsync(2) of the directory holding `path`, so a rename or unlink in
    /// it survives a crash. Best effort: a failure changes nothing for the
    /// caller, whose file is in place either way.
    public static func syncDirectory(of path: String) {
        let dir = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let fd = open(dir.isEmpty ? "/" : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            Glibc.close(fd)
        }
    }

    /// The whole file (open(2), read(2) to the end), or nil when it does
    /// not exist (ENOENT).
    /// - Throws: `SystemError("open"|"read", path: path)` for other errors.
    public static func read(_ path: String) throws(SystemError) -> [UInt8]? {
        let fd: Int32
        do { fd = try Syscall.call("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) } } catch {
            if error.isNotFound { return nil }
            throw error
        }
        let file = OwnedDescriptor(FileDescriptor(rawValue: fd))
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n: Int
            do { n = try file.descriptor.read(into: &buffer) } catch {
                throw SystemError("read", errno: error.errno, path: path)
            }
            if n == 0 { return data }
            data += buffer[..<n]
        }
    }
}

/// What is at a path, as lstat(2) sees it (a link is not followed).
public enum FileKind: Sendable {
    case regular, directory, socket, symbolicLink, other
}

/// Paths and directories: each call is one system call (or mkdir's walk
/// down a path), named in its comment.
public enum FileSystem {
    /// opendir(3)/readdir(3): the names in directory `path`, `.` and `..`
    /// included, in the directory's order.
    /// - Throws: `SystemError("opendir", path:)`.
    public static func entries(ofDirectory path: String) throws(SystemError) -> [String] {
        guard let dir = opendir(path) else { throw SystemError("opendir", path: path) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            names.append(
                withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                })
        }
        return names
    }

    /// stat(2)'s modification time of `path`, in whole Unix seconds.
    /// - Throws: `SystemError("stat", path:)`.
    public static func modificationTime(_ path: String) throws(SystemError) -> Int {
        var st = stat()
        try Syscall.call("stat", path: path) { stat(path, &st) }
        return Int(st.st_mtim.tv_sec)
    }

    /// stat(2)'s size of `path`, in bytes.
    /// - Throws: `SystemError("stat", path:)`.
    public static func size(_ path: String) throws(SystemError) -> Int {
        var st = stat()
        try Syscall.call("stat", path: path) { stat(path, &st) }
        return Int(st.st_size)
    }

    /// utimensat(2): sets `path`'s access and modification times to now.
    /// - Throws: `SystemError("utimensat", path:)`.
    public static func touch(_ path: String) throws(SystemError) {
        try Syscall.call("utimensat", path: path) { utimensat(AT_FDCWD, path, nil, 0) }
    }

    /// lstat(2): what is at `path`, or nil when nothing is (or it cannot be seen).
    public static func kind(ofLink path: String) -> FileKind? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFSOCK: return .socket
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// stat(2)'s permission bits of `path` (0644 is `0o644`), or nil when
    /// it cannot be seen.
    public static func permissions(_ path: String) -> UInt32? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return UInt32(st.st_mode & 0o7777)
    }

    /// chmod(2) `path` to `mode` when it exists and has other bits; a
    /// missing file is no error.
    /// - Throws: `SystemError("chmod", path:)`.
    public static func restrict(_ path: String, to mode: UInt32) throws(SystemError) {
        guard let now = permissions(path), now != mode else { return }
        try Syscall.call("chmod", path: path) { chmod(path, mode_t(mode)) }
    }

    /// access(2) F_OK: whether `path` exists.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// access(2) W_OK: this process may write in `path`.
    /// - Throws: `SystemError("access", path:)` saying why not.
    public static func checkWritable(_ path: String) throws(SystemError) {
        try Syscall.call("access", path: path) { access(path, W_OK) }
    }

    /// mkdir -p: mkdir(2) on every prefix of `path` that does not exist
    /// yet; those it creates get `mode` (less the umask).
    /// - Throws: `SystemError("mkdir", path:)` naming the prefix that failed.
    public static func makeDirectories(_ path: String, mode: UInt32 = 0o700) throws(SystemError) {
        var prefix = ""
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += (prefix.isEmpty && !path.hasPrefix("/") ? "" : "/") + part
            do { try Syscall.call("mkdir", path: prefix) { mkdir(prefix, mode_t(mode)) } } catch {
                if !error.isAlreadyExisting { throw error }
            }
        }
    }

    /// rename(2) `from` over `to`.
    /// - Throws: `SystemError("rename", path: from)`.
    public static func rename(_ from: String, to: String) throws(SystemError) {
        try Syscall.call("rename", path: from) { Glibc.rename(from, to) }
    }

    /// unlink(2).
    /// - Throws: `SystemError("unlink", path:)`; `isNotFound` when nothing is there.
    public static func remove(_ path: String) throws(SystemError) {
        try Syscall.call("unlink", path: path) { unlink(path) }
    }

    /// rmdir(2): removes `path` if it is an empty directory.
    /// - Throws: `SystemError("rmdir", path:)`.
    public static func removeDirectory(_ path: String) throws(SystemError) {
        try Syscall.call("rmdir", path: path) { rmdir(path) }
    }
}
