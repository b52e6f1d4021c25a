/// What the discovery lists read of Deezer's radios (`/radio`,
/// `/radio/top`, `/genre/ID/radios`); editorial lists are album lists
/// (`DeezerAlbum`).
extension DeezerRadio {
    /// The title without surrounding white space: some carry stray spaces
    /// (`" Café Louge"` in `/radio/top`).
    public var displayTitle: String? {
        guard let title else { return nil }
        let trimmed = title.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        return String(trimmed)
    }
}
