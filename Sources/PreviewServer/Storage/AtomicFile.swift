import Glibc

/// Files the daemon owns, written so a crash leaves either the old or the
/// new content, never a mix: write a temporary file, fsync it, rename it
/// over the target, fsync the directory.
enum AtomicFile {
    /// Replaces `path` with `bytes`.
    /// - Throws: `ProtocolError(.system, ...)` naming the step and errno's text.
    static func write(_ bytes: [UInt8], to path: String) throws(ProtocolError) {
        let temp = path + ".tmp-\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("cannot create \(temp)") }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                let error = failure("cannot write \(temp)")
                close(fd)
                unlink(temp)
                throw error
            }
            offset += n
        }
        guard fsync(fd) == 0 else {
            let error = failure("cannot sync \(temp)")
            close(fd)
            unlink(temp)
            throw error
        }
        close(fd)
        guard rename(temp, path) == 0 else {
            let error = failure("cannot rename \(temp)")
            unlink(temp)
            throw error
        }
        syncDirectory(of: path)
    }

    /// fsync of the directory holding `path`, so a rename or unlink is durable.
    static func syncDirectory(of path: String) {
        let dir = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let fd = open(dir.isEmpty ? "/" : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    /// The whole file, or nil when it does not exist.
    /// - Throws: `ProtocolError(.system, ...)` for other read errors.
    static func read(_ path: String) throws(ProtocolError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw failure("cannot open \(path)")
        }
        defer { close(fd) }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read \(path)")
            }
            if n == 0 { return data }
            data += buffer[..<n]
        }
    }

    static func failure(_ what: String) -> ProtocolError {
        ProtocolError(.system, "\(what): \(String(cString: strerror(errno)))")
    }
}

import PreviewCore
