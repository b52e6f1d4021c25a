import PreviewCore

// The discovery lists by URI (`deezer:genres`, `deezer:picks`, ...), as
// the root listed them before the named tree (`Commands+Tree.swift`): they
// still answer, for scripts, each opening as directories or songs.
extension Commands {
    /// `lsinfo` of a discovery directory:
    /// - `deezer:genres`: a `deezer:genre:ID` directory per Deezer genre;
    /// - `deezer:genre:ID`: that genre's chart tracks, as songs;
    /// - `deezer:picks`, `deezer:releases`: a `deezer:album:ID` directory
    ///   per album of the editorial selection or of the new releases;
    /// - `deezer:radios`: a `deezer:radio:ID` directory per radio (whose
    ///   `lsinfo` lists the radio's tracks).
    /// Answers false (and does nothing) for any other URI.
    static func discoveryListing(_ uri: String, _ call: CommandCall, _ s: Services) -> Bool {
        let b = s.catalog
        func directories<T: Decodable & Sendable>(_ path: String, as type: T.Type, _ name: @escaping (T) -> String) {
            catalogRequest(b, path, as: DeezerPage<T>.self, call: call) { page in
                for item in page.data { call.reply.field("directory", name(item)) }
            }
        }
        switch uri {
        case "deezer:genres": directories("/genre", as: DeezerGenre.self) { "deezer:genre:\($0.id)" }
        case "deezer:picks": directories("/editorial/0/selection", as: DeezerAlbum.self) { "deezer:album:\($0.id)" }
        case "deezer:releases":
            directories("/editorial/0/releases?index=0&limit=100", as: DeezerAlbum.self) { "deezer:album:\($0.id)" }
        case "deezer:radios": directories("/radio", as: DeezerRadio.self) { "deezer:radio:\($0.id)" }
        default:
            guard uri.hasPrefix("deezer:genre:"), let id = Int(uri.dropFirst("deezer:genre:".count)), id >= 0 else { return false }
            catalogRequest(b, "/chart/\(id)/tracks?index=0&limit=100", as: DeezerPage<DeezerTrack>.self, call: call) { page in
                for track in page.data { call.reply.song(track.song(), tags: call.session.tags) }
            }
        }
        return true
    }
}
