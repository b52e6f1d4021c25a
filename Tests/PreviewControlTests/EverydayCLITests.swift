import Testing

@testable import PreviewControl
@testable import PreviewCore

/// previewctl's everyday forms (issue 35): parsing, the last listing, and
/// the per-kind tables.
@Suite struct EverydayCLITests {
    typealias UsageError = ControlCommand.UsageError

    @Test func searchKindsCombineOrAreRefused() throws {
        let c = try CatalogCommand(name: "search", arguments: ["tracks,album", "daft", "punk", "--limit", "5"])
        #expect(c.requests == [#"catalogsearch tracks "daft punk" limit 5 index 0"#, #"catalogsearch albums "daft punk" limit 5 index 0"#])
        #expect(c.headings == ["Tracks", "Albums"])
        #expect(try CatalogCommand(name: "search", arguments: ["albums,albums", "x"]).requests.count == 1)
        #expect(
            throws: UsageError(
                message:
                    #"search kinds are tracks, albums, artists, playlists, radios or several joined by commas, not "albmus" (did you mean "albums"?)"#
            )
        ) {
            try CatalogCommand(name: "search", arguments: ["tracks,albmus", "x"])
        }
        // A word that names no kind is the query, commas and all.
        #expect(
            try CatalogCommand(name: "search", arguments: ["hello,goodbye"]).requests == [
                #"catalogsearch tracks "hello,goodbye" limit 25 index 0"#
            ])
        #expect(throws: UsageError(message: "radios are searched by name only, without --artist")) {
            try CatalogCommand(name: "search", arguments: ["tracks,radios", "x", "--artist", "y"])
        }
    }

    @Test func playAndAddTakeAnEntryNumber() throws {
        let c = try CatalogCommand(name: "search", arguments: ["eminem", "--play", "4"])
        #expect(c.play && c.pick == 4 && c.requests == [#"catalogsearch tracks "eminem" limit 25 index 0"#])
        #expect(try CatalogCommand(name: "search", arguments: ["1999", "--play"]).pick == nil)
        #expect(try CatalogCommand(name: "search", arguments: ["--add", "10cc"]).pick == nil)
        // A number followed by more words, or past the listing's cap, is not an entry.
        let fifty = try CatalogCommand(name: "search", arguments: ["--play", "50", "cent"])
        #expect(fifty.pick == nil && fifty.requests == [#"catalogsearch tracks "50 cent" limit 25 index 0"#])
        #expect(
            try CatalogCommand(name: "search", arguments: ["--play", "50"]).requests == [#"catalogsearch tracks "50" limit 25 index 0"#])
        #expect(try CatalogCommand(name: "album", arguments: ["--play", "302127"]).query == .album(302127))
        #expect(try CatalogCommand(name: "search", arguments: ["eminem", "--play", "4", "--json"]).pick == 4)
        #expect(try CatalogCommand(name: "album", arguments: ["302127", "--play", "3"]).pick == 3)
        #expect(throws: UsageError(message: #"--play takes an entry number from 1 to 1000, not "0""#)) {
            try CatalogCommand(name: "chart", arguments: ["--play", "0"])
        }
        let records = CatalogRecord.split((1...3).map { ("file", "deezer:track:\($0)") })
        #expect(try c.urisToQueue(records + [CatalogRecord.split([("file", "deezer:track:4")])[0]]) == ["deezer:track:4"])
        #expect(throws: UsageError(message: "the listing has 3 entries, not 4")) { try c.urisToQueue(records) }
        // An album page queues the album whole, whichever entry plays.
        let album = try CatalogCommand(name: "album", arguments: ["7", "--play", "2"])
        #expect(try album.urisToQueue(CatalogRecord.split([("album", "deezer:album:7")]) + records) == ["deezer:album:7"])
        // An artist's page queues its top tracks.
        let artist = try CatalogCommand(name: "artist", arguments: ["27", "--play"])
        let page = CatalogRecord.split([("file", "deezer:track:1"), ("album", "deezer:album:2"), ("artist", "deezer:artist:3")])
        #expect(try artist.urisToQueue(page) == ["deezer:track:1"])
    }

    @Test func aBareIDIsTriedAsEachKind() throws {
        let c = try CatalogCommand(name: "info", arguments: ["302127"])
        #expect(c.query == .anyKind(302127))
        #expect(
            c.requests == [
                "cataloginfo deezer:album:302127", "cataloginfo deezer:track:302127",
                "cataloginfo deezer:artist:302127", "cataloginfo deezer:playlist:302127",
            ])
        let one = [(uri: "deezer:album:1", fields: [("album", "deezer:album:1"), ("Title", "T")])]
        #expect(CatalogFormat.infoByID(one, json: false) == "album: deezer:album:1\nTitle: T\n")
        let two = one + [(uri: "deezer:artist:1", fields: [("artist", "deezer:artist:1"), ("Name", "N")])]
        #expect(
            CatalogFormat.infoByID(two, json: false)
                == "deezer:album:1\nalbum: deezer:album:1\nTitle: T\n\ndeezer:artist:1\nartist: deezer:artist:1\nName: N\n")
    }

    @Test func openShowsEachKindAsItsOwnListing() throws {
        #expect(
            CatalogCommand(opening: "deezer:album:5", add: false, play: true, json: false).requests
                == ["cataloginfo deezer:album:5", "lsinfo deezer:album:5"])
        #expect(CatalogCommand(opening: "deezer:artist:5", add: false, play: false, json: false).query == .artist(5))
        #expect(
            CatalogCommand(opening: "deezer:playlist:5", add: false, play: false, json: false).requests == [#"lsinfo "deezer:playlist:5""#])
        #expect(
            CatalogCommand(opening: "deezer:genre:132", add: false, play: false, json: false).requests
                == ["catalogchart tracks genre 132 limit 25 index 0"])
        #expect(
            CatalogCommand(opening: "deezer:track:9", add: false, play: false, json: false).requests == [#"cataloginfo "deezer:track:9""#])
        #expect(try ControlCommand(arguments: ["open", "3", "--play"]) == .open(3, add: false, play: true, json: false))
        #expect(throws: UsageError(message: "open takes the number of an entry of the last listing")) {
            try ControlCommand(arguments: ["open", "deezer:album:1"])
        }
    }

    @Test func playlistAddAndLoadPlay() throws {
        #expect(
            try ControlCommand(arguments: ["playlist", "mix", "add", "3", "deezer:track:1", "5"])
                == .addToPlaylist("mix", [.entry(3), .uri("deezer:track:1"), .entry(5)]))
        #expect(throws: UsageError(message: #"entry numbers run from 1 to 1000, not "1001""#)) {
            try ControlCommand(arguments: ["playlist", "mix", "add", "1001"])
        }
        #expect(try ControlCommand(arguments: ["load", "mix", "--play"]) == .load("mix", play: true))
        #expect(try ControlCommand(arguments: ["load", "mix"]) == .load("mix", play: false))
    }

    @Test func theLastListingRoundTripsAndNamesItsSize() throws {
        let listing = LastListing(uris: ["deezer:track:1", "deezer:album:2", "bad\nuri"])
        #expect(LastListing(bytes: listing.bytes) == listing)
        #expect(try listing.uri(2) == "deezer:album:2")
        #expect(throws: UsageError(message: "the last listing has 3 entries, not 4")) { try listing.uri(4) }
        #expect(throws: UsageError(message: "entry 3 of the last listing has no URI previewctl can name")) { try listing.uri(3) }
        #expect(try listing.resolve([.entry(1), .uri("x")]) == ["deezer:track:1", "x"])
        #expect(LastListing(bytes: Array("something else\n".utf8)) == nil)
        #expect(LastListing(bytes: Array("previewctl listing 1\ncut".utf8)) == nil, "a file cut short")
        #expect(LastListing(uris: Array(repeating: "u", count: 5000)).uris.count == LastListing.capacity)
        #expect(LastListing.path(in: "/run/user/1000/previewd") == "/run/user/1000/previewd/previewctl-listing")
    }

    @Test func eachKindHasItsColumnsAndEmptyOnesAreLeftOut() {
        let artists = CatalogRecord.split([("artist", "deezer:artist:27"), ("Name", "Daft Punk"), ("Albums", "32"), ("Fans", "4117751")])
        let lines = CatalogFormat.table(artists, width: 80).split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines == ["# NAME ALBUMS FANS URI", "1 Daft Punk 32 4117751 deezer:artist:27"])
        let genres = CatalogRecord.split([("genre", "132"), ("Name", "Pop")])
        #expect(CatalogFormat.table(genres, width: 80).split(separator: "\n").first?.split(separator: " ") == ["#", "NAME", "URI"])
        // A listing that changes kind starts a new header, numbers running on.
        let mixed = CatalogRecord.split([
            ("file", "deezer:track:1"), ("Title", "T"), ("album", "deezer:album:2"), ("Title", "A"),
            ("Type", "single"),
        ])
        let rows = CatalogFormat.table(mixed, width: 80, first: 5).split(separator: "\n").map {
            $0.split(separator: " ").joined(separator: " ")
        }
        #expect(rows == ["# TITLE URI", "5 T deezer:track:1", "# TITLE TYPE URI", "6 A single deezer:album:2"])
    }
}
