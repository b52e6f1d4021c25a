/// The result of an HTTP GET.
public struct HTTPResult: Sendable {
    /// HTTP status code, or 0 when no response arrived.
    public var status: Int
    /// The `Content-Type` header, when present.
    public var contentType: String?
    /// The body bytes.
    public var body: [UInt8]
    /// The transport error text (curl's) when the transfer failed.
    public var transportError: String?
    /// Where a redirect not followed points (a `head`'s 3xx `Location`,
    /// made absolute), else nil.
    public var location: String?
    /// - Parameters: as the properties.
    public init(status: Int, contentType: String?, body: [UInt8], transportError: String?, location: String? = nil) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.transportError = transportError
        self.location = location
    }
}

/// HTTP GET for the catalog clients (Deezer's API, Last.fm, cover images):
/// the whole body in memory. The curl network (`PreviewAudio.CurlNetwork`)
/// implements it, and the engine fetches previews over the same network.
public protocol HTTPClient: AnyObject, Sendable {
    /// Fetches `url` (http or https, redirects followed) with GET (RFC 9110
    /// section 9.3.1). `completion` is called once, on a network thread, with
    /// the status, the body and any transport error.
    func get(_ url: String, completion: @escaping @Sendable (HTTPResult) -> Void)

    /// Asks for `url` with HEAD (RFC 9110 section 9.3.2), redirects NOT
    /// followed: the status, and a redirect's target in `location`. No body
    /// is downloaded (share links are resolved this way).
    func head(_ url: String, completion: @escaping @Sendable (HTTPResult) -> Void)
}
