/// Deezer's search as previewd offers it, for the daemon's `catalogsearch`
/// and previewctl's `search` alike: the kinds, the advanced fields, the page
/// sizes, and how a field becomes a term of Deezer's query
/// (`artist:"daft punk" bpm_min:120`).
public enum DeezerSearch {
    /// What can be searched, plural as the protocol takes it; Deezer's
    /// endpoint is the singular (`/search/track`).
    public enum Kind: String, CaseIterable, Sendable {
        case tracks, albums, artists, playlists, radios
    }

    /// Fields taking a text, quoted in the query.
    public static let textFields = ["artist", "album", "track", "label"]
    /// Fields taking a number: durations in seconds, tempos in beats per minute.
    public static let numberFields = ["dur_min", "dur_max", "bpm_min", "bpm_max"]
    /// Results a page may hold (Deezer's `limit`), and how many when not said.
    public static let limits = 1...100
    public static let defaultLimit = 25

    /// `field:"value"`, an advanced search term. A double quote inside the
    /// value would end it early, so it becomes a space.
    public static func term(_ field: String, _ value: String) -> String {
        field + ":\"" + value.replacingAll("\"", with: " ") + "\""
    }
}
