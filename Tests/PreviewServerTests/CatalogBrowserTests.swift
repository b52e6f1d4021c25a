import PreviewCore
import Testing
@testable import PreviewServer

/// Catalog browsing answers with models (songs, tracks, albums) or an ACK
/// naming the item, from the recorded Deezer bodies in ../shared/fixtures.
@Suite struct CatalogBrowserTests {
    /// Runs `body` with the harness's browser and returns what its completion got.
    func answer<T>(_ h: Harness, _ body: (CatalogBrowser, @escaping (T) -> Void) -> Void) throws -> T {
        var got: T?
        body(h.controller.catalog) { got = $0 }
        h.settle()
        return try #require(got)
    }

    @Test func anAlbumIsItsTracksWithTheAlbumTitle() throws {
        let h = Harness()
        let songs = try answer(h) { b, done in b.songs(for: .album(302127), completion: done) }.get()
        #expect(songs.count == 14)
        #expect(songs.first?.title == "One More Time" && songs.first?.album == "Discovery")
        #expect(h.requested.map { $0.split(separator: "?")[0] } == ["http://api.test/album/302127", "http://api.test/album/302127/tracks"])
    }

    @Test func anUnknownAlbumIsAnAckNamingIt() throws {
        let h = Harness()
        let result = try answer(h) { b, done in b.songs(for: .album(1), completion: done) }
        #expect(throws: ProtocolError(.noExist, "deezer:album:1: not found (Deezer: no data, error 800)")) { try result.get() }
    }

    @Test func aSearchNeedsATagDeezerCanSearchFor() throws {
        let h = Harness()
        let filter = try SongFilter.parse(["file", "http://radio.test/live.mp3"], foldCase: false)
        let result = try answer(h) { b, done in b.search(filter, completion: done) }
        #expect(throws: ProtocolError(.argument, "The filter needs a tag to search for (any, artist, album or title)")) { try result.get() }
        #expect(h.requested.isEmpty)
    }

    @Test func describeGivesTracksAlbumsAndWhatItCannotSay() throws {
        let h = Harness()
        let found = try answer(h) { b, done in
            b.describe(["deezer:track:3135556", "deezer:album:1", "http://radio.test/live.mp3"], completion: done)
        }
        #expect(found.count == 3)
        guard case .track(let track) = found[0] else { Issue.record("not a track: \(found[0])"); return }
        #expect(track.id == 3135556 && track.title == "Harder, Better, Faster, Stronger")
        guard case .unknownAlbum("deezer:album:1") = found[1], case .unknown("http://radio.test/live.mp3") = found[2] else {
            Issue.record("\(found[1]), \(found[2])")
            return
        }
    }

    @Test func theStatusReplyIsBuiltOncePerKey() {
        let cache = StatusCache()
        var builds = 0
        let key = PlayerController.StatusKey(changes: 1, elapsedMillis: 0, format: nil, bitrate: 0, error: nil)
        let build = { (r: inout Reply) in
            builds += 1
            r.field("state", "stop")
        }
        #expect(cache.reply(for: key, build: build) == Array("state: stop\n".utf8))
        #expect(cache.reply(for: key, build: build) == Array("state: stop\n".utf8))
        #expect(builds == 1)
        var later = key
        later.changes = 2
        _ = cache.reply(for: later, build: build)
        #expect(builds == 2)
    }
}
