import CMicrohttpd
import Glibc
import PreviewPlatform

/// An HTTP server on one IPv4 address, owning libmicrohttpd's daemon
/// (`MHD_start_daemon`, `MHD_stop_daemon`). Each connection has its own
/// thread, so a handler may block (on the MPD socket); the handler is
/// called on those threads, as is a streamed body's `next`. A request body
/// is read and dropped: the routes take none (their arguments are in the
/// query).
public final class HTTPServer {
    private let daemon: OpaquePointer
    private let context: Unmanaged<Context>
    /// The port listened on (the one chosen when 0 was asked for).
    public let port: Int

    // Unchecked: `random` is written once, here, and only read afterwards
    // (by libmicrohttpd); everything else is immutable and Sendable.
    private final class Context: @unchecked Sendable {
        let headers: [String]
        let credentials: HTTPCredentials?
        let sessions = HTTPSessions()
        /// Seeds the digest nonces (MHD_OPTION_DIGEST_AUTH_RANDOM keeps a pointer to it).
        let random: UnsafeMutableRawBufferPointer
        let handler: @Sendable (HTTPRequest) -> HTTPResponse
        init(headers: [String], credentials: HTTPCredentials?, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
            self.headers = headers
            self.credentials = credentials
            random = .allocate(byteCount: 32, alignment: 8)
            for i in random.indices { random[i] = UInt8.random(in: .min ... .max) }
            self.handler = handler
        }
        deinit { random.deallocate() }
    }

