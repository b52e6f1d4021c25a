import CZlib

/// gzip (RFC 1952) by zlib, for answers sent with `Content-Encoding: gzip`.
public enum Gzip {
    /// The gzip member of `bytes`, compressed at zlib's `level` (1 fastest
    /// to 9 smallest; the page's files, compressed once, take 9).
    /// - Returns: nil when zlib fails (no memory): the caller sends `bytes` as they are.
    /// - Note: wraps `deflateInit2` (gzip window bits), `deflate` with `Z_FINISH`, `deflateEnd`.
    public static func compress(_ bytes: [UInt8], level: Int32 = 9) -> [UInt8]? {
        var stream = z_stream()
        guard pv_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        let status: Int32 = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output[..<Int(stream.total_out)])
    }
}
