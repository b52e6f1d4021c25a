import PreviewCore
import PreviewPlatform

/// The one place where errors become `ACK` lines (as MPD's `ToAck`): each
/// layer throws its own error type (storage, the Deezer and Last.fm
/// clients, argument parsing), and the code and text a client sees are
/// chosen here. Error texts follow mpd 0.23's where mpd has the error.
enum ToAck {
    /// The ACK for any error a command handler throws (or finishes with).
    static func protocolError(_ error: any Error) -> ProtocolError {
        switch error {
        case let e as ProtocolError: return e
        case let e as StorageError: return e.protocolError
        case let e as LastfmError: return e.protocolError
        case let e as CatalogError: return e.protocolError(item: "catalog")
        default: return ProtocolError(.system, "\(error)")
        }
    }
}

extension StorageError: CustomStringConvertible {
    /// The ACK for a client. Clients and tests read these texts, so they
    /// stay as they were when the storage code made its own system calls.
    var protocolError: ProtocolError {
        switch self {
        case .badName: return ProtocolError(.argument, "Bad playlist name")
        case .noSuchPlaylist: return ProtocolError(.noExist, "No such playlist")
        case .playlistExists: return ProtocolError(.exist, "Playlist exists already")
        case .tooLarge: return ProtocolError(.playlistMax, "Playlist is too large")
        case .unreadableLine(let file, let line, let reason):
            return ProtocolError(.playlistLoad, "\(file) line \(line): \(reason)")
        case .writing(let e):
            let verb = ["open": "create", "write": "write", "fsync": "sync", "rename": "rename"][e.function] ?? e.function
            return ProtocolError(.system, "cannot \(verb) \(e.path ?? ""): \(e.reason)")
        case .reading(let e): return ProtocolError(.system, "cannot \(e.function) \(e.path ?? ""): \(e.reason)")
        case .removing(let name, let e): return ProtocolError(.system, "cannot remove \(name): \(e.reason)")
        case .renaming(let name, let e): return ProtocolError(.system, "cannot rename \(name): \(e.reason)")
        case .directory(let e): return ProtocolError(.system, e.description)
        case .encoding(let path, let why): return ProtocolError(.system, "cannot encode \(path): \(why)")
        case .database(let path, let e): return ProtocolError(.system, "cannot write \(path): \(e.message)")
        case .notLibraryItem(let text):
            return ProtocolError(.argument, "\(text) is not an album, a track or an artist: the library holds "
                + "deezer:album:ID, deezer:track:ID and deezer:artist:ID")
        case .notInLibrary(let uri): return ProtocolError(.noExist, "\(uri) is not in the library")
        }
    }

    /// The ACK's text, for the log.
    var description: String { protocolError.message }
}

extension LastfmError {
    /// The ACK for a client: `.noExist` for an unknown country or tag (so
    /// scripts can tell it from an outage), `.argument` for albums by
    /// country, `.system` for the rest.
    var protocolError: ProtocolError {
        switch self {
        case .noKey(let keyFile):
            ProtocolError(.system, "Last.fm charts need an API key: start previewd with --lastfm-key KEY, "
                + "set PREVIEWD_LASTFM_KEY, or write the key to \(keyFile)")
        case .noAlbumsByCountry:
            ProtocolError(.argument, "Last.fm has no album chart by country (no geo.getTopAlbums): give a tag")
        case .transport(let why):
            ProtocolError(.system, "cannot reach Last.fm: \(why)")
        case .api(let code, let message):
            ProtocolError(code == LastfmError.invalidParameters ? .noExist : .system,
                          "Last.fm: \(message ?? "error") (Last.fm error \(code))")
        case .malformed(let status):
            ProtocolError(.system, "Last.fm: unexpected answer (HTTP status \(status))")
        }
    }
}

extension CatalogError {
    /// The ACK for a client, naming `item` (e.g. `deezer:track:-1`).
    func protocolError(item: String) -> ProtocolError {
        switch self {
        case .api(let code, _, let message):
            if code == 800 { return ProtocolError(.noExist, "\(item): not found (Deezer: \(message), error 800)") }
            let codeText = code.map { " (Deezer error \($0))" } ?? ""
            return ProtocolError(.system, "\(item): \(message)\(codeText)")
        case .busy:
            return ProtocolError(.updateAlready, "\(item): the Deezer API is busy (request quota exceeded); try again in a few seconds")
        case .transport(let why):
            return ProtocolError(.system, "\(item): cannot reach the Deezer API: \(why)")
        case .malformed(let why):
            return ProtocolError(.system, "\(item): unexpected answer from the Deezer API: \(why)")
        case .image(let host, let why):
            return ProtocolError(.system, "\(item): cannot fetch the cover from \(host): \(why)")
        }
    }
}
