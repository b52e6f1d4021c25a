import PreviewTestSupport
import Testing
@testable import PreviewCore
@testable import PreviewPlayback
@testable import PreviewServer

/// Tags a listing lacks, looked up once per album (issue 15's "look it up
/// once and cache it"), against the recorded bodies.
@Suite struct TagLookupTests {
    func paths(_ h: Harness) -> [String] {
        h.requested.map { String($0.split(separator: "?")[0].dropFirst("http://api.test".count)) }
    }

    @Test func aTrackComesInWithItsAlbumsTags() {
        let h = Harness()
        let c = h.connect()
        #expect(h.send(c, "add deezer:track:3135556\n") == "OK\n")
        #expect(paths(h) == ["/track/3135556", "/album/302127"])
        let song = h.controller.queuedSongs[0].song
        #expect(song.values(of: .genre) == ["Dance"])
        #expect(song.values(of: .date) == ["2001-03-07"])
        #expect(song.values(of: .albumArtist) == ["Daft Punk"])
        #expect(song.values(of: .label) == ["Daft Life Ltd./ADA France"])
        #expect(song.values(of: .track) == ["4"] && song.values(of: .disc) == ["1"])
        // The album's other tracks need no second album request.
        #expect(h.send(c, "add deezer:album:302127\n") == "OK\n")
        // (The recorded album body holds preview URLs long expired, so the
        // API client does not keep it: queuing the album asks for it again.)
        #expect(paths(h) == ["/track/3135556", "/album/302127", "/album/302127", "/album/302127/tracks"])
        #expect(h.controller.queuedSongs[1].song.albumTags === song.albumTags)
    }

    @Test func aListingOfManyAlbumsIsQueuedFirstAndRetaggedAfter() {
        let h = Harness()
        h.holdAnswers = true
        let c = h.connect()
        #expect(h.send(c, "add deezer:artist:27\n") == "")
        h.release()  // /artist/27/top: three albums, so the songs go in before their lookups
        #expect(h.take(c) == "OK\n")
        let idle = h.connect()
        #expect(h.controller.queueLength == 5)
        #expect(h.controller.queuedSongs[0].song.values(of: .genre) == [])
        #expect(h.send(idle, "idle playlist\n") == "")
        h.release()  // /album/302127
        h.release()  // /album/302127/tracks (the top list gives no track numbers)
        h.release()  // /album/6575789: no recorded body (error 800), so not asked again
        h.release()  // /album/6516139: likewise
        #expect(h.take(idle) == "changed: playlist\nOK\n")
        let songs = h.controller.queuedSongs.map(\.song)
        #expect(songs.map { $0.values(of: .genre) } == [["Dance"], [], [], ["Dance"], []])
        #expect(songs.map { $0.values(of: .track) } == [["11"], [], [], ["1"], []])
        #expect(paths(h) == ["/artist/27/top", "/album/302127", "/album/302127/tracks", "/album/6575789", "/album/6516139"])
        h.holdAnswers = false
        #expect(h.send(c, "add deezer:artist:27\n") == "OK\n")
        #expect(paths(h).filter { $0.hasPrefix("/album/") }.count == 4, "the albums are known, or known to fail")
        #expect(h.controller.queuedSongs[5].song.values(of: .genre) == ["Dance"], "and the second time in whole")
    }

    @Test func listAndFindUseTheNewTags() {
        let h = Harness()
        let c = h.connect()
        #expect(h.send(c, "add deezer:album:302127\n") == "OK\n")
        #expect(h.send(c, "playlistfind genre Dance\n").components(separatedBy: "file: ").count == 15)
        #expect(h.send(c, "playlistsearch track 14\n").hasPrefix("file: deezer:track:3135566\n"))
        #expect(
            h.send(c, "tagtypes\n") == """
                tagtype: Artist
                tagtype: Album
                tagtype: AlbumArtist
                tagtype: Title
                tagtype: Track
                tagtype: Genre
                tagtype: Date
                tagtype: Disc
                tagtype: Label
                OK

                """)
        #expect(
            h.send(c, "tagtypes clear\ntagtypes enable genre track\nplaylistinfo 0\n") == """
                OK
                OK
                file: deezer:track:3135553
                Track: 1
                Genre: Dance
                Time: 30
                duration: 30.000
                Pos: 0
                Id: 1
                OK

                """)
    }
}
