@testable import PreviewCore
import Testing

@Suite struct SongInterningTests {
    private static func song(_ i: Int, album: Int?) -> QueuedSong {
        var s = Song(
            uri: "deezer:track:\(1000 + i % 2)", title: "A title long enough for the heap \(i % 2)",
            artist: "Some artist of the album", album: "The album")
        s.albumTags = AlbumTags(
            id: album, artist: "Some artist of the album", date: "2001-03-07", genres: ["Dance"],
            complete: true)
        return QueuedSong(id: SongID(i + 1), song: s)
    }

    /// Equal values come out as one storage; the songs are unchanged.
    @Test func equalValuesShareOneStorage() {
        let decoded = (0..<6).map { SongInterningTests.song($0, album: 302127) }
        let shared = SongInterning.shared(decoded)
        #expect(shared == decoded)
        let tags = shared.compactMap(\.song.albumTags)
        #expect(tags.allSatisfy { $0 === tags[0] })
        #expect(!decoded.compactMap(\.song.albumTags).allSatisfy { $0 === decoded[0].song.albumTags })
        // Two tracks alternate: their URIs and titles are two storages, not six.
        let uris = Set(shared.map { $0.song.uri.utf8.withContiguousStorageIfAvailable { Int(bitPattern: $0.baseAddress) } })
        #expect(uris.count == 2)
    }

    /// Album tags that differ, or belong to another album, stay apart.
    @Test func differentAlbumTagsStayApart() {
        var other = SongInterningTests.song(1, album: 302127)
        other.song.albumTags = AlbumTags(id: 302127, artist: "Someone else", complete: true)
        let shared = SongInterning.shared([
            SongInterningTests.song(0, album: 302127), other,
            SongInterningTests.song(2, album: 1), SongInterningTests.song(3, album: nil),
        ])
        let tags = shared.compactMap(\.song.albumTags)
        #expect(tags[0] !== tags[1] && tags[0] !== tags[2] && tags[0] !== tags[3])
        #expect(tags[1].artist == "Someone else" && tags[2].id == 1 && tags[3].id == nil)
    }
}
