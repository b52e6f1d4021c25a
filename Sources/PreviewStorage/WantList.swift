import PreviewCore

/// The "Want to Listen" list: albums and tracks with the time each was
/// added, newest first; saved as `want.json` in the state directory.
package final class WantList {
    package struct Entry: Codable, Equatable {
        /// `deezer:album:ID` or `deezer:track:ID`.
        package var uri: String
        /// Unix seconds.
        package var added: Int
    }

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
        return nil
    }
}
