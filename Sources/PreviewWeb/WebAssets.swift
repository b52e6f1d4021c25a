import PreviewHTTP

/// The page's files, written by hand in `Page/` (index.html, app.css, the
/// ES modules in `Page/js`, the manifest, the icon) and compiled into the
/// binary (SwiftPM's `embedInCode`): nothing is read from disk or fetched
/// at run time. The scripts put catalog text on the page as text nodes
/// only, never as markup.
///
/// The page's own files are served under `/v/VERSION/`, VERSION being a
/// hash of all of them, so a browser keeps them for good (`immutable`) and
/// the page of another build names other addresses. `/` itself carries
/// the token and is never kept. The style and scripts go out without their
/// comment lines (`withoutCommentLines`), and each file is gzipped once,
/// here, and sent so to a browser that accepts it.
public struct WebAssets: Sendable {
    /// One file as served.
    public struct File: Sendable {
        /// Its `Content-Type`.
        public let type: String
        /// Its bytes.
        public let body: [UInt8]
        /// The same, gzipped (nil when that is not smaller).
        public let gzipped: [UInt8]?
        /// How long a browser may keep it.
        public let kept: Kept
        /// Whether its address changes with its content (kept for good).
        public var immutable: Bool { kept == .forGood }
    }

    /// How long a browser keeps a file, as its `Cache-Control` says.
    public enum Kept: Sendable {
        /// Named by VERSION: it never changes at its address.
        case forGood
        /// The manifest and the icon: their address stays when they change.
        case aDay
        /// The page itself: it carries the token.
        case never

        /// The `Cache-Control` value.
        public var cacheControl: String {
            switch self {
            case .forGood: return "public, max-age=31536000, immutable"
            case .aDay: return "max-age=86400"
            case .never: return "no-store"
            }
        }
    }

    /// 16 hex digits that change when any of the page's files does.
    public let version: String
    /// Every file by the path it is served at: `/`, `/v/VERSION/app.css`,
    /// `/v/VERSION/js/shell.js`..., `/manifest.webmanifest`, `/icon.svg`.
    public let files: [String: File]

    /// The ES modules, by file name; `shell.js` is the page's entry.
    static let modules: [(name: String, bytes: [UInt8])] = [
        ("core.js", PackageResources.core_js), ("browse.js", PackageResources.browse_js),
        ("detail.js", PackageResources.detail_js), ("queue.js", PackageResources.queue_js),
        ("outputs.js", PackageResources.outputs_js), ("live.js", PackageResources.live_js),
        ("keep.js", PackageResources.keep_js), ("menu.js", PackageResources.menu_js), ("shell.js", PackageResources.shell_js),
    ]

    /// - Parameter token: what state-changing requests must carry, put in
    ///   the page's `<meta name="previewweb-token">` (hex: nothing to escape).
    public init(token: String) {
        var versioned: [(String, String, [UInt8])] = [
            ("app.css", "text/css; charset=utf-8", Self.withoutCommentLines(PackageResources.app_css))
        ]
        versioned += Self.modules.map { ("js/" + $0.name, "text/javascript; charset=utf-8", Self.withoutCommentLines($0.bytes)) }
        version = Self.version(of: versioned.map { ($0.0, $0.2) })
        var files: [String: File] = [:]
        func add(_ path: String, _ type: String, _ body: [UInt8], kept: Kept) {
            let gzipped = Gzip.compress(body).flatMap { $0.count < body.count ? $0 : nil }
            files[path] = File(type: type, body: body, gzipped: gzipped, kept: kept)
        }
        for (name, type, body) in versioned { add("/v/\(version)/\(name)", type, body, kept: .forGood) }
        let page = String(decoding: PackageResources.index_html, as: UTF8.self)
            .replacingAll("{{token}}", with: token).replacingAll("{{version}}", with: version)
        add("/", "text/html; charset=utf-8", Array(page.utf8), kept: .never)
        add("/manifest.webmanifest", "application/manifest+json", PackageResources.manifest_webmanifest, kept: .aDay)
        add("/icon.svg", "image/svg+xml", PackageResources.icon_svg, kept: .aDay)
        self.files = files
    }

    /// `source` (CSS or JavaScript) without its comment lines and its
    /// indentation: lines that are a `//` comment, or inside a `/* … */`
    /// comment that starts a line, go (a line with code after the
    /// comment's end is kept); the spaces that start a line go. A third of
    /// the page's script is its comments; a browser needs none. It never
    /// cuts within a line of code; it relies on the page having no string
    /// that spans lines (it has no template literal), and test_web_code.py
    /// checks what comes out with `node --check`.
    static func withoutCommentLines(_ source: [UInt8]) -> [UInt8] {
        var kept: [Substring] = []
        var inComment = false
        for line in String(decoding: source, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.drop { $0 == " " || $0 == "\t" }
            if inComment {
                if text.contains("*/") { inComment = false }
            } else if text.hasPrefix("//") {
                continue
            } else if text.hasPrefix("/*") {
                guard let end = text.firstRange(of: "*/") else {
                    inComment = true
                    continue
                }
                if !text[end.upperBound...].allSatisfy({ $0 == " " }) { kept.append(text) }
            } else {
                kept.append(text)
            }
        }
        return Array(kept.joined(separator: "\n").utf8)
    }

    /// Whether an `Accept-Encoding` header takes gzip: listed (or `*`)
    /// without `q=0` (RFC 9110, 12.5.3).
    public static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { String($0.filter { $0 != " " && $0 != "\t" }).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return weight > 0
        }
        return false
    }

    /// FNV-1a (64 bits) over each file's name and bytes, in hex: a name
    /// that changes with the content, not a secret.
    static func version(of files: [(String, [UInt8])]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (name, bytes) in files {
            for byte in Array(name.utf8) + [0] + bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension String {
    /// Every `target` replaced by `replacement`, left to right.
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
