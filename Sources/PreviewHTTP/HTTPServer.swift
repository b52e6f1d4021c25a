import CMicrohttpd
import Glibc
import PreviewPlatform
import Synchronization

/// An HTTP server on one IPv4 address, owning libmicrohttpd's daemon
/// (`MHD_start_daemon`, `MHD_stop_daemon`). Each connection has its own
/// thread, so a handler may block (on the MPD socket); the handler is
/// called on those threads, as is a streamed body's `next`. A request body
/// is read and dropped: the routes take none (their arguments are in the
/// query). Hostile clients meet, before any handler: the accept policy, a
/// limit of connections per client address, a deadline for each whole
/// request (`HTTPRequestDeadlines`), a 400 for a URL holding `%00`, and
/// with credentials the password's throttle (`HTTPPasswordThrottle`).
public final class HTTPServer {
    private let daemon: OpaquePointer
    private let context: Unmanaged<Context>
    /// The port listened on (the one chosen when 0 was asked for).
    public let port: Int

    /// Whether to serve a new client (`client`), asked on the listening
    /// thread before the connection has a thread; `server` is the address
    /// and port listened on (the port 0 until known).
    public typealias AcceptPolicy = @Sendable (_ client: IPv4Endpoint, _ server: IPv4Endpoint) -> Bool

    // Unchecked: `random` is written once, here, and only read afterwards
    // (by libmicrohttpd); the port is atomic; everything else is immutable
    // and Sendable.
    final class Context: @unchecked Sendable {
        let headers: [String]
        let credentials: HTTPCredentials?
        let authentication: HTTPAuthenticationState
        let deadlines: HTTPRequestDeadlines
        let acceptPolicy: AcceptPolicy?
        /// `in_addr.s_addr` of the address listened on.
        let address: UInt32
        let port: Atomic<UInt16>
        /// Seeds the digest nonces (MHD_OPTION_DIGEST_AUTH_RANDOM keeps a pointer to it).
        let random: UnsafeMutableRawBufferPointer
        let handler: @Sendable (HTTPRequest) -> HTTPResponse
        init(
            headers: [String], credentials: HTTPCredentials?, deadline: Double, acceptPolicy: AcceptPolicy?,
            address: sockaddr_in, log: @escaping @Sendable (String) -> Void,
            handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
        ) {
            self.headers = headers
            self.credentials = credentials
            authentication = HTTPAuthenticationState(log: log)
            deadlines = HTTPRequestDeadlines(seconds: deadline)
            self.acceptPolicy = acceptPolicy
            self.address = address.sin_addr.s_addr
            port = Atomic(UInt16(bigEndian: address.sin_port))
            random = .allocate(byteCount: 32, alignment: 8)
            for i in random.indices { random[i] = UInt8.random(in: .min ... .max) }
            self.handler = handler
        }
        deinit { random.deallocate() }

        /// The endpoint listened on.
        var listening: IPv4Endpoint { IPv4Endpoint(address: address, port: port.load(ordering: .relaxed)) }
    }

