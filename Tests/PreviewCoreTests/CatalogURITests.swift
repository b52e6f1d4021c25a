import Testing
@testable import PreviewCore

@Suite struct CatalogURITests {
    @Test func deezerURIs() throws {
        #expect(try CatalogURI(parsing: "deezer:track:3135556") == .track(3135556))
        #expect(try CatalogURI(parsing: "deezer:album:302127") == .album(302127))
        #expect(try CatalogURI(parsing: "deezer:playlist:908622995") == .playlist(908622995))
        #expect(try CatalogURI(parsing: "deezer:artist:27") == .artist(27))
        #expect(try CatalogURI(parsing: "deezer:chart") == .chart)
        #expect(try CatalogURI(parsing: "deezer:track:-1") == .track(-1))
    }

    @Test func webLinks() throws {
        #expect(try CatalogURI(parsing: "https://www.deezer.com/track/3135556") == .track(3135556))
        #expect(try CatalogURI(parsing: "https://www.deezer.com/fr/album/302127?utm_source=x") == .album(302127))
        #expect(try CatalogURI(parsing: "http://deezer.com/en/playlist/9") == .playlist(9))
    }

    @Test func streamsAndRefusals() throws {
        #expect(try CatalogURI(parsing: "http://127.0.0.1:8/a.mp3") == .stream("http://127.0.0.1:8/a.mp3"))
        #expect(throws: ProtocolError(.permission, "Access denied")) { try CatalogURI(parsing: "file:///etc/passwd") }
        #expect(throws: ProtocolError(.argument, "Unsupported URI scheme")) { try CatalogURI(parsing: "ftp://x/y.mp3") }
        #expect(throws: ProtocolError(.noExist, "No such directory")) { try CatalogURI(parsing: "music/a.mp3") }
        #expect(throws: ProtocolError(.argument, "Invalid Deezer id in deezer:track:abc")) { try CatalogURI(parsing: "deezer:track:abc") }
        // The byte-level track reader and the full parser give the same answers.
        #expect(try CatalogURI(parsing: "deezer:track:0123") == .track(123))
        #expect(try CatalogURI(parsing: "deezer:track:123456789012345678") == .track(123456789012345678))
        #expect(throws: ProtocolError(.argument, "Invalid Deezer id in deezer:track:0")) { try CatalogURI(parsing: "deezer:track:0") }
        #expect(throws: ProtocolError(.argument, "Invalid Deezer id in deezer:track:+5")) { try CatalogURI(parsing: "deezer:track:+5") }
        #expect(throws: ProtocolError(.argument, "Invalid Deezer id in deezer:track:99999999999999999999")) {
            try CatalogURI(parsing: "deezer:track:99999999999999999999")
        }
        #expect(throws: ProtocolError(.argument, "Invalid Deezer id in deezer:track:")) { try CatalogURI(parsing: "deezer:track:") }
        #expect(throws: ProtocolError(.argument, "Unsupported Deezer item kind: show")) { try CatalogURI(parsing: "deezer:show:1") }
        #expect(throws: ProtocolError(.argument, "Unsupported Deezer link: https://www.deezer.com/")) {
            try CatalogURI(parsing: "https://www.deezer.com/")
        }
    }

    @Test func expiry() {
        #expect(previewExpiry(of: "https://cdnt-preview.dzcdn.net/a.mp3?hdnea=exp=1737423433~acl=/x") == 1737423433)
        #expect(previewExpiry(of: "https://cdns-preview-d.dzcdn.net/stream/c-1.mp3") == nil)
    }

    @Test func trackSong() {
        let t = DeezerTrack(
            id: 5, title: "T", duration: 12, preview: "", readable: true,
            artist: DeezerArtistRef(id: 1, name: "A"), album: nil)
        var expected = Song(uri: "deezer:track:5", title: "T", artist: "A", album: "Al", duration: 12)
        expected.unplayable = "deezer:track:5 has no preview"
        #expect(t.song(albumTitle: "Al") == expected)
        var unreadable = t
        unreadable.preview = "http://cdn/x.mp3"
        unreadable.readable = false
        #expect(unreadable.unplayableReason == "deezer:track:5 is not available in this country")
        unreadable.readable = nil
        #expect(unreadable.unplayableReason == nil)
    }
}
