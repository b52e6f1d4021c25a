import FoundationEssentials
import PreviewCore
import PreviewPlatform

/// Why a catalog request failed.
public enum CatalogError: Error, Equatable, Sendable {
    /// Deezer answered with an error object (`code` may be missing).
    case api(code: Int?, type: String?, message: String)
    /// Deezer kept answering "quota exceeded" (code 4) after the retries.
    case busy
    /// The request did not get a usable HTTP answer.
    case transport(String)
    /// The body was not the JSON expected.
    case malformed(String)
    /// An image (a cover) could not be fetched from `host`, the CDN's
    /// and not the API's: `why` is the transport error or the HTTP status.
    case image(host: String, String)
}

/// The public Deezer API over the engine's HTTP client: builds URLs under
/// `apiBase`, decodes JSON bodies, turns Deezer's HTTP-200 error objects into
/// `CatalogError.api`, and is a good citizen of the API:
/// - at most `rateLimit` requests per `rateWindow` seconds leave (Deezer
///   allows 50 per 5 s per address); the rest wait their turn;
/// - "quota exceeded" (code 4) is retried with backoff before giving up;
/// - answers are cached in memory for `cacheTTL` seconds, never longer than
///   the signed preview URLs inside them stay valid, so browsing back and
///   forth costs no requests; identical requests in flight are shared.
package final class DeezerClient {
    /// Issues one GET; the completion runs later on the control thread.
    package typealias HTTPGet = (_ url: String, _ completion: @escaping (HTTPResult) -> Void) -> Void

    /// Scheme, host and optional path prefix, without a trailing slash.
    package let apiBase: String
    private let get: HTTPGet
    /// HEAD without following redirects (share links); nil where there is
    /// no network that can (the link is then refused with a reason).
    package var head: HTTPGet?
    private let schedule: (Double, @escaping () -> Void) -> Void
    private let now: () -> Double
    private let wallClock: () -> Double
    private let decoder = JSONDecoder()

    /// Requests allowed per window.
    let rateLimit: Int
    /// The window, in seconds.
    let rateWindow: Double
    /// Retry delays after "quota exceeded", in seconds.
    let quotaBackoff: [Double]
    /// How long an answer is reused, in seconds.
    let cacheTTL: Double
    /// Most cached answers kept (oldest go first).
    let cacheCapacity = 512
    /// Most bytes of answer bodies the cache keeps (oldest go first); a
    /// body over a quarter of it is not kept. Deezer's largest answers are
    /// some 150 KB, but a hostile one may reach the 16 MiB transfer cap.
    static let cacheMaxBytes = 32 << 20
    /// Bytes of the bodies cached now.
    private var cacheBytes = 0

    /// Requests sent to the API, and answers served from the cache, since start.
    private(set) var requestsSent = 0
    private(set) var cacheHits = 0

    // The API counts a request when it arrives, somewhere between our send and
    // its answer. So a request occupies the window from its send until
    // `rateWindow` after its answer: then no `rateLimit + 1` requests can ever
    // arrive within one window, however the network delays them.
    private var inFlightCount = 0
    private var answeredAt: [Double] = []  // answer times within the window, oldest first
    private var waiting: [(url: String, done: (HTTPResult) -> Void)] = []
    private var drainScheduled = false
    /// Bodies by path, and the value last decoded from each (a queue of
    /// 100,000 songs from one album decodes each track's answer once).
    private var cache: [String: (body: [UInt8], expires: Double, decoded: Any?)] = [:]
    private var cacheOrder: [String] = []
    private var inFlight: [String: [(Result<[UInt8], CatalogError>) -> Void]] = [:]
    /// Paths Deezer answered "no data" (error 800) for, until when: asked
    /// again only after `cacheTTL`, as an answer would be.
    private var missing: [String: (error: CatalogError, expires: Double)] = [:]

    package init(
        apiBase: String, rateLimit: Int = 50, rateWindow: Double = 5, quotaBackoff: [Double] = [1, 2, 4],
        cacheTTL: Double = 600,
        now: @escaping () -> Double = SystemClock.monotonicSeconds, wallClock: @escaping () -> Double = SystemClock.unixSeconds,
        schedule: @escaping (Double, @escaping () -> Void) -> Void,
        get: @escaping HTTPGet
    ) {
        var base = apiBase
        while base.hasSuffix("/") { base.removeLast() }
        self.apiBase = base
        self.rateLimit = rateLimit
        self.rateWindow = rateWindow
        self.quotaBackoff = quotaBackoff
        self.cacheTTL = cacheTTL
        self.now = now
        self.wallClock = wallClock
        self.schedule = schedule
        self.get = get
    }

    /// The decoded answer for `path` when the cache holds a live one, at once.
    func cached<T: Decodable>(_ path: String, as type: T.Type) -> T? {
        cachedEntry(path, as: type)?.value
    }

    /// As `cached`, with when that answer expires (monotonic seconds): a
    /// value built from it stays good as long as `liveExpiry(path)` gives
    /// the same time.
    func cachedEntry<T: Decodable>(_ path: String, as type: T.Type) -> (value: T, expires: Double)? {
        guard let hit = cache[path], hit.expires > now(), let value = hit.decoded as? T else { return nil }
        cacheHits += 1
        return (value, hit.expires)
    }

    /// When the live answer the cache holds for `path` expires (monotonic
    /// seconds), or nil when it holds none; counted as a cache hit.
    func liveExpiry(_ path: String) -> Double? {
        guard let hit = cache[path], hit.expires > now() else { return nil }
        cacheHits += 1
        return hit.expires
    }

    /// GET `apiBase + path` (path starts with `/`), decoded as `T`.
    /// `fresh` skips the cache (a preview URL that was refused must be
    /// resolved anew).
    package func request<T: Decodable>(
        _ path: String, as type: T.Type, fresh: Bool = false,
        completion: @escaping (Result<T, CatalogError>) -> Void
    ) {
        if fresh {
            forget(path)
            missing[path] = nil
        }
        if let value = cached(path, as: type) {
            completion(.success(value))
            return
        }
        body(path) { [weak self, decoder] result in
            switch result {
            case .failure(let e): completion(.failure(e))
            case .success(let bytes):
                let value: T
                do { value = try decoder.decode(T.self, from: Data(bytes)) } catch {
                    completion(.failure(.malformed(DeezerClient.describe(error))))
                    return
                }
                // Only answers that decoded are worth keeping.
                self?.store(path, bytes, decoded: value)
                completion(.success(value))
            }
        }
    }

    /// Follows a `next` link from a paged answer: Deezer's links name its own
    /// host, so only the path and query are kept and put under `apiBase`.
    func path(ofNextLink link: String) -> String? {
        guard let scheme = link.firstRange(of: "://") else { return nil }
        let rest = link[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        var path = String(rest[slash...])
        // Keep previewd's own base path if it has one (e.g. a test server prefix).
        if let basePath = apiBase.firstRange(of: "://").flatMap({ r -> Substring? in
            let after = apiBase[r.upperBound...]
            return after.firstIndex(of: "/").map { after[$0...] }
        }), path.hasPrefix(String(basePath)) {
            path.removeFirst(basePath.count)
        }
        return path
    }

    /// GET an absolute URL (a cover image) as raw bytes with its content
    /// type. Not rate limited: images come from Deezer's CDN, not the API.
    func fetchBinary(url: String, completion: @escaping (Result<([UInt8], String?), CatalogError>) -> Void) {
        get(url) { result in
            guard result.status == 200, result.transportError == nil else {
                let why = result.transportError ?? "HTTP status \(result.status)"
                completion(.failure(.image(host: DeezerClient.host(of: url), why)))
                return
            }
            completion(.success((result.body, result.contentType)))
        }
    }

    /// The host (and port, when given) of an http(s) URL, for messages.
    static func host(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<end]
        // user:password@ is never worth repeating.
        return String(authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority)
    }

    // MARK: cache, sharing, retries

    /// The checked JSON body for `path`: from the cache, from a request
    /// already under way, or from a new one.
    private func body(_ path: String, completion: @escaping (Result<[UInt8], CatalogError>) -> Void) {
        let t = now()
        if let gone = missing[path] {
            if gone.expires > t {
                cacheHits += 1
                completion(.failure(gone.error))
                return
            }
            missing[path] = nil
        }
        if let hit = cache[path] {
            if hit.expires > t {
                cacheHits += 1
                completion(.success(hit.body))
                return
            }
            forget(path)
        }
        if inFlight[path] != nil {
            inFlight[path]!.append(completion)
            return
        }
        inFlight[path] = [completion]
        attempt(path, retry: 0)
    }

    private func attempt(_ path: String, retry: Int) {
        send(apiBase + path) { [weak self] result in
            guard let self else { return }
            let outcome = self.check(result)
            if case .failure(.api(code: 4, _, _)) = outcome {
                guard retry < self.quotaBackoff.count else {
                    self.finish(path, .failure(.busy))
                    return
                }
                self.schedule(self.quotaBackoff[retry]) { self.attempt(path, retry: retry + 1) }
                return
            }
            self.finish(path, outcome)
        }
    }

    private func finish(_ path: String, _ outcome: Result<[UInt8], CatalogError>) {
        if case .failure(let error) = outcome, case .api(code: 800, _, _) = error, cacheTTL > 0 {
            // Bounded like the answers: expired entries go first, then all.
            if missing.count >= cacheCapacity {
                let t = now()
                missing = missing.filter { $0.value.expires > t }
                if missing.count >= cacheCapacity { missing.removeAll() }
            }
            missing[path] = (error, now() + cacheTTL)
        }
        let waiters = inFlight.removeValue(forKey: path) ?? []
        for w in waiters { w(outcome) }
    }

    /// HTTP status, transport and Deezer error objects, in that order.
    private func check(_ result: HTTPResult) -> Result<[UInt8], CatalogError> {
        if let error = result.transportError, result.status == 0 || result.body.isEmpty {
            return .failure(.transport(error))
        }
        // Catalog text's one rule (line breaks, length) before anything reads it.
        let body = CatalogText.normalizeJSON(result.body)
        if let envelope = try? decoder.decode(DeezerErrorEnvelope.self, from: Data(body)) {
            return .failure(
                .api(
                    code: envelope.error.code, type: envelope.error.type,
                    message: envelope.error.message ?? "unknown error"))
        }
        guard result.status == 200 else { return .failure(.transport("HTTP status \(result.status)")) }
        if let error = result.transportError { return .failure(.transport(error)) }
        return .success(body)
    }

    /// Drops the cached answer for `path`, counting its bytes out.
    private func forget(_ path: String) {
        cacheBytes -= cache.removeValue(forKey: path)?.body.count ?? 0
    }

    private func store(_ path: String, _ body: [UInt8], decoded: Any? = nil) {
        if let hit = cache[path], hit.expires > now() {
            if let decoded { cache[path]!.decoded = decoded }
            return
        }
        var expires = now() + cacheTTL
        // A signed preview URL in the answer must not be handed out once
        // it is about to expire (docs/protocol.md, "Preview URLs").
        if let exp = DeezerClient.earliestExpiry(in: body) {
            expires = min(expires, now() + (Double(exp) - wallClock()) - 60)
        }
        guard expires > now(), body.count <= DeezerClient.cacheMaxBytes / 4 else { return }
        if let old = cache[path] {
            cacheBytes -= old.body.count
        } else {
            cacheOrder.append(path)
        }
        cache[path] = (body, expires, decoded)
        cacheBytes += body.count
        while cacheOrder.count > cacheCapacity || cacheBytes > DeezerClient.cacheMaxBytes {
            let old = cacheOrder.removeFirst()
            cacheBytes -= cache.removeValue(forKey: old)?.body.count ?? 0
        }
    }

    /// The smallest `exp=` Unix time in the body's signed URLs.
    package static func earliestExpiry(in body: [UInt8]) -> Int? {
        let marker = Array("exp=".utf8)
        var best: Int?
        var i = 0
        while i + marker.count < body.count {
            if body[i] == marker[0], Array(body[i..<(i + marker.count)]) == marker {
                var j = i + marker.count
                var value = 0
                var digits = 0
                while j < body.count, body[j] >= 48, body[j] <= 57, digits < 12 {
                    value = value * 10 + Int(body[j] - 48)
                    j += 1
                    digits += 1
                }
                if digits >= 9 { best = min(best ?? value, value) }
                i = j
            } else {
                i += 1
            }
        }
        return best
    }

    // MARK: rate limit

    /// Sends now if the window allows, else queues the request.
    private func send(_ url: String, done: @escaping (HTTPResult) -> Void) {
        waiting.append((url, done))
        drain()
    }

    private func drain() {
        let t = now()
        answeredAt.removeAll { $0 <= t - rateWindow }
        while !waiting.isEmpty, inFlightCount + answeredAt.count < rateLimit {
            let (url, done) = waiting.removeFirst()
            inFlightCount += 1
            requestsSent += 1
            get(url) { [weak self] result in
                if let self {
                    self.inFlightCount -= 1
                    self.answeredAt.append(self.now())
                }
                done(result)
                self?.drain()
            }
        }
        if !waiting.isEmpty, !drainScheduled, let oldest = answeredAt.first {
            drainScheduled = true
            schedule(max(0.001, oldest + rateWindow - t)) { [weak self] in
                self?.drainScheduled = false
                self?.drain()
            }
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted: return "the body is not valid JSON"
        case DecodingError.keyNotFound(let key, _): return "field \"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "field \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
        default: return "\(error)"
        }
    }
}

extension CatalogError {
    /// The ACK for a client, naming `item` (e.g. `deezer:track:-1`).
    package func protocolError(item: String) -> ProtocolError {
        switch self {
        case .api(let code, _, let message):
            if code == 800 { return ProtocolError(.noExist, "\(item): not found (Deezer: \(message), error 800)") }
            let codeText = code.map { " (Deezer error \($0))" } ?? ""
            return ProtocolError(.system, "\(item): \(message)\(codeText)")
        case .busy:
            return ProtocolError(.updateAlready, "\(item): the Deezer API is busy (request quota exceeded); try again in a few seconds")
        case .transport(let why):
            return ProtocolError(.system, "\(item): cannot reach the Deezer API: \(why)")
        case .malformed(let why):
            return ProtocolError(.system, "\(item): unexpected answer from the Deezer API: \(why)")
        case .image(let host, let why):
            return ProtocolError(.system, "\(item): cannot fetch the cover from \(host): \(why)")
        }
    }
}
