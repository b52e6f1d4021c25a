import PreviewCore
import PreviewTestSupport
import Testing
@testable import PreviewCatalog

/// Catalog browsing answers with models (songs, tracks, albums) or an ACK
/// naming the item, from the recorded Deezer bodies in ../shared/fixtures.
@Suite struct CatalogBrowserTests {
    /// Runs `body` with the bench's browser and returns what its completion got.
    func answer<T>(_ h: CatalogBench, _ body: (CatalogBrowser, @escaping (T) -> Void) -> Void) throws -> T {
        var got: T?
        body(h.browser) { got = $0 }
        h.settle()
        return try #require(got)
    }

    @Test func anAlbumIsItsTracksWithTheAlbumTitle() throws {
        let h = CatalogBench()
        let songs = try answer(h) { b, done in b.songs(for: .album(302127), completion: done) }.get()
        #expect(songs.count == 14)
        #expect(songs.first?.title == "One More Time" && songs.first?.album == "Discovery")
        #expect(h.requested.map { $0.split(separator: "?")[0] } == ["http://api.test/album/302127", "http://api.test/album/302127/tracks"])
    }

    @Test func anUnknownAlbumIsAnAckNamingIt() throws {
        let h = CatalogBench()
        let result = try answer(h) { b, done in b.songs(for: .album(1), completion: done) }
        #expect(throws: ProtocolError(.noExist, "deezer:album:1: not found (Deezer: no data, error 800)")) { try result.get() }
    }

    @Test func aSearchNeedsATagDeezerCanSearchFor() throws {
        let h = CatalogBench()
        let filter = try SongFilter.parse(["(artist != 'x')"], foldCase: false)
        let result = try answer(h) { b, done in b.search(filter).run(done) }
        #expect(throws: ProtocolError(.argument, "The filter needs a tag to search for (any, artist, album or title)")) { try result.get() }
        // A file search that names no catalog track (ncmpc's Filename mode): no song, no ACK.
        let byFile = try SongFilter.parse(["file", "eminem"], foldCase: true)
        #expect(try answer(h) { b, done in b.search(byFile).run(done) }.get() == [])
        #expect(h.requested.isEmpty)
    }

    @Test func describeGivesTracksAlbumsAndWhatItCannotSay() throws {
        let h = CatalogBench()
        let found = try answer(h) { b, done in
            b.describe(["deezer:track:3135556", "deezer:album:1", "http://radio.test/live.mp3"], completion: done)
        }
        #expect(found.count == 3)
        guard case .track(let song) = found[0] else { Issue.record("not a track: \(found[0])"); return }
        #expect(song.uri == "deezer:track:3135556" && song.title == "Harder, Better, Faster, Stronger")
        #expect(song.values(of: .genre) == ["Dance"], "a described track carries its album's tags")
        guard case .unknownAlbum("deezer:album:1") = found[1], case .unknown("http://radio.test/live.mp3") = found[2] else {
            Issue.record("\(found[1]), \(found[2])")
            return
        }
    }
}
