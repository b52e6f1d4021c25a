import Glibc
import PreviewCore
import PreviewPlatform
import Synchronization
import Testing
@testable import PreviewStorage

/// `queue.sqlite` and `StateFiles`: a save writes what changed, and what
/// is loaded is the queue that was saved.
@Suite struct QueueStoreTests {
    static let counter = Atomic<Int>(0)

    /// A fresh directory per test (they run in parallel).
    static func directory() -> String {
        let n = counter.add(1, ordering: .relaxed).newValue
        let dir = "/tmp/previewd-queue-store-\(getpid())-\(n)"
        try? FileSystem.makeDirectories(dir)
        return dir
    }

    static func clean(_ dir: String) {
        for name in (try? FileSystem.entries(ofDirectory: dir)) ?? [] where name != "." && name != ".." {
            try? FileSystem.remove(dir + "/" + name)
        }
        try? FileSystem.removeDirectory(dir)
    }

    static func songs(_ loaded: QueueStore.Loaded) throws -> [QueuedSong] {
        guard case .songs(let songs) = loaded else { throw StorageError.tooLarge }
        return songs
    }

    static func queue(_ n: Int) -> Queue {
        var q = Queue()
        let album = AlbumTags(
            id: 302127, artist: "Daft Punk", date: "2001-03-07", genres: ["Dance", "Electro"],
            label: "Parlophone", trackCount: 14, complete: true)
        var songs: [Song] = []
        for i in 0..<n {
            var s = Song(uri: "deezer:track:\(i + 1)", title: "T\(i)", artist: "A", album: "Discovery", duration: 30)
            s.track = UInt16(i % 14 + 1)
            s.albumTags = album
            songs.append(s)
        }
        _ = try? q.add(contentsOf: songs)
        return q
    }

    @Test func saveThenLoadGivesTheSameQueue() throws {
        let dir = Self.directory()
        defer { Self.clean(dir) }
        var q = Self.queue(50)
        q.update(id: 3) {
            $0.song.addedTags = [TagValue(name: "Comment", value: "x")]; $0.priority = 9
        }
        q.update(id: 4) { $0.range = SongRange(start: 1.5, end: nil) }
        let store = try QueueStore(path: dir + "/queue.sqlite")
        #expect(try store.save(q.songs, version: q.version) == .init(inserted: 50))
        let loaded = try Self.songs(QueueStore(path: dir + "/queue.sqlite").load(version: q.version))
        #expect(loaded.map(\.id) == q.songs.map(\.id))
        #expect(loaded.map(\.song) == q.songs.map(\.song))
        #expect(loaded[2].priority == 9 && loaded[3].range == SongRange(start: 1.5, end: nil))
        // One album's tags, decoded once: shared as the queue shares them.
        #expect(loaded[0].song.albumTags! === loaded[49].song.albumTags!)
    }

    @Test func eachChangeWritesItsOwnRows() throws {
        let dir = Self.directory()
        defer { Self.clean(dir) }
        var q = Self.queue(1000)
        let store = try QueueStore(path: dir + "/queue.sqlite")
        try store.save(q.songs, version: q.version)
        try q.add(Song(uri: "deezer:track:5000"))
        #expect(try store.save(q.songs, version: q.version) == .init(inserted: 1))
        try q.add(Song(uri: "deezer:track:5001"), at: 0)
        #expect(try store.save(q.songs, version: q.version) == .init(inserted: 1))
        try q.remove(positions: 0..<10)
        #expect(try store.save(q.songs, version: q.version) == .init(deleted: 10))
        try q.move(positions: 990..<991, to: 0)
        #expect(try store.save(q.songs, version: q.version) == .init(reordered: 1))
        q.update(id: 500) { $0.song.title = "retitled" }
        #expect(try store.save(q.songs, version: q.version) == .init(updated: 1))
        #expect(try store.save(q.songs, version: q.version) == .init())
        let loaded = try Self.songs(QueueStore(path: dir + "/queue.sqlite").load(version: q.version))
        #expect(loaded.map(\.id) == q.songs.map(\.id))
        #expect(loaded.first { $0.id == 500 }?.song.title == "retitled")
    }

