/// Shapes of the Deezer bodies the discovery lists read: radios
/// (`/radio`, `/radio/top`, `/genre/ID/radios`), and editorial lists,
/// which are album lists (`DeezerAlbum`).

/// A radio (a mix of tracks Deezer keeps): the items of radio lists.
public struct DeezerRadio: Decodable, Sendable {
    public var id: Int
    /// As Deezer names it; some carry stray spaces (`" Café Louge"` in
    /// `/radio/top`), which `displayTitle` drops.
    public var title: String?

    /// The title without surrounding white space.
    public var displayTitle: String? {
        guard let title else { return nil }
        let trimmed = title.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        return String(trimmed)
    }
}
