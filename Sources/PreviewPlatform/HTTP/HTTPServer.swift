import CMicrohttpd
import Glibc
import PreviewPlatform

/// One HTTP request, as `HTTPServer` hands it to its handler.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, ...
    public let method: String
    /// The path, without the query.
    public let path: String
    /// The query's `name=value` arguments, decoded, in order (a name may
    /// come more than once).
    public let query: [(String, String)]
    /// The headers asked for at start (`HTTPServer.init`'s `headers`), by
    /// the name given there; a header the request lacks is absent.
    public let headers: [String: String]

    public init(method: String, path: String, query: [(String, String)] = [], headers: [String: String]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// The values of query argument `name`, in order.
    public func arguments(_ name: String) -> [String] { query.filter { $0.0 == name }.map(\.1) }
}

/// A response body sent as it is made, of unknown length (chunked): a
/// Server-Sent Events stream. `next` is called on the connection's own
/// thread and may block until there is something to send.
public protocol HTTPStream: AnyObject, Sendable {
    /// The next bytes to send; nil ends the response.
    func next() -> [UInt8]?
    /// The connection is gone (the client left, or the stream ended).
    func close()
}

/// One HTTP response: status, headers, and a body sent whole or, with
/// `stream`, as it is made.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// When set, the body (`body` is not sent).
    public var stream: HTTPStream?

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], stream: HTTPStream? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = stream
    }
}

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

    private final class Context: Sendable {
        let headers: [String]
        let handler: @Sendable (HTTPRequest) -> HTTPResponse
        init(headers: [String], handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
            self.headers = headers
            self.handler = handler
        }
    }

    /// Starts listening.
    /// - Parameters:
    ///   - address: dotted IPv4 (`127.0.0.1`).
    ///   - port: 0 for any free port.
    ///   - maxConnections: connections served at once, each a thread (more
    ///     are closed at once: a browser keeps up to 6 idle ones a host).
    ///   - idleTimeout: seconds a connection may stay silent before it is closed.
    ///   - headers: the request headers the handler reads.
    /// - Throws: `SystemError` of `inet_pton` for a bad address, or of
    ///   `MHD_start_daemon` (with errno: the port in use, no permission).
    public init(address: String, port: Int, maxConnections: Int = 256, idleTimeout: Int = 15, headers: [String],
                handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(SystemError) {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else {
            throw SystemError("inet_pton", errno: EINVAL, path: address)
        }
        let context = Unmanaged.passRetained(Context(headers: headers, handler: handler))
        errno = 0
        guard let daemon = pv_mhd_start(&socketAddress, UInt32(maxConnections), UInt32(idleTimeout), HTTPServer.access,
                                        context.toOpaque()) else {
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
        var headers: [String: String] = [:]
        for name in box.headers {
            if let value = pv_mhd_header(connection, name) { headers[name] = String(cString: value) }
        }
        let full = url.map { String(cString: $0) } ?? "/"
        let path = full.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        let request = HTTPRequest(method: method.map { String(cString: $0) } ?? "GET", path: path,
                                  query: queryArguments(connection), headers: headers)
        let answer = box.handler(request)
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

/// The query's arguments of a request, through `MHD_get_connection_values`.
private func queryArguments(_ connection: OpaquePointer) -> [(String, String)] {
    var found: [(String, String)] = []
    withUnsafeMutablePointer(to: &found) { pointer in
        _ = pv_mhd_query(connection, { context, _, key, value in
            guard let context, let key else { return pv_mhd_yes() }
            let list = context.assumingMemoryBound(to: [(String, String)].self)
            list.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
            return pv_mhd_yes()
        }, pointer)
    }
    return found
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