    /// Starts listening.
    /// - Parameters:
    ///   - address: dotted IPv4 (`127.0.0.1`).
    ///   - port: 0 for any free port.
    ///   - maxConnections: connections served at once, each a thread (more
    ///     are closed at once: a browser keeps up to 6 idle ones a host).
    ///   - maxConnectionsPerAddress: of those, from one client address (a
    ///     browser needs 6 and an event stream).
    ///   - idleTimeout: seconds a connection may stay silent before it is closed.
    ///   - requestDeadline: seconds a connection has to send a whole
    ///     request, from its opening or its last answer, however it
    ///     dribbles it.
    ///   - headers: the request headers the handler reads.
    ///   - credentials: asked of every request before the handler sees it
    ///     (401 with a challenge otherwise); nil: none.
    ///   - acceptPolicy: asked of each new client; nil: all are served.
    ///   - log: where a line about an attack goes (a lockout); without the program's name.
    /// - Throws: `SystemError` of `inet_pton` for a bad address, or of
    ///   `MHD_start_daemon` (with errno: the port in use, no permission).
    public init(
        address: String, port: Int, maxConnections: Int = 256, maxConnectionsPerAddress: Int = 16,
        idleTimeout: Int = 15, requestDeadline: Double = 10, headers: [String],
        credentials: HTTPCredentials? = nil, acceptPolicy: AcceptPolicy? = nil,
        log: @escaping @Sendable (String) -> Void = { _ in },
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws(SystemError) {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else {
            throw SystemError("inet_pton", errno: EINVAL, path: address)
        }
        let box = Context(
            headers: headers, credentials: credentials, deadline: requestDeadline, acceptPolicy: acceptPolicy,
            address: socketAddress, log: log, handler: handler)
        let context = Unmanaged.passRetained(box)
        errno = 0
        guard
            let daemon = pv_mhd_start(
                &socketAddress, UInt32(maxConnections), UInt32(maxConnectionsPerAddress),
                UInt32(idleTimeout), HTTPServer.access, context.toOpaque(),
                box.random.baseAddress, box.random.count, acceptPolicy == nil ? nil : HTTPServer.accept,
                HTTPServer.notify, HTTPServer.completed, HTTPServer.uri)
        else {
            box.deadlines.stop()
            context.release()
            throw SystemError("MHD_start_daemon", errno: errno == 0 ? EADDRINUSE : errno, path: "\(address):\(port)")
        }
        self.daemon = daemon
        self.context = context
        self.port = Int(pv_mhd_port(daemon))
        box.port.store(UInt16(clamping: self.port), ordering: .relaxed)
    }

    deinit {
        MHD_stop_daemon(daemon)
        context.takeUnretainedValue().deadlines.stop()
        context.release()
    }

    /// libmicrohttpd's access handler: called once with the headers (kept
    /// for later by marking `state`), then with any body chunks (dropped),
    /// then once more to answer. A URL that held `%00` (marked by `uri`)
    /// is answered 400 at once: libmicrohttpd decodes the path and the NUL
    /// would cut it (`/app.js%00.html` would serve the script).
    private static let access: MHD_AccessHandlerCallback = { context, connection, url, method, _, _, uploadSize, state in
        guard let context, let connection, let uploadSize, let state else { return pv_mhd_no() }
        if state.pointee == nil || state.pointee == RequestMark.urlHoldsNUL {
            if state.pointee == RequestMark.urlHoldsNUL {
                let refusal = Array("the URL holds a NUL\n".utf8)
                return queue(
                    HTTPResponse(status: 400, headers: [("Content-Type", "text/plain; charset=utf-8")], body: refusal),
                    on: connection)
            }
            state.pointee = RequestMark.headersRead
            return pv_mhd_yes()
        }
        if uploadSize.pointee != 0 {
            uploadSize.pointee = 0
            return pv_mhd_yes()
        }
        let box = Unmanaged<Context>.fromOpaque(context).takeUnretainedValue()
        box.deadlines.forget(connection)
        var setCookie: String?
        if let credentials = box.credentials {
            switch credentials.authorize(connection, client: clientAddress(connection), state: box.authentication) {
            case .answered(let queued): return queued
            case .allow(let cookie): setCookie = cookie
            }
        }
        let (headers, repeated) = requestHeaders(connection, wanted: box.headers)
        let full = url.map { String(cString: $0) } ?? "/"
        let path = full.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        let request = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "GET", path: path,
            query: queryArguments(connection), headers: headers, repeatedHeaders: repeated,
            client: pv_mhd_socket(connection))
        var answer = box.handler(request)
        if let setCookie { answer.headers.append(("Set-Cookie", setCookie)) }
        return queue(answer, on: connection)
    }

    /// Queues `answer` (`MHD_queue_response`), whole or streamed.
    static func queue(_ answer: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
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

/// A value as libmicrohttpd hands it, read to its length (not to a NUL,
/// which would cut it short; a URL holding `%00` is refused before this).
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
        _ = pv_mhd_values(
            connection, query ? 1 : 0,
            { context, _, key, keySize, value, valueSize in
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
