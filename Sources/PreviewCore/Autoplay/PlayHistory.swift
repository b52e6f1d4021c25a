/// The songs played last (their URIs), at most `limit`, the oldest
/// forgotten first: autoplay never picks one of them. Saved with the
/// state, so a restart does not bring back what was just heard.
public struct PlayHistory: Sendable, Equatable, Codable {
    /// Plays remembered: a song heard within this many plays is not autoplayed again.
    public static let limit = 500
    /// Oldest first.
    public private(set) var uris: [String] = []
    private var counts: [String: Int] = [:]

    /// An empty history.
    public init() {}

    /// A history of `uris` (oldest first), keeping the last `limit`.
    public init(uris: [String]) {
        for uri in uris { played(uri) }
    }

    /// Notes a play of `uri`, forgetting the oldest past `limit`.
    public mutating func played(_ uri: String) {
        uris.append(uri)
        counts[uri, default: 0] += 1
        guard uris.count > Self.limit else { return }
        let gone = uris.removeFirst()
        if counts[gone] == 1 { counts[gone] = nil } else { counts[gone]? -= 1 }
    }

    /// Whether `uri` is among the plays remembered.
    public func contains(_ uri: String) -> Bool { counts[uri] != nil }

    public init(from decoder: any Decoder) throws {
        self.init(uris: try [String](from: decoder).suffix(Self.limit).map { $0 })
    }

    public func encode(to encoder: any Encoder) throws { try uris.encode(to: encoder) }
}
