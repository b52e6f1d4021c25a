import PreviewCore

/// The numbered entries previewctl printed last (a search, a chart, an
/// album's tracks, Listen Now, ...), kept so that a later `open N`,
/// `playlist NAME add N` names entry N as it was shown. previewctl keeps
/// it in a file beside the socket (`path(socket:)`): one URI a line after
/// a header line; this type only encodes, decodes and looks up.
public struct LastListing: Equatable, Sendable {
    /// Most entries kept (a catalog page holds 100; an artist's page, top
    /// tracks, albums and related artists, a few hundred at most).
    public static let capacity = 1000
    static let header = "previewctl listing 1"

    /// The entries' URIs, entry 1 first.
    public private(set) var uris: [String]

    /// The first `capacity` of `uris`. A URI with a line break (no catalog
    /// URI has one) is kept as an empty line, so later numbers stay right.
    public init(uris: [String]) {
        self.uris = uris.prefix(Self.capacity).map { $0.contains(where: \.isNewline) ? "" : $0 }
    }

    /// The file's bytes: the header, then one URI a line.
    public var bytes: [UInt8] { Array(([Self.header] + uris).map { $0 + "\n" }.joined().utf8) }

    /// The listing in a file's `bytes`; nil for anything that is not one.
    public init?(bytes: [UInt8]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(Self.header), lines.last == "" else { return nil }
        self.init(uris: lines.dropFirst().dropLast().map(String.init))
    }

    /// The listing's file in `directory`.
    public static func path(in directory: String) -> String { directory + "/previewctl-listing" }

    /// Entry `number` (from 1).
    /// - Throws: `UsageError` naming how many entries there are.
    public func uri(_ number: Int) throws(ControlCommand.UsageError) -> String {
        guard number >= 1, number <= uris.count else {
            let count = uris.count == 1 ? "1 entry" : "\(uris.count) entries"
            throw ControlCommand.UsageError(message: "the last listing has \(count), not \(number)")
        }
        guard !uris[number - 1].isEmpty else {
            throw ControlCommand.UsageError(message: "entry \(number) of the last listing has no URI previewctl can name")
        }
        return uris[number - 1]
    }

    /// Each reference as a URI: an entry number looked up, a URI as given.
    /// - Throws: `UsageError` for a number the listing lacks.
    public func resolve(_ references: [ListingReference]) throws(ControlCommand.UsageError) -> [String] {
        var out: [String] = []
        for reference in references {
            switch reference {
            case .uri(let uri): out.append(uri)
            case .entry(let n): out.append(try uri(n))
            }
        }
        return out
    }

    /// The error for a command that needs a listing when none was kept.
    public static let missing = ControlCommand.UsageError(
        message: "no listing to take numbers from yet: list something first (search, chart, album, artist, now, ...)")
}

/// A word naming something to act on: a URI, or a number (from 1) naming
/// that entry of the last listing.
public enum ListingReference: Equatable, Sendable {
    case uri(String)
    case entry(Int)

    /// An all-digit word is an entry number; anything else a URI.
    /// - Throws: `UsageError` for 0 or a number past `LastListing.capacity`.
    init(_ word: String) throws(ControlCommand.UsageError) {
        guard !word.isEmpty, word.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            self = .uri(word)
            return
        }
        guard let n = Int(word), (1...LastListing.capacity).contains(n) else {
            throw ControlCommand.UsageError(message: "entry numbers run from 1 to \(LastListing.capacity), not \"\(word)\"")
        }
        self = .entry(n)
    }

    /// Whether any of `references` needs the last listing.
    public static func needListing(_ references: [ListingReference]) -> Bool {
        references.contains { if case .entry = $0 { true } else { false } }
    }
}
