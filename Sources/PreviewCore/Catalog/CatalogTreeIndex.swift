/// What a playlist entry of `CatalogTree` stands for.
public enum TreeItem: Equatable, Sendable {
    /// An album, a playlist, an artist's top tracks, a radio or the chart of tracks.
    case catalog(CatalogURI)
    /// A genre's chart of tracks (`/chart/ID/tracks`).
    case genreChart(Int)
    /// The want list's tracks.
    case wantedTracks
    /// A country's Last.fm chart of tracks, each found on Deezer (the
    /// country's English name, as `Countries` lists it).
    case countryChart(String)
}

/// The names `CatalogTree` listings gave, each with the item it stands
/// for, so that a client can send a name back (`lsinfo`, `add`, `load`,
/// `findadd base`). A name not known here is found again by listing its
/// directory, which the catalog cache usually answers: a name keeps
/// working after a restart for as long as the catalog lists the item.
/// Bounded: past `capacity` names the index starts afresh.
public struct NameIndex: Sendable {
    /// Names kept at most (a listing adds at most a few hundred).
    public static let capacity = 65_536

    private var items: [String: TreeItem] = [:]

    public init() {}

    /// Names known now.
    public var count: Int { items.count }

    /// Keeps `path` as the name of `item`.
    public mutating func record(_ path: String, _ item: TreeItem) {
        if items.count >= Self.capacity, items[path] == nil { items.removeAll(keepingCapacity: true) }
        items[path] = item
    }

    /// The item `path` names (a trailing `/` allowed), when listed before.
    public func item(_ path: String) -> TreeItem? {
        items[path] ?? (path.hasSuffix("/") ? items[String(path.dropLast())] : nil)
    }
}
