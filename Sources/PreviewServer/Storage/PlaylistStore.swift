import PreviewCore
import PreviewPlatform

/// Stored playlists (MPD's `save`/`load`/...): one extended-M3U file per
/// playlist, `NAME.m3u`, in the state directory's `playlists/` folder.
final class PlaylistStore {
    let directory: String
    /// Songs a playlist holds at most, as the queue (mpd's
    /// `max_playlist_length`): `save NAME append` and `playlistadd` cannot
    /// grow a file without bound.
    let maxLength: Int

    /// - Parameters: directory: created (0700) on first write; maxLength: as the property.
    init(directory: String, maxLength: Int = Queue.defaultMaxLength) {
        self.directory = directory
        self.maxLength = maxLength
    }

    private func path(_ name: String) -> String { directory + "/" + name + ".m3u" }

    /// Names and modification times (Unix seconds), sorted by name.
    func list() -> [(name: String, modified: Int)] {
        guard let names = try? FileSystem.entries(ofDirectory: directory) else { return [] }
        var out: [(String, Int)] = []
        for name in names {
            guard name.hasSuffix(".m3u"), !name.hasPrefix(".") else { continue }
            guard let modified = try? FileSystem.modificationTime(directory + "/" + name) else { continue }
            out.append((String(name.dropLast(4)), modified))
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// Whether playlist `name` exists.
    func exists(_ name: String) -> Bool { FileSystem.exists(path(name)) }

    /// The songs of playlist `name`.
    /// - Throws: `.argument` for a bad name, `.noExist` "No such playlist",
    ///   `.playlistLoad` naming the file and line that cannot be read.
    func load(_ name: String) throws(ProtocolError) -> [Song] {
        try M3U.checkName(name)
        let read: [UInt8]?
        do { read = try AtomicFile.read(path(name)) } catch { throw .reading(error) }
        guard let bytes = read else { throw ProtocolError(.noExist, "No such playlist") }
        do {
            return try M3U.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw ProtocolError(.playlistLoad, "\(name).m3u line \(error.line): \(error.reason)")
        }
    }

    /// Removes every playlist and the directory itself, as if none had
    /// ever been stored (the fuzzer's reset between two inputs).
    func removeAll() {
        for entry in list() { try? FileSystem.remove(path(entry.name)) }
        try? FileSystem.removeDirectory(directory)
    }

    /// Writes playlist `name` (creating or replacing it).
    /// - Throws: `.argument` for a bad name, `.playlistMax` "Playlist is too
    ///   large" past `maxLength` songs, `.system` for I/O errors.
    func store(_ name: String, _ songs: [Song]) throws(ProtocolError) {
        try M3U.checkName(name)
        guard songs.count <= maxLength else { throw ProtocolError(.playlistMax, "Playlist is too large") }
        try makeDirectory()
        do { try AtomicFile.write(Array(M3U.format(songs).utf8), to: path(name)) } catch { throw .writing(error) }
    }

    /// `rm`.
    /// - Throws: `.noExist` "No such playlist".
    func remove(_ name: String) throws(ProtocolError) {
        try M3U.checkName(name)
        do { try FileSystem.remove(path(name)) } catch {
            if error.isNotFound { throw ProtocolError(.noExist, "No such playlist") }
            throw ProtocolError(.system, "cannot remove \(name): \(error.reason)")
        }
        AtomicFile.syncDirectory(of: path(name))
    }

    /// `rename`.
    /// - Throws: `.noExist` "No such playlist", `.exist` "Playlist exists already" (mpd's words).
    func rename(_ from: String, to: String) throws(ProtocolError) {
        try M3U.checkName(from)
        try M3U.checkName(to)
        guard exists(from) else { throw ProtocolError(.noExist, "No such playlist") }
        guard !exists(to) else { throw ProtocolError(.exist, "Playlist exists already") }
        do { try FileSystem.rename(path(from), to: path(to)) } catch {
            throw ProtocolError(.system, "cannot rename \(from): \(error.reason)")
        }
        AtomicFile.syncDirectory(of: path(to))
    }

    private func makeDirectory() throws(ProtocolError) {
        do { try FileSystem.makeDirectories(directory, mode: 0o700) } catch {
            throw ProtocolError(.system, error.description)
        }
    }
}
