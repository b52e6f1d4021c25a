import PreviewCore

/// Cuts a connection's input into request lines at `\n`, the protocol's
/// framing: each line as a String, or the ACK for one that cannot be a
/// request (longer than `maxLineBytes`, or not UTF-8). Such a line is
/// skipped and the next one read, so the connection stays usable (mpd
/// drops the client). Bytes in, lines out; no I/O.
struct LineFramer {
    /// Longest request line accepted, bytes without the `\n`.
    static let maxLineBytes = 64 * 1024
    static let tooLong = ProtocolError(.argument, "line too long (at most \(maxLineBytes) bytes)")
    static let invalidUTF8 = ProtocolError(.argument, "request is not valid UTF-8")

    private var input: [UInt8] = []
    /// Where the next line starts in `input`.
    private var start = 0
    /// An over-long line's start was dropped; the rest goes up to its `\n`.
    private var discardingLongLine = false

    /// Bytes arrived from the client.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        input.append(contentsOf: bytes)
    }

    /// Whether bytes not yet cut into lines are buffered (a whole line or
    /// the start of one).
    var hasUnread: Bool { start < input.count }

    /// The next complete line without its `\n`, its ACK when it cannot be
    /// a request, or nil until more bytes arrive.
    mutating func next() -> Result<String, ProtocolError>? {
        let from = start
        // (newline index, the line if it is valid UTF-8), or nil without a newline.
        let found: (Int, String?)? = input.withUnsafeBufferPointer { buf in
            // A slice of the buffer keeps the buffer's indices: `end` is
            // absolute, and the search copies nothing.
            guard from < buf.count, let end = buf[from...].firstIndex(of: 0x0A) else { return nil }
            return (end, LineFramer.decode(UnsafeBufferPointer(rebasing: buf[from..<end])))
        }
        guard let (end, decoded) = found else {
            if input.count - start > LineFramer.maxLineBytes {
                discardingLongLine = true
                start = input.count
            }
            return nil
        }
        start = end + 1
        if discardingLongLine || end - from > LineFramer.maxLineBytes {
            discardingLongLine = false
            return .failure(LineFramer.tooLong)
        }
        return decoded.map { .success($0) } ?? .failure(LineFramer.invalidUTF8)
    }

    /// Drops the lines already read, now and then (not after every line,
    /// so a long burst of requests is read in linear time).
    mutating func compact() {
        if start > 0 && (start == input.count || start > 64 * 1024) {
            input.removeSubrange(0..<start)
            start = 0
        }
    }

    /// The line as a String, or nil when it is not valid UTF-8. ASCII (the
    /// protocol's words and nearly every argument) skips the validator.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var high: UInt8 = 0
        for b in bytes { high |= b }
        if high < 0x80 { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }
}
