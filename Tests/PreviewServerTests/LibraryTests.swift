import Glibc
import PreviewCore
import PreviewPlatform
import PreviewTestSupport
import Testing
@testable import PreviewServer
@testable import PreviewStorage

/// The Library over the harness: album 302127 "Discovery" (14 tracks),
/// track 3135556 and artist 27 answer from the recorded fixtures.
@Suite struct LibraryTests {
    /// The harness's wall clock, 1_796_169_600, as ISO time.
    static let added = "2026-12-02T00:00:00Z"
    static let albumIDs = Array(3135553...3135566)

    static let track3135556 = """
        file: deezer:track:3135556
        Artist: Daft Punk
        Title: Harder, Better, Faster, Stronger
        Album: Discovery
        AlbumArtist: Daft Punk
        Track: 4
        Disc: 1
        Date: 2001-03-07
        Genre: Dance
        Label: Daft Life Ltd./ADA France
        Time: 30
        duration: 30.000

        """

    @Test func addRemoveAndAddAgain() {
        let h = Harness()
        let c = h.connect()
        #expect(h.send(c, "libraryadd https://www.deezer.com/fr/track/3135556\n") == "OK\n")
        #expect(h.send(c, "libraryadd deezer:track:3135556\n") == "unchanged: deezer:track:3135556 is already in the library\nOK\n")
        #expect(h.send(c, "librarylist\n") == Self.track3135556 + "added: \(Self.added)\nOK\n")
        #expect(h.send(c, "libraryrm deezer:track:3135556\n") == "OK\n")
        #expect(h.send(c, "libraryrm deezer:track:3135556\n") == "ACK [50@0] {libraryrm} deezer:track:3135556 is not in the library\n")
        #expect(h.send(c, "librarylist\n") == "OK\n")
        #expect(h.instance.library.songs.isEmpty)
    }

