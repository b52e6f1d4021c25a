import PreviewCore
import Testing
@testable import PreviewServer
@testable import PreviewCatalog
@testable import PreviewPlayback

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
        let filter = try SongFilter.parse(["(artist != 'x')"], foldCase: false)
        let result = try answer(h) { b, done in b.search(filter).run(done) }
        #expect(throws: ProtocolError(.argument, "The filter needs a tag to search for (any, artist, album or title)")) { try result.get() }
        // A file search that names no catalog track (ncmpc's Filename mode): no song, no ACK.
        let byFile = try SongFilter.parse(["file", "eminem"], foldCase: true)
        #expect(try answer(h) { b, done in b.search(byFile).run(done) }.get() == [])
        #expect(h.requested.isEmpty)
    }

    @Test func describeGivesTracksAlbumsAndWhatItCannotSay() throws {
        let h = Harness()
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

/// Covers as clients ask for them: the URI of a song or an album, maybe
/// with a trailing `/` (Cantata asks for the song's directory).
@Suite struct CoverTests {

    func harness(coverStatus: Int?) -> Harness {
        let h = Harness()
        h.bodies["/track/7"] = #"{"id":7,"title":"T","album":{"id":9,"title":"A","cover_big":"http://cdn.test/images/cover/9.jpg"}}"#
        h.binary = { url in
            guard url.hasPrefix("http://cdn.test/") else { return nil }
            if let coverStatus { return HTTPResult(status: coverStatus, contentType: "text/html", body: [], transportError: nil) }
            return HTTPResult(status: 0, contentType: nil, body: [], transportError: "Could not resolve host: cdn.test")
        }
        return h
    }

    @Test func aTrailingSlashNamesTheSameSong() throws {
        let h = harness(coverStatus: 200)
        let c = h.connect()
        let plain = h.send(c, "albumart deezer:track:7 0\n")
        #expect(plain.hasPrefix("size: 0\nbinary: 0\n"))
        #expect(h.send(c, "albumart \"deezer:track:7/\" 0\n") == plain)
    }

    @Test func aCoverThatCannotBeFetchedNamesTheImageHost() {
        let h = harness(coverStatus: nil)
        let c = h.connect()
        #expect(h.send(c, "albumart deezer:track:7 0\n")
                == "ACK [52@0] {albumart} deezer:track:7: cannot fetch the cover from cdn.test: Could not resolve host: cdn.test\n")
        let refused = harness(coverStatus: 404)
        let d = refused.connect()
        #expect(refused.send(d, "albumart deezer:track:7/ 0\n")
                == "ACK [52@0] {albumart} deezer:track:7: cannot fetch the cover from cdn.test: HTTP status 404\n")
    }

    @Test func theHostOfAURL() {
        #expect(DeezerClient.host(of: "https://cdn-images.dzcdn.net/images/cover/x.jpg") == "cdn-images.dzcdn.net")
        #expect(DeezerClient.host(of: "http://user:pw@127.0.0.1:8080?x") == "127.0.0.1:8080")
    }
}
