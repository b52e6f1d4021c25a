import Glibc
import PreviewCore
import Testing
@testable import PreviewServer
import PreviewPlatform

@Suite struct PlaylistStoreTests {
    static func store(maxLength: Int) -> PlaylistStore {
        PlaylistStore(directory: "/tmp/previewd-playlist-store-\(getpid())-\(maxLength)", maxLength: maxLength)
    }

    @Test func aPlaylistHoldsAsManySongsAsTheQueue() throws {
        let store = Self.store(maxLength: 2)
        defer { store.removeAll() }
        let songs = [Song(uri: "http://127.0.0.1:1/a.mp3"), Song(uri: "http://127.0.0.1:1/b.mp3")]
        try store.store("two", songs)
        #expect(try store.load("two") == songs)
        #expect(throws: ProtocolError(.playlistMax, "Playlist is too large")) { try store.store("three", songs + songs[..<1]) }
        #expect(!store.exists("three"))
        #expect(PlaylistStore(directory: "/nonexistent").maxLength == Queue.defaultMaxLength)
    }

    @Test func aLineThatCannotBeReadIsNamed() throws {
        let store = Self.store(maxLength: 10)
        defer { store.removeAll() }
        try store.store("x", [Song(uri: "u", duration: 30)])
        try AtomicFile.write(Array("#EXTM3U\n#EXTINF:1e400,t\nu\n".utf8), to: store.directory + "/x.m3u")
        #expect(throws: ProtocolError(.playlistLoad, "x.m3u line 2: duration out of range: 1e400")) { try store.load("x") }
    }
}