    @Test func onlyAlbumsTracksAndArtistsAreSaved() {
        let h = Harness()
        let c = h.connect()
        let reason = "is not an album, a track or an artist: the library holds deezer:album:ID, deezer:track:ID and deezer:artist:ID"
        #expect(h.send(c, "libraryadd deezer:playlist:1\n") == "ACK [2@0] {libraryadd} deezer:playlist:1 \(reason)\n")
        #expect(h.send(c, "libraryrm nonsense\n") == "ACK [2@0] {libraryrm} nonsense \(reason)\n")
        #expect(h.send(c, "libraryadd deezer:track:x\n") == "ACK [2@0] {libraryadd} deezer:track:x \(reason)\n")
        // The catalog's refusal names the item; nothing is saved.
        #expect(
            h.send(c, "libraryadd deezer:track:-1\n") == "ACK [50@0] {libraryadd} deezer:track:-1: not found (Deezer: no data, error 800)\n"
        )
        #expect(
            h.send(c, "libraryadd deezer:album:1\n") == "ACK [50@0] {libraryadd} deezer:album:1: not found (Deezer: no data, error 800)\n")
        #expect(h.instance.library.entries.isEmpty)
    }

    @Test func anAlbumIsSavedWithItsTracks() {
        let h = Harness()
        let c = h.connect()
        let idle = h.connect()
        #expect(h.send(idle, "idle database\n") == "")
        #expect(h.send(c, "libraryadd deezer:album:302127\n") == "OK\n")
        #expect(h.take(idle) == "changed: database\nOK\n")
        #expect(
            h.send(c, "librarylist\n") == """
                album: deezer:album:302127
                Title: Discovery
                Artist: Daft Punk
                Tracks: 14
                added: \(Self.added)
                OK

                """)
        let uris = Self.albumIDs.map { "deezer:track:\($0)" }
        #expect(h.instance.library.songs.map(\.uri) == uris)
        #expect(h.instance.library.songs.allSatisfy { $0.album == "Discovery" && $0.artist == "Daft Punk" && $0.duration == 30 })
        #expect(h.send(c, "listall\n") == uris.map { "file: \($0)\n" }.joined() + "OK\n")
        let info = h.send(c, "listallinfo\n")
        #expect(info == h.send(c, "lsinfo deezer:library\n"))
        #expect(
            info.hasPrefix(
                "file: deezer:track:3135553\nArtist: Daft Punk\nTitle: One More Time\nAlbum: Discovery\n"
                    + "AlbumArtist: Daft Punk\nTrack: 1\nDisc: 1\nDate: 2001-03-07\nGenre: Dance\n"))
        #expect(info.components(separatedBy: "\nfile: ").count == 14)
        #expect(
            h.send(c, "lsinfo\n") == "directory: Library\ndirectory: Want to Listen\ndirectory: Listen Now\ndirectory: Charts\n"
                + "directory: Genres\ndirectory: Top Picks\ndirectory: New Releases\ndirectory: Radios\nOK\n")
        #expect(h.send(c, "lsinfo Library\n") == info)
        // A catalog URI lists that item's songs, saved or not.
        #expect(h.send(c, "listall deezer:track:3135556\n") == "file: deezer:track:3135556\nOK\n")
    }

    @Test func anArtistIsSavedByName() {
        let h = Harness()
        let c = h.connect()
        #expect(h.send(c, "libraryadd deezer:artist:27\n") == "OK\n")
        #expect(h.send(c, "librarylist\n") == "artist: deezer:artist:27\nArtist: Daft Punk\nadded: \(Self.added)\nOK\n")
        #expect(h.instance.library.songs.isEmpty)
        #expect(h.send(c, "listall\n") == "OK\n")
    }

    @Test func statsCountTheLibrary() {
        let h = Harness()
        let c = h.connect()
        #expect(h.send(c, "stats\n") == "uptime: 0\nplaytime: 0\nartists: 0\nalbums: 0\nsongs: 0\ndb_playtime: 0\nOK\n")
        for uri in ["deezer:album:302127", "deezer:artist:27"] { #expect(h.send(c, "libraryadd \(uri)\n") == "OK\n") }
        h.wallClock += 60
        // Already among the album's songs: counted once, listed at its newer place.
        #expect(h.send(c, "libraryadd deezer:track:3135556\n") == "OK\n")
        #expect(h.instance.library.songs.first?.uri == "deezer:track:3135556")
        #expect(
            h.send(c, "stats\n") == """
                uptime: 0
                playtime: 0
                artists: 1
                albums: 1
                songs: 14
                db_playtime: 420
                db_update: 1796169660
                OK

                """)
        #expect(h.send(c, "librarylist\n").hasPrefix(Self.track3135556 + "added: 2026-12-02T00:01:00Z\nartist: deezer:artist:27\n"))
    }

    @Test func theDatabaseKeepsEverythingAcrossARestart() throws {
        let h = Harness()
        let c = h.connect()
        for uri in ["deezer:album:302127", "deezer:track:3135556", "deezer:artist:27"] {
            #expect(h.send(c, "libraryadd \(uri)\n") == "OK\n")
        }
        h.wallClock += 60
        #expect(h.send(c, "libraryrm deezer:artist:27\n") == "OK\n")
        var warnings: [String] = []
        let reloaded = Library(directory: h.playlistDirectory, log: Log(level: .error), warn: { warnings.append($0) })
        #expect(Array(reloaded.entries) == Array(h.instance.library.entries))
        #expect(reloaded.entries.map(\.uri) == ["deezer:track:3135556", "deezer:album:302127"])
        #expect(reloaded.songs == h.instance.library.songs)
        #expect(reloaded.lastChange == 1_796_169_660)
        #expect(warnings.isEmpty)
    }

    /// Rows as a damaged or hand-edited database may hold them.
    static func insertRows(_ rows: [(uri: String, added: Int, name: String?, songs: String)], into path: String) throws {
        let db = try SQLiteDatabase(path: path)
        let insert = try db.prepare("INSERT INTO items (uri, added, name, songs) VALUES (?, ?, ?, ?)")
        for row in rows {
            try insert.bind(row.uri, at: 1)
            try insert.bind(row.added, at: 2)
            try insert.bind(row.name, at: 3)
            try insert.bind(blob: Array(row.songs.utf8), at: 4)
            #expect(try insert.step() == .done)
            insert.reset()
        }
    }

    static func rowCount(_ path: String) throws -> Int {
        let count = try SQLiteDatabase(path: path).prepare("SELECT count(*) FROM items")
        _ = try count.step()
        return count.int(at: 0)
    }

    @Test func aDamagedRowIsLeftOutAndLoggedThenDroppedAtTheNextChange() throws {
        let h = Harness()
        let path = h.playlistDirectory + "/library.sqlite"
        let song = #"[{"uri":"deezer:track:7","title":"T","addedTags":[]}]"#
        try Self.insertRows(
            [
                ("deezer:track:7", 10, nil, song),
                ("deezer:playlist:1", 11, nil, "[]"),
                ("deezer:track:8", 12, nil, "not json"),
                ("deezer:artist:27", 13, "Daft Punk", song),
                ("deezer:track:9", -1, nil, #"[{"uri":"deezer:track:9","addedTags":[]}]"#),
            ], into: path)
        var warnings: [String] = []
        let library = Library(directory: h.playlistDirectory, log: Log(level: .error), warn: { warnings.append($0) })
        #expect(library.entries.map(\.uri) == ["deezer:track:7"])
        #expect(library.songs == [Song(uri: "deezer:track:7", title: "T")])
        #expect(
            warnings == [
                "\(path): deezer:playlist:1 left out (not an album, a track or an artist: deezer:playlist:1)",
                "\(path): deezer:track:8 left out (songs: : The given data was not valid JSON.)",
                "\(path): deezer:artist:27 left out (deezer:artist:27: an artist keeps no songs)",
                "\(path): deezer:track:9 left out (time out of range: -1)",
            ])
        // The database is left as it was until the next change, which drops
        // those rows (so deezer:track:8 can be saved again).
        #expect(try Self.rowCount(path) == 5)
        let track8 = Library.Resolved(name: nil, artist: nil, songs: [Song(uri: "deezer:track:8", title: "E")])
        #expect(try library.add("deezer:track:8", track8, at: 20))
        #expect(try Self.rowCount(path) == 2)
        #expect(
            Library(directory: h.playlistDirectory, log: Log(level: .error)).entries.map(\.uri) == ["deezer:track:8", "deezer:track:7"])
    }

    @Test func updateResolvesEveryItemAgain() throws {
        let h = Harness()
        let c = h.connect()
        for uri in ["deezer:album:302127", "deezer:track:3135556"] { #expect(h.send(c, "libraryadd \(uri)\n") == "OK\n") }
        let idle = h.connect()
        #expect(h.send(idle, "idle database update\n") == "")
        // Deezer now answers otherwise: a new title for the track; the album fails.
        h.bodies["/track/3135556"] =
            #"{"id":3135556,"title":"Harder (Remaster)","duration":226,"preview":"http://cdn.test/x.mp3","artist":{"name":"Daft Punk"},"album":{"title":"Discovery"}}"#
        h.bodies["/album/302127"] = #"{"error":{"type":"Exception","message":"boom","code":700}}"#
        h.holdAnswers = true
        #expect(h.send(c, "update\n") == "updating_db: 1\nOK\n")
        #expect(h.take(idle) == "changed: update\nOK\n")
        #expect(h.send(c, "status\n").contains("\nstate: stop\nupdating_db: 1\nOK\n"))
        // A second request while the first runs: the next id, served after it.
        #expect(h.send(c, "rescan\n") == "updating_db: 2\nOK\n")
        #expect(h.send(idle, "idle database\n") == "")
        h.holdAnswers = false
        h.release()
        #expect(h.take(idle) == "changed: database\nOK\n")
        #expect(!h.send(c, "status\n").contains("updating_db"))
        let songs = h.instance.library.songs
        let first = songs.first
        #expect(
            [first?.uri, first?.title, first?.artist, first?.album] == [
                "deezer:track:3135556", "Harder (Remaster)", "Daft Punk", "Discovery",
            ])
        #expect(first?.duration == 30)
        // The album that failed keeps its saved tracks.
        #expect(songs.count == 14)
        #expect(songs.contains { $0.uri == "deezer:track:3135556" && $0.title == "Harder (Remaster)" })
        #expect(songs.last?.title == "Too Long")
        // Saved once the job ended.
        let reloaded = Library(directory: h.playlistDirectory, log: Log(level: .error))
        #expect(reloaded.songs == songs)
    }

    @Test func updateOfAnEmptyLibraryEndsAtOnce() {
        let h = Harness()
        let c = h.connect()
        let idle = h.connect()
        #expect(h.send(idle, "idle\n") == "")
        #expect(h.send(c, "update\n") == "updating_db: 1\nOK\n")
        #expect(h.take(idle) == "changed: update\nOK\n")
        #expect(!h.send(c, "status\n").contains("updating_db"))
        #expect(h.send(c, "update\n") == "updating_db: 2\nOK\n")
    }
}
