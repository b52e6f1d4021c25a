import PreviewCore
import PreviewTestSupport
import Testing
@testable import PreviewServer
@testable import PreviewCatalog

/// Country and tag charts of tracks, artists and albums: Last.fm's recorded
/// bodies (../shared/fixtures/lastfm) decoded, and `catalogchart` finding
/// each entry on Deezer, in Last.fm's order, naming the entries it could not.
@Suite struct LastfmChartTests {
    static let lastfm = "https://ws.audioscrobbler.com/2.0/"

    func recorded(_ name: String) -> HTTPResult {
        let text = Fixtures.read("fixtures/lastfm/" + name) ?? ""
        #expect(!text.isEmpty, "fixture \(name)")
        return HTTPResult(status: 200, contentType: "application/json", body: Array(text.utf8), transportError: nil)
    }

    func json(_ text: String) -> HTTPResult {
        HTTPResult(status: 200, contentType: "application/json", body: Array(text.utf8), transportError: nil)
    }

    /// The page a recorded body holds, as the client decodes it.
    func chart(_ kind: LastfmClient.Kind, _ name: String, limit: Int = 100) -> Result<LastfmClient.Chart, LastfmError>? {
        let client = LastfmClient(base: Self.lastfm, key: "k") { _, done in done(recorded(name)) }
        var out: Result<LastfmClient.Chart, LastfmError>?
        client.top(kind, country: nil, tag: "t", limit: limit) { out = $0 }
        return out
    }

    func values(_ reply: String, _ key: String) -> [String] {
        reply.split(separator: "\n").compactMap { line in
            line.hasPrefix(key + ": ") ? String(line.dropFirst(key.count + 2)) : nil
        }
    }

    @Test func everyRecordedTopListDecodesWithItsTotal() throws {
        let cases: [(LastfmClient.Kind, String, Int, Int)] = [
            (.tracks, "geo-gettoptracks-united-states-limit5-page2.json", 5, 10000),
            (.tracks, "geo-gettoptracks-canada-limit10.json", 10, 11_953_466),
            (.tracks, "tag-gettoptracks-pop-limit5-page2.json", 5, 2780),
            (.tracks, "tag-gettoptracks-unknown-tag-empty.json", 0, 0),
            (.artists, "geo-gettopartists-united-states-limit20.json", 20, 2265),
            (.artists, "geo-gettopartists-canada-limit10.json", 10, 1_474_249),
            (.artists, "tag-gettopartists-dream-pop-limit5-page2.json", 5, 8498),
            (.artists, "tag-gettopartists-rock-2016.json", 50, 212_062),
            (.albums, "tag-gettopalbums-pop-limit5-page2.json", 5, 31957),
            (.albums, "tag-gettopalbums-dream-pop-limit20.json", 20, 4213),
            (.albums, "tag-gettopalbums-unknown-tag-empty.json", 0, 0),
        ]
        for (kind, name, count, total) in cases {
            let page = try #require(try chart(kind, name)?.get(), "\(name)")
            #expect(page.entries.count == count && page.total == total, "\(name)")
        }
        let albums = try #require(try chart(.albums, "tag-gettopalbums-pop-limit5-page2.json")?.get())
        #expect(albums.entries.first == LastfmClient.Entry(artist: "Fergie", title: "The Dutchess"))
        #expect(albums.entries.first?.name == "Fergie - The Dutchess")
        let artists = try #require(try chart(.artists, "geo-gettopartists-canada-limit10.json")?.get())
        #expect(artists.entries.first == LastfmClient.Entry(artist: "Radiohead", title: nil))
        // An answer of another kind is no list of this one; a page is cut to the limit asked for.
        #expect(chart(.albums, "tag-gettopartists-rock-2016.json") == .failure(.malformed(status: 200)))
        #expect(try chart(.tracks, "tag-gettoptracks-rock-2016.json", limit: 3)?.get().entries.count == 3)
    }

