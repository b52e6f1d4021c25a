import Glibc
import PreviewCore
import Synchronization
import Testing
import PreviewPlatform
@testable import PreviewStorage

@Suite struct PlaylistStoreTests {
    static let counter = Atomic<Int>(0)
    /// A directory of its own per call: the tests run in parallel, and one's
    /// `removeAll` must not empty another's.
    static func store(maxLength: Int) -> PlaylistStore {
        let n = PlaylistStoreTests.counter.add(1, ordering: .relaxed).newValue
        return PlaylistStore(directory: "/tmp/previewd-playlist-store-\(getpid())-\(n)", maxLength: maxLength)
    }

    @Test func aPlaylistHoldsAsManySongsAsTheQueue() throws {
        let store = Self.store(maxLength: 2)
        defer { store.removeAll() }
        let songs = [Song(uri: "http://127.0.0.1:1/a.mp3"), Song(uri: "http://127.0.0.1:1/b.mp3")]
        try store.store("two", songs)
        #expect(try store.load("two") == songs)
        #expect(throws: StorageError.tooLarge) { try store.store("three", songs + songs[..<1]) }
        #expect(StorageError.tooLarge.protocolError == ProtocolError(.playlistMax, "Playlist is too large"))
        #expect(!store.exists("three"))
        #expect(PlaylistStore(directory: "/nonexistent").maxLength == Queue.defaultMaxLength)
    }

    @Test func aLineThatCannotBeReadIsNamed() throws {
        let store = Self.store(maxLength: 10)
        defer { store.removeAll() }
        try store.store("x", [Song(uri: "u", duration: 30)])
        try AtomicFile.write(Array("#EXTM3U\n#EXTINF:1e400,t\nu\n".utf8), to: store.directory + "/x.m3u")
        let unreadable = StorageError.unreadableLine(file: "x.m3u", line: 2, reason: "duration out of range: 1e400")
        #expect(throws: unreadable) { try store.load("x") }
        #expect(unreadable.protocolError == ProtocolError(.playlistLoad, "x.m3u line 2: duration out of range: 1e400"))
    }

    @Test func storageErrorsBecomeMPDsAcks() throws {
        let store = Self.store(maxLength: 10)
        defer { store.removeAll() }
        #expect(throws: StorageError.badName("Bad playlist name")) { try store.load("../x") }
        #expect(throws: StorageError.noSuchPlaylist) { try store.remove("missing") }
        try store.store("a", [])
        try store.store("b", [])
        #expect(throws: StorageError.playlistExists) { try store.rename("a", to: "b") }
        let acks = [StorageError.badName("Bad playlist name"), .noSuchPlaylist, .playlistExists].map(\.protocolError)
        #expect(
            acks == [
                ProtocolError(.argument, "Bad playlist name"), ProtocolError(.noExist, "No such playlist"),
                ProtocolError(.exist, "Playlist exists already"),
            ])
    }
}
