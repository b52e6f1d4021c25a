import PreviewCore

/// previewweb's relay of previewd's HTTP stream ("Play on this device",
/// issue 43): which stream a request names, and where previewd serves it,
/// read from the `outputs` reply. Pure: `WebApp` asks previewd and
/// connects.
public enum WebStream {
    /// The formats relayed: the request's path, and its `Content-Type`.
    public static let formats: [String: String] = ["/stream.mp3": "audio/mpeg", "/stream.flac": "audio/flac"]

    /// Relays open at once, at most: each holds a thread of previewweb's,
    /// one of previewd's 16 listeners and an encoder's share, and a page
    /// needs one.
    public static let maxRelays = 8

    /// Where an enabled HTTP stream output listens, as previewweb may reach it.
    public struct Source: Equatable, Sendable {
        /// The dotted IPv4 address to connect to (a loopback one).
        public let address: String
        /// Its port.
        public let port: Int
    }

    /// Why no stream can be relayed: an HTTP status and a line for the page.
    public struct Refusal: Error, Equatable, Sendable {
        public let status: Int
        public let reason: String
    }

    /// The stream of the first enabled HTTP stream output in an `outputs`
    /// reply (its `attribute: stream=http://HOST:PORT/`).
    /// - Throws: `Refusal` 404 when there is none (or none enabled), 502
    ///   when it listens beyond loopback: previewd then asks for a password
    ///   previewweb does not have, and previewweb connects to loopback only,
    ///   where previewd's stream lets its own uid in.
    public static func source(outputs reply: [(String, String)]) throws(Refusal) -> Source {
        var sawDisabled = false
        for output in records(reply) where output["plugin"] == "httpd" {
            guard output["outputenabled"] == "1" else {
                sawDisabled = true
                continue
            }
            guard let url = output["stream"], let source = loopback(url) else {
                throw Refusal(
                    status: 502,
                    reason: "previewd's HTTP stream is not on loopback without a password: "
                        + "previewweb relays only --output http:127.0.0.1:PORT")
            }
            return source
        }
        throw Refusal(
            status: 404,
            reason: sawDisabled
                ? "previewd's HTTP stream output is disabled (enableoutput)"
                : "previewd has no HTTP stream output (start it with --output http:127.0.0.1:PORT)")
    }

    /// The outputs of an `outputs` reply, each a record opened by
    /// `outputid`; an `attribute: NAME=VALUE` line is kept as `NAME`.
    static func records(_ reply: [(String, String)]) -> [[String: String]] {
        var out: [[String: String]] = []
        for (key, value) in reply {
            if key == "outputid" { out.append([:]) }
            guard !out.isEmpty else { continue }
            if key == "attribute", let equals = value.firstIndex(of: "=") {
                out[out.count - 1][String(value[..<equals])] = String(value[value.index(after: equals)...])
            } else {
                out[out.count - 1][key] = value
            }
        }
        return out
    }

    /// The source of `http://127.X.X.X:PORT/`, nil for another host: a
    /// reply is never a reason to connect beyond this machine.
    static func loopback(_ url: String) -> Source? {
        guard url.hasPrefix("http://") else { return nil }
        let rest = url.dropFirst("http://".count)
        let authority = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let port = Int(parts[1]), (1...65535).contains(port) else { return nil }
        let octets = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ !$0.isEmpty && $0.count <= 3 && UInt8($0) != nil }),
            octets[0] == "127"
        else { return nil }
        return Source(address: String(parts[0]), port: port)
    }
}
