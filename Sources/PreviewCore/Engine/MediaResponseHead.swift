/// What the engine makes of a media response's head (status line and
/// headers, as libcurl hands them over) before the first body byte is
/// fed to the decoder: play it, skip a prefix of it, or give it up.
/// Pure, so that unit tests and the fuzzer reach it without a server.
public struct MediaResponseHead: Equatable, Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The `Content-Type` value, when the server sent one.
    public var contentType: String?
    /// The `Content-Range` value, when the server sent one.
    public var contentRange: String?

    /// - Parameters: as the properties.
    public init(status: Int, contentType: String? = nil, contentRange: String? = nil) {
        self.status = status
        self.contentType = contentType
        self.contentRange = contentRange
    }

    /// How many body bytes to drop before the byte asked for, or why the
    /// response cannot be used.
    /// - Parameters:
    ///   - rangeStart: the first byte asked for with `Range: bytes=N-`
    ///     (0: no Range request).
    ///   - rangeRequired: a 200 (the whole body, Range ignored) is a
    ///     failure rather than a prefix to skip (a seek's probe).
    public func bytesToSkip(rangeStart: Int, rangeRequired: Bool) -> Result<Int, StreamFailure> {
        var skip = 0
        if rangeStart > 0 && status == 200 {
            if rangeRequired { return .failure(.transport("the server ignores Range requests")) }
            skip = rangeStart
        }
        if rangeStart > 0 && status == 206, let contentRange {
            // The part sent is the one Content-Range names, which may start
            // before the byte asked for (never after it: the bytes between
            // would be missing). One that cannot be read names no part.
            guard let start = Self.contentRangeStart(contentRange) else {
                return .failure(.transport("the server sent an unreadable Content-Range: \(contentRange)"))
            }
            guard start <= rangeStart else {
                return .failure(.transport("the server sent bytes from \(start) on, not from \(rangeStart)"))
            }
            skip = rangeStart - start
        }
        if status >= 400 { return .failure(.httpStatus(status)) }
        if let type = contentType?.lowercased(), type.hasPrefix("text/") || type.contains("html") || type.contains("json") {
            return .failure(.notAudio("the server sent \(type)"))
        }
        return .success(skip)
    }

    /// The first byte of `bytes START-END/TOTAL` (RFC 9110, 14.4), or nil
    /// when the value is not of that form or START does not fit an `Int`.
    public static func contentRangeStart(_ value: String) -> Int? {
        let trimmed = value.drop(while: { $0 == " " })
        guard trimmed.hasPrefix("bytes ") else { return nil }
        guard let start = Int(trimmed.dropFirst(6).prefix(while: { $0 != "-" }).trimmingPrefix(" ")), start >= 0 else { return nil }
        return start
    }
}