    @Test func stateFilesMoveAnOlderStateJSONsQueueIntoTheDatabase() throws {
        let dir = Self.directory()
        defer { Self.clean(dir) }
        let q = Self.queue(20)
        var old = SavedState(
            queue: q.songs, queueVersion: q.version, nextID: q.upcomingID, current: 5, state: .pause,
            elapsed: 12.5, modes: PlaybackModes(), volume: 40, outputEnabled: true, replayGainMode: "off",
            crossfade: nil)
        old.format = 1
        try JSONFile<SavedState>(path: dir + "/state.json", log: Log(level: .error)).save(old)
        let files = StateFiles(directory: dir, log: Log(level: .error))
        let loaded = try #require(files.load())
        #expect(files.needsMigration && loaded.queue == q.songs)
        let written = try files.save(loaded)
        #expect(written.rows.inserted == 20 && written.stateBytes < 1000)
        // The next start reads the queue from queue.sqlite.
        let again = StateFiles(directory: dir, log: Log(level: .error))
        let restored = try #require(again.load())
        #expect(!again.needsMigration)
        #expect(restored.queue.map(\.song) == q.songs.map(\.song) && restored.current == 5 && restored.volume == 40)
        // A save with the queue unchanged writes state.json alone.
        #expect(try again.save(restored) == .init(stateBytes: written.stateBytes))
    }

    @Test func aFailedSaveKeepsTheLastGoodStateAndIsRedoneWhole() throws {
        let dir = Self.directory()
        defer { Self.clean(dir) }
        var q = Self.queue(3)
        let state = { (q: Queue) in
            SavedState(
                queue: q.songs, queueVersion: q.version, nextID: q.upcomingID, current: nil, state: .stop,
                elapsed: 0, modes: PlaybackModes(), volume: 100, outputEnabled: true, replayGainMode: "off",
                crossfade: nil)
        }
        let files = StateFiles(directory: dir, log: Log(level: .error))
        try files.save(state(q))
        try q.add(Song(uri: "deezer:track:99"))
        // state.json cannot be replaced: a directory stands in the way of its temporary file.
        let temp = dir + "/state.json.tmp-\(getpid())"
        try FileSystem.makeDirectories(temp)
        #expect(throws: StorageError.self) { try files.save(state(q)) }
        try FileSystem.removeDirectory(temp)
        let kept = try #require(StateFiles(directory: dir, log: Log(level: .error)).load())
        #expect(kept.queue.count == 4)  // the queue's rows were committed before state.json failed
        #expect(try files.save(state(q)).stateBytes > 0)
    }

    @Test func aRowPreviewdCouldNotHoldIsAProblemNotClamped() throws {
        let q = Self.queue(3)
        for (sql, reason) in [
            ("UPDATE songs SET priority = 99999 WHERE id = 2", "row 2: priority out of range: 99999"),
            ("UPDATE songs SET uri = 'file:///etc/passwd' WHERE id = 1", "row 1: song 1: not an http(s):// or deezer: URI"),
            ("UPDATE songs SET track = 70000 WHERE id = 3", "row 3: track out of range: 70000"),
            ("UPDATE songs SET added_tags = x'00ff' WHERE id = 2", "row 2: song 2: added tags do not parse"),
        ] {
            let dir = Self.directory()
            defer { Self.clean(dir) }
            try QueueStore(path: dir + "/queue.sqlite").save(q.songs, version: q.version)
            try SQLiteDatabase(path: dir + "/queue.sqlite").execute(sql)  // edited by hand
            let loaded = try QueueStore(path: dir + "/queue.sqlite").load(version: 1)
            guard case .problem(let got) = loaded else {
                Issue.record("\(sql) was taken")
                continue
            }
            #expect(got == reason)
        }
    }
}
