import Glibc

/// Lines from a stream descriptor (`\n`-terminated, returned without it),
/// as an MPD client reads a reply: previewctl and previewweb read the
/// daemon's socket through one.
public struct LineReader {
    public let fd: FileDescriptor
    private var buffer: [UInt8] = []

    public init(fd: FileDescriptor) { self.fd = fd }

    /// The next line, reading as needed; nil at the end of the stream.
    /// - Throws: `SystemError` of read(2) (`wouldBlock` when a receive
    ///   timeout ran out).
    public mutating func next() throws(SystemError) -> String? {
        while true {
            if let line = take() { return line }
            var chunk = [UInt8](repeating: 0, count: 16384)
            let n = try fd.read(into: &chunk)
            if n == 0 { return nil }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// The next `count` bytes as they are (an MPD binary chunk), reading as
    /// needed; nil when the stream ends first.
    /// - Throws: `SystemError` of read(2).
    public mutating func bytes(_ count: Int) throws(SystemError) -> [UInt8]? {
        while buffer.count < count {
            var chunk = [UInt8](repeating: 0, count: 16384)
            let n = try fd.read(into: &chunk)
            if n == 0 { return nil }
            buffer.append(contentsOf: chunk[..<n])
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// The next line when it has been received already, left to `next`.
    public func peek() -> String? {
        buffer.firstIndex(of: 0x0A).map { String(decoding: buffer[..<$0], as: UTF8.self) }
    }

    private mutating func take() -> String? {
        guard let nl = buffer.firstIndex(of: 0x0A) else { return nil }
        let line = String(decoding: buffer[..<nl], as: UTF8.self)
        buffer.removeSubrange(...nl)
        return line
    }
}
