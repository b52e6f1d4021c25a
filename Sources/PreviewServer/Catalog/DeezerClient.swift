import FoundationEssentials
import PreviewCore

/// Why a catalog request failed.
public enum CatalogError: Error, Equatable, Sendable {
    /// Deezer answered with an error object (`code` may be missing).
    case api(code: Int?, type: String?, message: String)
    /// The request did not get a usable HTTP answer.
    case transport(String)
    /// The body was not the JSON expected.
    case malformed(String)

    /// The ACK for a client, naming `item` (e.g. `deezer:track:-1`).
    public func protocolError(item: String) -> ProtocolError {
        switch self {
        case .api(let code, _, let message):
            let codeText = code.map { " (Deezer error \($0))" } ?? ""
            return ProtocolError(code == 800 ? .noExist : code == 4 ? .updateAlready : .system,
                                 "\(item): \(message)\(codeText)")
        case .transport(let why):
            return ProtocolError(.system, "\(item): cannot reach the Deezer API: \(why)")
        case .malformed(let why):
            return ProtocolError(.system, "\(item): unexpected answer from the Deezer API: \(why)")
        }
    }
}

/// The public Deezer API over the engine's HTTP client: builds URLs under
/// `apiBase`, decodes JSON bodies, and turns Deezer's HTTP-200 error objects
/// into `CatalogError.api`.
final class DeezerClient {
    /// Issues one GET; the completion runs later on the control thread.
    typealias HTTPGet = (_ url: String, _ completion: @escaping (HTTPResult) -> Void) -> Void

    /// Scheme, host and optional path prefix, without a trailing slash.
    let apiBase: String
    private let get: HTTPGet
    private let decoder = JSONDecoder()

    init(apiBase: String, get: @escaping HTTPGet) {
        var base = apiBase
        while base.hasSuffix("/") { base.removeLast() }
        self.apiBase = base
        self.get = get
    }

    /// GET `apiBase + path` (path starts with `/`), decoded as `T`.
    func request<T: Decodable>(_ path: String, as type: T.Type, completion: @escaping (Result<T, CatalogError>) -> Void) {
        fetch(url: apiBase + path, as: type, completion: completion)
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

    /// GET an absolute URL (a cover image) as raw bytes with its content type.
    func fetchBinary(url: String, completion: @escaping (Result<([UInt8], String?), CatalogError>) -> Void) {
        get(url) { result in
            guard result.status == 200, result.transportError == nil else {
                completion(.failure(.transport(result.transportError ?? "HTTP status \(result.status)")))
                return
            }
            completion(.success((result.body, result.contentType)))
        }
    }

    private func fetch<T: Decodable>(url: String, as type: T.Type, completion: @escaping (Result<T, CatalogError>) -> Void) {
        get(url) { [decoder] result in
            if let error = result.transportError, result.status == 0 || result.body.isEmpty {
                completion(.failure(.transport(error)))
                return
            }
            guard result.status == 200 else {
                completion(.failure(.transport("HTTP status \(result.status)")))
                return
            }
            let data = Data(result.body)
            if let envelope = try? decoder.decode(DeezerErrorEnvelope.self, from: data) {
                completion(.failure(.api(code: envelope.error.code, type: envelope.error.type,
                                         message: envelope.error.message ?? "unknown error")))
                return
            }
            do {
                completion(.success(try decoder.decode(T.self, from: data)))
            } catch {
                completion(.failure(.malformed("\(error)")))
            }
        }
    }
}
