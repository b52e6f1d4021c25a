import PreviewPlatform

/// One HTTP request, as `HTTPServer` hands it to its handler.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, ...
    public let method: String
    /// The path, without the query.
    public let path: String
    /// The query's `name=value` arguments, percent-decoded, in order; a
    /// name may come more than once. None holds a NUL: `HTTPServer`
    /// refuses a URL holding `%00` before any handler.
    public let query: [(String, String)]
    /// The headers asked for at start (`HTTPServer.init`'s `headers`), by
    /// the name given there, the first of each; a header the request lacks
    /// is absent.
    public let headers: [String: String]
    /// Those of the asked-for headers the request sent more than once.
    public let repeatedHeaders: [String]
    /// The connection's socket, for a stream to see its client leave
    /// (-1 when unknown). Not to be read or written: libmicrohttpd owns it.
    public let client: Int32

    public init(
        method: String, path: String, query: [(String, String)] = [], headers: [String: String],
        repeatedHeaders: [String] = [], client: Int32 = -1
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.repeatedHeaders = repeatedHeaders
        self.client = client
    }

    /// The values of query argument `name`, in order.
    public func arguments(_ name: String) -> [String] { query.filter { $0.0 == name }.map(\.1) }

    /// Bytes of the query's names and values, decoded.
    public var queryBytes: Int { query.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count } }
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
