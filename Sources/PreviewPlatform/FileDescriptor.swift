import Glibc

/// A file descriptor number. Copyable and not closed by itself, like a C
/// `int`: whoever keeps it in a table (the server's clients) closes it
/// explicitly. `OwnedDescriptor` is the kind that closes at the end of scope.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: 0)
    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    /// The number alone, so log lines read `fd 3`.
    public var description: String { "\(rawValue)" }

    /// read(2), once: up to `buffer.count` bytes.
    /// - Returns: the number of bytes read; 0 at end of file.
    /// - Throws: `SystemError("read")`; EAGAIN when a non-blocking
    ///   descriptor has nothing.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try Syscall.call("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// read(2) once into the start of `buffer` (up to `buffer.count` bytes;
    /// the array keeps its size).
    /// - Returns: bytes read, 0 at end of file. - Throws: as `read(into:)`.
    public func read(into buffer: inout [UInt8]) throws(SystemError) -> Int {
        try Syscall.call("read") { buffer.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, $0.count) } }
    }

    /// write(2), once.
    /// - Returns: bytes written (possibly fewer than given).
    /// - Throws: `SystemError("write")`.
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        try Syscall.call("write") { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// write(2) until every byte is written.
    /// - Throws: `SystemError("write")`, with what came before written.
    public func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            offset += try Syscall.call("write") {
                bytes.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress! + offset, $0.count - offset) }
            }
        }
    }

    /// write(2) until every byte of `bytes` is written (a file, a pipe, a
    /// blocking socket; the WAV output's PCM).
    /// - Throws: `SystemError("write")`, with what came before written.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            offset += try Syscall.call("write") { Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset) }
        }
    }

    /// close(2). Errors are ignored: Linux frees the number even when close
    /// reports one, so a retry could close a descriptor opened meanwhile.
    public func close() {
        _ = Glibc.close(rawValue)
    }

    /// fsync(2): the file's data and metadata on disk.
    /// - Throws: `SystemError("fsync")`.
    public func sync() throws(SystemError) {
        try Syscall.call("fsync") { fsync(rawValue) }
    }

    /// fcntl(2) O_NONBLOCK and FD_CLOEXEC: a poll loop must never block on
    /// one descriptor, and children (hooks) must not inherit it.
    public func setNonBlockingCloseOnExec() {
        _ = fcntl(rawValue, F_SETFL, fcntl(rawValue, F_GETFL) | O_NONBLOCK)
        _ = fcntl(rawValue, F_SETFD, FD_CLOEXEC)
    }

    /// fcntl(2) F_SETFL 0: blocking again (O_NONBLOCK is shared with any
    /// process the descriptor is passed to, e.g. a child's standard input).
    public func setBlocking() {
        _ = fcntl(rawValue, F_SETFL, 0)
    }

    /// isatty(3).
    public var isTerminal: Bool { isatty(rawValue) != 0 }

    /// Columns of the terminal on this descriptor (ioctl TIOCGWINSZ), or nil
    /// when it is not a terminal or the size is unknown (0).
    public var terminalColumns: Int? {
        var size = winsize()
        guard ioctl(rawValue, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

/// A descriptor that closes itself when its owner's scope ends (close(2)
/// in `deinit`). Not copyable, so two owners cannot both close it.
public struct OwnedDescriptor: ~Copyable {
    /// The descriptor; valid while this owner lives.
    public let descriptor: FileDescriptor

    /// Takes over `descriptor`.
    public init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    deinit { descriptor.close() }

    /// Closes now (close(2)), where the owner's scope ends later.
    public consuming func close() {}

    /// Gives the descriptor up without closing it: the caller owns it now.
    public consuming func release() -> FileDescriptor {
        let d = descriptor
        discard self
        return d
    }
}

/// pipe(2) with both ends non-blocking and close-on-exec (pipe2(2), which
/// would do it at once, is a GNU extension Glibc's Swift module hides).
/// Frozen (its two ends are all it will ever hold) so that a caller may
/// consume one end, `pipe.writeEnd.close()`, and keep the other.
@frozen
public struct Pipe: ~Copyable {
    /// Bytes written to `writeEnd` come out here.
    public var readEnd: OwnedDescriptor
    public var writeEnd: OwnedDescriptor

    /// - Throws: `SystemError("pipe")`.
    public init() throws(SystemError) {
        var fds: [Int32] = [0, 0]
        try Syscall.call("pipe") { pipe(&fds) }
        readEnd = OwnedDescriptor(FileDescriptor(rawValue: fds[0]))
        writeEnd = OwnedDescriptor(FileDescriptor(rawValue: fds[1]))
        readEnd.descriptor.setNonBlockingCloseOnExec()
        writeEnd.descriptor.setNonBlockingCloseOnExec()
    }
}
