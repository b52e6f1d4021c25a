import PreviewCore

/// The pure rules of the web front end's cover cache (issue 34): which
/// URIs have a cover, the file each is kept in, its content type, and
/// which files go when the cache is over its bounds.
public enum WebCovers {
    /// Covers kept on disk, at most.
    public static let maxFiles = 2000
    /// Bytes of covers kept on disk, at most (64 MiB: 2000 covers of 500x500
    /// JPEG at ~30 KB each fit in it).
    public static let maxBytes = 64 << 20
    /// Bytes of one cover, at most (larger ones are not kept or served).
    public static let maxCoverBytes = 4 << 20

    /// The file name a cover of `uri` is kept under (`album-302127`), or nil
    /// when `uri` is no `deezer:track|album|artist|playlist|radio:ID`.
    public static func fileName(for uri: String) -> String? {
        let named: (String, Int)
        switch try? CatalogURI(parsing: uri) {
        case .track(let id)?: named = ("track", id)
        case .album(let id)?: named = ("album", id)
        case .artist(let id)?: named = ("artist", id)
        case .playlist(let id)?: named = ("playlist", id)
        case .radio(let id)?: named = ("radio", id)
        default: return nil
        }
        // Deezer's ids are positive (the parser takes -1, which Deezer answers with an error).
        return named.1 > 0 ? "\(named.0)-\(named.1)" : nil
    }

    /// Whether `name` is one `fileName(for:)` makes (anything else in the
    /// directory is left alone).
    public static func isFileName(_ name: String) -> Bool {
        guard let dash = name.firstIndex(of: "-") else { return false }
        let kind = name[..<dash], id = name[name.index(after: dash)...]
        return ["track", "album", "artist", "playlist", "radio"].contains(kind) && !id.isEmpty && id.count <= 19
            && id.allSatisfy(\.isASCII) && id.allSatisfy(\.isNumber)
    }

    /// The image type of `bytes` by their first bytes (JPEG, PNG, WebP,
    /// GIF), or nil when they are none of these: the bytes are not served.
    public static func contentType(of bytes: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts(Array("GIF8".utf8)) { return "image/gif" }
        return nil
    }

    /// One cached file.
    public struct Entry: Equatable, Sendable {
        public var name: String
        /// Bytes.
        public var size: Int
        /// Last written or served, Unix seconds.
        public var used: Int

        public init(name: String, size: Int, used: Int) {
            self.name = name
            self.size = size
            self.used = used
        }
    }

    /// The names to remove so that at most `maxFiles` files of at most
    /// `maxBytes` bytes remain: the least recently used first.
    public static func evictions(_ entries: [Entry], maxFiles: Int = maxFiles, maxBytes: Int = maxBytes) -> [String] {
        var files = entries.count
        var bytes = entries.reduce(0) { $0 + $1.size }
        var out: [String] = []
        for entry in entries.sorted(by: { ($0.used, $0.name) < ($1.used, $1.name) }) {
            guard files > maxFiles || bytes > maxBytes else { break }
            out.append(entry.name)
            files -= 1
            bytes -= entry.size
        }
        return out
    }
}
