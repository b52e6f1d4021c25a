import PreviewPlatform

/// Why a stored playlist, the state file, the want list or the Library could not be
/// read or written. `ToAck` turns it into the client's ACK.
enum StorageError: Error, Equatable {
    /// The name cannot name a playlist file (`M3U.isValidName`).
    case badName
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
    /// The text given is no album, track or artist URI (the Library holds nothing else).
    case notLibraryItem(String)
    /// The URI (canonical) is not saved in the Library.
    case notInLibrary(String)
}
