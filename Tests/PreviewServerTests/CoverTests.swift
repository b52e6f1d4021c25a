import PreviewCore
import PreviewTestSupport
import Testing
@testable import PreviewServer
@testable import PreviewCatalog
@testable import PreviewPlayback

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
        #expect(
            h.send(c, "albumart deezer:track:7 0\n")
                == "ACK [52@0] {albumart} deezer:track:7: cannot fetch the cover from cdn.test: Could not resolve host: cdn.test\n")
        let refused = harness(coverStatus: 404)
        let d = refused.connect()
        #expect(
            refused.send(d, "albumart deezer:track:7/ 0\n")
                == "ACK [52@0] {albumart} deezer:track:7: cannot fetch the cover from cdn.test: HTTP status 404\n")
    }

    @Test func theHostOfAURL() {
        #expect(DeezerClient.host(of: "https://cdn-images.dzcdn.net/images/cover/x.jpg") == "cdn-images.dzcdn.net")
        #expect(DeezerClient.host(of: "http://user:pw@127.0.0.1:8080?x") == "127.0.0.1:8080")
    }
}
