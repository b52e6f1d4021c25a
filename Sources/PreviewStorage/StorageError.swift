import PreviewCore
import PreviewPlatform

/// Why a stored playlist, the state file, the want list or the Library could not be
/// read or written. `ToAck` turns it into the client's ACK.
package enum StorageError: Error, Equatable {
    /// The name cannot name a playlist file; the reason is `M3U.nameProblem`'s.
    case badName(String)
    case noSuchPlaylist
    /// `rename` onto a playlist that exists.
    case playlistExists
    /// More songs than a stored playlist holds (`PlaylistStore.maxLength`).
    case tooLarge
    /// A line of the playlist file `file` that cannot be read.
    case unreadableLine(file: String, line: Int, reason: String)
    /// `AtomicFile.write` failed (the step is the error's function).
    case writing(SystemError)
    /// `AtomicFile.read` failed for another reason than a missing file.
    case reading(SystemError)
    /// Removing or renaming playlist `name` failed.
    case removing(name: String, SystemError)
    case renaming(name: String, SystemError)
    /// The directory could not be created.
    case directory(SystemError)
    /// The value could not be encoded as JSON for the file at `path`.
    case encoding(path: String, String)
    /// An SQLite call on the database at `path` failed (the Library's `library.sqlite`).
    case database(path: String, SQLiteError)
    /// A database that could not be opened, met by a read (a listing).
    case unreadable(path: String, SQLiteError)
    /// The text given is no album, track or artist URI (the Library holds nothing else).
    case notLibraryItem(String)
    /// The URI (canonical) is not saved in the Library.
    case notInLibrary(String)
    /// A new sticker past `StickerStore.maxStickers` (the bound).
    case stickerLimit(Int)
}

extension StorageError: CustomStringConvertible {
    /// The ACK for a client. Clients and tests read these texts, so they
    /// stay as they were when the storage code made its own system calls.
    package var protocolError: ProtocolError {
        switch self {
        case .badName(let reason): return ProtocolError(.argument, reason)
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
        case .unreadable(let path, let e): return ProtocolError(.system, "cannot read \(path): \(e.message)")
        case .notLibraryItem(let text):
            return ProtocolError(
                .argument,
                "\(text) is not an album, a track or an artist: the library holds "
                    + "deezer:album:ID, deezer:track:ID and deezer:artist:ID")
        case .notInLibrary(let uri): return ProtocolError(.noExist, "\(uri) is not in the library")
        case .stickerLimit(let n):
            return ProtocolError(.argument, "too many stickers (at most \(n)): delete some first")
        }
    }

    /// The ACK's text, for the log.
    package var description: String { protocolError.message }
}
