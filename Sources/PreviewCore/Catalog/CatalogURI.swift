/// What a client may pass to `add`/`addid` (docs/protocol.md, "What can be queued"): a Deezer
/// catalog item, in `deezer:KIND:ID` form or as a pasted web link, or a
/// direct `http(s)://` MP3 URL.
public enum CatalogURI: Equatable, Sendable {
    /// One track: `deezer:track:ID`.
    case track(Int)
    /// Every track of an album: `deezer:album:ID`.
    case album(Int)
    /// Every track of a playlist: `deezer:playlist:ID`.
    case playlist(Int)
    /// The artist's top tracks: `deezer:artist:ID`.
    case artist(Int)
    /// A Deezer radio (a mix of tracks): `deezer:radio:ID`.
    case radio(Int)
    /// Deezer's current top tracks: `deezer:chart`.
    case chart
    /// A direct MP3 URL, played as it is.
    case stream(String)

    /// Parses `text`.
    /// - Throws: as mpd answers: `.argument` "Unsupported URI scheme" for
    ///   schemes other than http(s) (ftp:// too: previewd plays web URLs only),
    ///   `.permission` "Access denied" for file://, `.noExist` "No such
    ///   directory" for a plain path; `.argument` for a malformed Deezer URI.
    public init(parsing text: String) throws(ProtocolError) {
        // A NUL or other control byte would be cut or misread further down.
        // (In UTF-8 those are single bytes; no byte of a longer sequence is below 0x80.)
        guard !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw ProtocolError(.argument, "Malformed URI: control characters")
        }
        // The common case, 100,000 times in a long command list.
        if let id = CatalogURI.trackID(text) {
            self = .track(id)
            return
        }
        if text.utf8.starts(with: "deezer:".utf8) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count == 2, parts[1] == "chart" { self = .chart; return }
            guard parts.count == 3 else { throw ProtocolError(.argument, "Malformed Deezer URI: \(text)") }
            self = try CatalogURI.item(kind: parts[1], id: parts[2], original: text)
            return
        }
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            // mpd's answers: a plain path names a (missing) database entry; a
            // file:// URI is denied to remote clients; other schemes are unknown.
            guard lower.contains("://") else { throw ProtocolError(.noExist, "No such directory") }
            if lower.hasPrefix("file://") { throw ProtocolError(.permission, "Access denied") }
            throw ProtocolError(.argument, "Unsupported URI scheme")
        }
        let afterScheme = text[text.index(text.firstIndex(of: ":")!, offsetBy: 3)...]
        let hostEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? afterScheme.endIndex
        let host = afterScheme[..<hostEnd].lowercased()
        guard host == "www.deezer.com" || host == "deezer.com" else {
            guard !host.isEmpty else { throw ProtocolError(.argument, "Malformed URL: \(text)") }
            self = .stream(text)
            return
        }
        // https://www.deezer.com/[lang/]KIND/ID[?query]
        var path = afterScheme[hostEnd...]
        if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<q] }
        var segments = path.split(separator: "/")
        if segments.count == 3 { segments.removeFirst() }  // language prefix such as "fr"
        guard segments.count == 2 else { throw ProtocolError(.argument, "Unsupported Deezer link: \(text)") }
        self = try CatalogURI.item(kind: segments[0], id: segments[1], original: text)
    }

    /// The id of `deezer:track:ID` with ID a positive decimal number of at
    /// most 18 digits, as the full parser reads it; nil for anything else,
    /// which the full parser then reads (and refuses if need be).
    private static func trackID(_ text: String) -> Int? {
        let prefix = "deezer:track:".utf8
        guard text.utf8.count > prefix.count, text.utf8.count <= prefix.count + 18,
            text.utf8.starts(with: prefix)
        else { return nil }
        var id = 0
        for b in text.utf8.dropFirst(prefix.count) {
            guard b >= 0x30, b <= 0x39 else { return nil }
            id = id * 10 + Int(b - 0x30)
        }
        return id > 0 ? id : nil
    }

    private static func item(kind: Substring, id: Substring, original: String) throws(ProtocolError) -> CatalogURI {
        guard let n = Int(id), n != 0, !id.hasPrefix("+") else {
            throw ProtocolError(.argument, "Invalid Deezer id in \(original)")
        }
        switch kind {
        case "track": return .track(n)
        case "album": return .album(n)
        case "playlist": return .playlist(n)
        case "artist": return .artist(n)
        case "radio": return .radio(n)
        default: throw ProtocolError(.argument, "Unsupported Deezer item kind: \(kind)")
        }
    }

    /// The canonical text: `deezer:KIND:ID`, `deezer:chart` or the URL.
    public var text: String {
        switch self {
        case .track(let id): return "deezer:track:\(id)"
        case .album(let id): return "deezer:album:\(id)"
        case .playlist(let id): return "deezer:playlist:\(id)"
        case .artist(let id): return "deezer:artist:\(id)"
        case .radio(let id): return "deezer:radio:\(id)"
        case .chart: return "deezer:chart"
        case .stream(let url): return url
        }
    }
}

/// The Unix time at which a signed Deezer preview URL stops working: the
/// `exp=` value inside its `hdnea` query parameter; nil for unsigned URLs.
public func previewExpiry(of url: String) -> Int? {
    guard let r = url.firstRange(of: "hdnea=exp=") ?? url.firstRange(of: "exp=") else { return nil }
    let digits = url[r.upperBound...].prefix(while: { $0.isASCII && $0.isNumber })
    return Int(digits)
}