    @Test func anArtistChartFindsNamesWithoutCaseAndNamesTheRest() {
        let h = Harness(lastfmKey: "k")
        h.binary = { url in
            if url.hasPrefix(Self.lastfm) { return self.recorded("tag-gettopartists-dream-pop-limit5-page2.json") }
            // Slowdive's first hit is another artist: the one named so (any case) is taken.
            if url.contains("/search/artist?q=Slowdive&") {
                return self.json(#"{"data":[{"id":10,"name":"Slowdive Tribute"},{"id":11,"name":"SLOWDIVE"}],"total":2}"#)
            }
            if url.contains("/search/artist?q=Cocteau%20Twins&") { return self.json(#"{"data":[{"id":12,"name":"Cocteau Twins"}]}"#) }
            if url.contains("/search/artist?q=Ethel%20Cain&") { return self.json(#"{"data":[{"id":13,"name":"Ethel"}]}"#) }
            return url.contains("/search/") ? self.json(#"{"data":[],"total":0}"#) : nil
        }
        let c = h.connect()
        let reply = h.send(c, "catalogchart artists tag \"dream pop\" limit 5 page 2\n")
        #expect(
            reply == "artist: deezer:artist:12\nName: Cocteau Twins\nartist: deezer:artist:11\nName: SLOWDIVE\n"
                + "total: 8498\nunresolved_name: Ethel Cain\nunresolved_name: Strawberry Guy\n"
                + "unresolved_name: girl in red\nunresolved: 3\nOK\n")
        #expect(h.requested.first == Self.lastfm + "?method=tag.gettopartists&tag=dream%20pop&limit=5&page=2&api_key=k&format=json")
        #expect(h.requested.count == 1 + 5)
        #expect(h.requested[1] == "http://api.test/search/artist?q=Cocteau%20Twins&limit=\(CatalogBrowser.artistSearchHits)")
        // Warm: Last.fm is asked again, Deezer's answers come from the cache.
        #expect(h.send(c, "catalogchart artists tag \"dream pop\" limit 5 page 2\n") == reply)
        #expect(h.requested.count == 1 + 5 + 1)
        #expect(values(h.send(c, "catalogstats\n"), "cache_hits") == ["5"])
    }

    @Test func anAlbumChartByTagAndNoneByCountry() {
        let h = Harness(lastfmKey: "k")
        h.binary = { url in
            if url.hasPrefix(Self.lastfm) { return self.recorded("tag-gettopalbums-pop-limit5-page2.json") }
            if url.contains("/search/album?q=" + percentEncodeQueryValue(#"artist:"Spice Girls" album:"Spice""#) + "&limit=1") {
                return self.json(#"{"data":[{"id":7,"title":"Spice","artist":{"id":3,"name":"Spice Girls"}}]}"#)
            }
            return url.contains("/search/") ? self.json(#"{"data":[],"total":0}"#) : nil
        }
        let c = h.connect()
        let reply = h.send(c, "catalogchart albums tag pop limit 5 page 2\n")
        #expect(values(reply, "album") == ["deezer:album:7"])
        #expect(values(reply, "total") == ["31957"] && values(reply, "unresolved") == ["4"])
        #expect(
            values(reply, "unresolved_name") == [
                "Fergie - The Dutchess", "Taylor Swift - Speak Now",
                "Madonna - True Blue", "Natalie Imbruglia - Left of the Middle",
            ])
        #expect(h.requested.count == 1 + 5)
        h.requested = []
        #expect(
            h.send(c, "catalogchart albums country canada\n")
                == "ACK [2@0] {catalogchart} Last.fm has no album chart by country (no geo.getTopAlbums): give a tag\n")
        #expect(
            h.send(c, "catalogchart playlists tag rock\n")
                == "ACK [2@0] {catalogchart} country and tag charts list tracks, artists and albums\n")
        #expect(h.send(c, "catalogchart tracks tag rock page 0\n") == "ACK [2@0] {catalogchart} pages count from 1\n")
        #expect(h.requested.isEmpty)
    }

    @Test func aTrackChartPageIsCutToItsLimit() {
        let h = Harness(lastfmKey: "k")
        h.binary = { url in
            if url.hasPrefix(Self.lastfm) { return self.recorded("tag-gettoptracks-rock-2016.json") }
            if url.contains("/search/track?q=") {
                let oasis = url.contains(percentEncodeQueryValue(#"artist:"Oasis" track:"Wonderwall""#))
                return self.json(oasis ? #"{"data":[{"id":5,"title":"Wonderwall","artist":{"name":"Oasis"}}]}"# : #"{"data":[]}"#)
            }
            return nil
        }
        let c = h.connect()
        let reply = h.send(c, "catalogchart tracks tag rock limit 3\n")
        // 50 entries recorded (for Last.fm's default of 50): three asked, three searched.
        #expect(values(reply, "file") == ["deezer:track:5"])
        #expect(values(reply, "unresolved_name") == ["Nirvana - Smells Like Teen Spirit", "The Killers - Mr. Brightside"])
        #expect(values(reply, "total") == ["1862940"])
        #expect(h.requested.count == 1 + 3)
    }
}
