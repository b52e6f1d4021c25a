import CMicrohttpd
import Glibc
import PreviewPlatform

/// One HTTP request, as `HTTPServer` hands it to its handler.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, ...
    public let method: String
    /// The path, without the query.
    public let path: String
    /// The headers asked for at start (`HTTPServer.init`'s `headers`), by
    /// the name given there; a header the request lacks is absent.
    public let headers: [String: String]

    public init(method: String, path: String, headers: [String: String]) {
        self.method = method
        self.path = path
        self.headers = headers
    }
}

/// One HTTP response: status, headers, body (sent whole).
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// An HTTP server on one IPv4 address, owning libmicrohttpd's daemon
/// (`MHD_start_daemon`, `MHD_stop_daemon`). Each connection has its own
/// thread, so a handler may block (on the MPD socket); the handler is
/// called on those threads. A request body is read and dropped: the routes
/// take none.
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
    ///   - maxConnections: connections served at once (more wait in the backlog).
    ///   - headers: the request headers the handler reads.
    /// - Throws: `SystemError` of `inet_pton` for a bad address, or of
    ///   `MHD_start_daemon` (with errno: the port in use, no permission).
    public init(address: String, port: Int, maxConnections: Int = 64, headers: [String],
                handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(SystemError) {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else {
            throw SystemError("inet_pton", errno: EINVAL, path: address)
        }
        let context = Unmanaged.passRetained(Context(headers: headers, handler: handler))
        errno = 0
        guard let daemon = pv_mhd_start(&socketAddress, UInt32(maxConnections), 60, HTTPServer.access,
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
        let request = HTTPRequest(method: method.map { String(cString: $0) } ?? "GET", path: path, headers: headers)
        let answer = box.handler(request)
        let response = answer.body.withUnsafeBytes { bytes in
            pv_mhd_response_copy(bytes.count, bytes.baseAddress)
        }
        guard let response else { return pv_mhd_no() }
        for (name, value) in answer.headers { _ = MHD_add_response_header(response, name, value) }
        let queued = MHD_queue_response(connection, UInt32(answer.status), response)
        MHD_destroy_response(response)
        return queued
    }
}