    /// Starts listening.
    /// - Parameters:
    ///   - address: dotted IPv4 (`127.0.0.1`).
    ///   - port: 0 for any free port.
    ///   - maxConnections: connections served at once, each a thread (more
    ///     are closed at once: a browser keeps up to 6 idle ones a host).
    ///   - idleTimeout: seconds a connection may stay silent before it is closed.
    ///   - headers: the request headers the handler reads.
    ///   - credentials: asked of every request before the handler sees it
    ///     (401 with a challenge otherwise); nil: none.
    /// - Throws: `SystemError` of `inet_pton` for a bad address, or of
    ///   `MHD_start_daemon` (with errno: the port in use, no permission).
    public init(address: String, port: Int, maxConnections: Int = 256, idleTimeout: Int = 15, headers: [String],
                credentials: HTTPCredentials? = nil,
                handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(SystemError) {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else {
            throw SystemError("inet_pton", errno: EINVAL, path: address)
        }
        let box = Context(headers: headers, credentials: credentials, handler: handler)
        let context = Unmanaged.passRetained(box)
        errno = 0
        guard let daemon = pv_mhd_start(&socketAddress, UInt32(maxConnections), UInt32(idleTimeout), HTTPServer.access,
                                        context.toOpaque(), box.random.baseAddress, box.random.count) else {
            context.release()
            throw SystemError("MHD_start_daemon", errno: errno == 0 ? EADDRINUSE : errno, path: "\(address):\(port)")
        }
        self.daemon = daemon
        self.context = context
        self.port = Int(pv_mhd_port(daemon))
    }

    deinit {
        MHD_stop_daemon(daemon)
        context.release()
    }

    /// libmicrohttpd's access handler: called once with the headers (kept
    /// for later by marking `state`), then with any body chunks (dropped),
    /// then once more to answer.
    private static let access: MHD_AccessHandlerCallback = { context, connection, url, method, _, _, uploadSize, state in
        guard let context, let connection, let uploadSize, let state else { return pv_mhd_no() }
        if state.pointee == nil {
            state.pointee = UnsafeMutableRawPointer(bitPattern: 1)
            return pv_mhd_yes()
        }
        if uploadSize.pointee != 0 {
            uploadSize.pointee = 0
            return pv_mhd_yes()
        }
        let box = Unmanaged<Context>.fromOpaque(context).takeUnretainedValue()
        var setCookie: String?
        if let credentials = box.credentials {
            switch credentials.authorize(connection, sessions: box.sessions) {
            case .challenged(let queued): return queued
            case .allow(let cookie): setCookie = cookie
            }
        }
        let (headers, repeated) = requestHeaders(connection, wanted: box.headers)
        let full = url.map { String(cString: $0) } ?? "/"
        let path = full.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        let request = HTTPRequest(method: method.map { String(cString: $0) } ?? "GET", path: path,
                                  query: queryArguments(connection), headers: headers, repeatedHeaders: repeated,
                                  client: pv_mhd_socket(connection))
        var answer = box.handler(request)
        if let setCookie { answer.headers.append(("Set-Cookie", setCookie)) }
        return queue(answer, on: connection)
    }

    /// Queues `answer` (`MHD_queue_response`), whole or streamed.
    private static func queue(_ answer: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer?
        if let stream = answer.stream {
            let reader = Unmanaged.passRetained(StreamReader(stream))
            made = pv_mhd_response_stream(16384, streamRead, reader.toOpaque(), streamDone)
            if made == nil { reader.takeRetainedValue().stream.close() }
        } else {
            made = answer.body.withUnsafeBytes { bytes in pv_mhd_response_copy(bytes.count, bytes.baseAddress) }
        }
        guard let response = made else { return pv_mhd_no() }
        for (name, value) in answer.headers { _ = MHD_add_response_header(response, name, value) }
        let queued = MHD_queue_response(connection, UInt32(answer.status), response)
        MHD_destroy_response(response)
        return queued
    }
}

/// A value as libmicrohttpd hands it with its length: a decoded NUL stays
/// in the text (as U+0000), for the routes to refuse.
private func text(_ bytes: UnsafePointer<CChar>?, _ count: Int) -> String {
    guard let bytes else { return "" }
    return bytes.withMemoryRebound(to: UInt8.self, capacity: count) {
        String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
    }
}

/// The pairs of one kind (`MHD_get_connection_values_n`).
private func pairs(_ connection: OpaquePointer, query: Bool) -> [(String, String)] {
    var found: [(String, String)] = []
    withUnsafeMutablePointer(to: &found) { pointer in
        _ = pv_mhd_values(connection, query ? 1 : 0, { context, _, key, keySize, value, valueSize in
            guard let context else { return pv_mhd_yes() }
            context.assumingMemoryBound(to: [(String, String)].self).pointee.append((text(key, keySize), text(value, valueSize)))
            return pv_mhd_yes()
        }, pointer)
    }
    return found
}

/// The query's arguments of a request, in order.
private func queryArguments(_ connection: OpaquePointer) -> [(String, String)] { pairs(connection, query: true) }

/// The `wanted` headers (matched without regard to case), the first of
/// each, and those sent more than once.
private func requestHeaders(_ connection: OpaquePointer, wanted: [String]) -> ([String: String], [String]) {
    var headers: [String: String] = [:]
    var repeated: [String] = []
    for (name, value) in pairs(connection, query: false) {
        guard let asked = wanted.first(where: { $0.lowercased() == name.lowercased() }) else { continue }
        if headers[asked] == nil { headers[asked] = value } else if !repeated.contains(asked) { repeated.append(asked) }
    }
    return (headers, repeated)
}

/// A streamed body as libmicrohttpd reads it: what `next` gave beyond the
/// block asked for waits here for the following call.
private final class StreamReader {
    let stream: HTTPStream
    var pending: [UInt8] = []
    init(_ stream: HTTPStream) { self.stream = stream }
}

/// The content reader (`MHD_ContentReaderCallback`): copies up to `max`
/// bytes, asking the stream for more when nothing waits.
private let streamRead: MHD_ContentReaderCallback = { context, _, buffer, max in
    guard let context, let buffer else { return pv_mhd_end_of_stream() }
    let reader = Unmanaged<StreamReader>.fromOpaque(context).takeUnretainedValue()
    while reader.pending.isEmpty {
        guard let more = reader.stream.next() else { return pv_mhd_end_of_stream() }
        reader.pending = more
    }
    let n = min(max, reader.pending.count)
    reader.pending.withUnsafeBytes { bytes in
        UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: n)
    }
    reader.pending.removeFirst(n)
    return n
}

/// The free callback (`MHD_ContentReaderFreeCallback`): the response is done with.
private let streamDone: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let reader = Unmanaged<StreamReader>.fromOpaque(context).takeRetainedValue()
    reader.stream.close()
}
