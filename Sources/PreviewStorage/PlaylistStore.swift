import PreviewCore
import PreviewPlatform

/// Stored playlists (MPD's `save`/`load`/...): one extended-M3U file per
/// playlist, `NAME.m3u`, in the state directory's `playlists/` folder.
package final class PlaylistStore {
    let directory: String
    /// Songs a playlist holds at most, as the queue (mpd's
    /// `max_playlist_length`): `save NAME append` and `playlistadd` cannot
    /// grow a file without bound.
    let maxLength: Int

    /// - Parameters: directory: created (0700) on first write; maxLength: as the property.
    package init(directory: String, maxLength: Int = Queue.defaultMaxLength) {
        self.directory = directory
        self.maxLength = maxLength
    }

    private func path(_ name: String) -> String { directory + "/" + name + ".m3u" }

    /// Names and modification times (Unix seconds), sorted by name.
    package func list() -> [(name: String, modified: Int)] {
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
    package func exists(_ name: String) -> Bool { FileSystem.exists(path(name)) }

    /// The songs of playlist `name`.
    /// - Throws: `.badName`, `.noSuchPlaylist`, `.reading`, or
    ///   `.unreadableLine` naming the file and line that cannot be read.
    package func load(_ name: String) throws(StorageError) -> [Song] {
        if let problem = M3U.nameProblem(name) { throw .badName(problem) }
        let read: [UInt8]?
        do { read = try AtomicFile.read(path(name)) } catch { throw .reading(error) }
        guard let bytes = read else { throw .noSuchPlaylist }
        do {
            return try M3U.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .unreadableLine(file: name + ".m3u", line: error.line, reason: error.reason)
        }
    }

    /// Removes every playlist and the directory itself, as if none had
    /// ever been stored (the fuzzer's reset between two inputs).
    package func removeAll() {
        for entry in list() { try? FileSystem.remove(path(entry.name)) }
        try? FileSystem.removeDirectory(directory)
    }

    /// Writes playlist `name` (creating or replacing it).
    /// - Throws: `.badName`, `.tooLarge` past `maxLength` songs, `.directory`
    ///   or `.writing`.
    package func store(_ name: String, _ songs: [Song]) throws(StorageError) {
        if let problem = M3U.nameProblem(name) { throw .badName(problem) }
        guard songs.count <= maxLength else { throw .tooLarge }
        try makeDirectory()
        do { try AtomicFile.write(Array(M3U.format(songs).utf8), to: path(name)) } catch { throw .writing(error) }
    }

    /// `rm`.
    /// - Throws: `.badName`, `.noSuchPlaylist`, `.removing`.
    package func remove(_ name: String) throws(StorageError) {
        if let problem = M3U.nameProblem(name) { throw .badName(problem) }
        do { try FileSystem.remove(path(name)) } catch {
            throw error.isNotFound ? .noSuchPlaylist : .removing(name: name, error)
        }
        AtomicFile.syncDirectory(of: path(name))
    }

    /// `rename`.
    /// - Throws: `.badName`, `.noSuchPlaylist`, `.playlistExists`, `.renaming`.
    package func rename(_ from: String, to: String) throws(StorageError) {
        if let problem = M3U.nameProblem(from) ?? M3U.nameProblem(to) { throw .badName(problem) }
        guard exists(from) else { throw .noSuchPlaylist }
        guard !exists(to) else { throw .playlistExists }
        do { try FileSystem.rename(path(from), to: path(to)) } catch {
            throw .renaming(name: from, error)
        }
        AtomicFile.syncDirectory(of: path(to))
    }

    private func makeDirectory() throws(StorageError) {
        do { try FileSystem.makeDirectories(directory, mode: 0o700) } catch {
            throw .directory(error)
        }
    }
}
