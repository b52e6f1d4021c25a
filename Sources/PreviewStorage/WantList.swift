import PreviewCore

/// The "Want to Listen" list: albums and tracks with the time each was
/// added, newest first; saved as `want.json` in the state directory.
package final class WantList {
    package struct Entry: Codable, Equatable {
        /// `deezer:album:ID` or `deezer:track:ID`.
        package var uri: String
        /// Unix seconds.
        package var added: Int
        /// The title and artist the catalog gave when the entry was first
        /// described (absent before that, and in files from before they
        /// were kept), so that listing the list by name asks nothing again.
        package var name: String?
        package var artist: String?

        package init(uri: String, added: Int, name: String? = nil, artist: String? = nil) {
            self.uri = uri
            self.added = added
            self.name = name
            self.artist = artist
        }
    }

    /// The longest title or artist kept with an entry, in UTF-8 bytes
    /// (catalog text; a longer one is not kept, and asked for again).
    package static let maxNameBytes = 1024

    /// The last second of year 9999: later times cannot be written as ISO dates.
    static let latestTime = 253_402_300_799

    package private(set) var entries: [Entry] = []  // newest first
    private let file: JSONFile<[Entry]>

    package init(file: JSONFile<[Entry]>) {
        self.file = file
        entries = file.load() ?? []
    }

    /// The canonical URI of a want-list item.
    /// - Throws: `.argument` for anything but an album or a track.
    package static func item(_ text: String) throws(ProtocolError) -> String {
        switch try CatalogURI(parsing: text) {
        case .album(let id): return "deezer:album:\(id)"
        case .track(let id): return "deezer:track:\(id)"
        default: throw ProtocolError(.argument, "the want list holds albums and tracks (deezer:album:ID, deezer:track:ID)")
        }
    }

    /// Adds `uri` at the top. - Returns: false when it was already there.
    package func add(_ uri: String, at time: Int) throws(StorageError) -> Bool {
        guard !contains(uri) else { return false }
        entries.insert(Entry(uri: uri, added: time), at: 0)
        try save()
        return true
    }

    /// Keeps the catalog's title and artist of the entries `names` holds
    /// (by URI), saving the file once if any changed.
    /// - Throws: `StorageError` of the save.
    package func remember(_ names: [String: (name: String?, artist: String?)]) throws(StorageError) {
        var changed = false
        for i in entries.indices {
            guard let n = names[entries[i].uri], entries[i].name == nil,
                (n.name?.utf8.count ?? 0) <= Self.maxNameBytes, (n.artist?.utf8.count ?? 0) <= Self.maxNameBytes
            else { continue }
            entries[i].name = n.name
            entries[i].artist = n.artist
            changed = true
        }
        if changed { try save() }
    }

    /// Removes `uri`. - Returns: false when it was not there.
    package func remove(_ uri: String) throws(StorageError) -> Bool {
        guard contains(uri) else { return false }
        entries.removeAll { $0.uri == uri }
        try save()
        return true
    }

    package func contains(_ uri: String) -> Bool { entries.contains { $0.uri == uri } }

    private func save() throws(StorageError) { try file.save(entries) }
}

extension WantList.Entry: StoredValue {
    package var problem: String? {
        guard (try? WantList.item(uri)) == uri else { return "not an album or a track: \(uri)" }
        guard (0...WantList.latestTime).contains(added) else { return "time out of range: \(added)" }
        if let name, name.utf8.count > WantList.maxNameBytes { return "name longer than \(WantList.maxNameBytes) bytes" }
        if let artist, artist.utf8.count > WantList.maxNameBytes { return "artist longer than \(WantList.maxNameBytes) bytes" }
        return nil
    }
}
