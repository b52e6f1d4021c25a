import Testing
@testable import PreviewCore

/// Songs shaped as the catalog gives them: two of Discovery with the
/// album's tags, one of another album without, one plain URL.
private let discovery = AlbumTags(
    id: 302127, artist: "Daft Punk", date: "2001-03-07", genres: ["Dance", "Electro"],
    label: "Daft Life", complete: true)

private func song(
    _ uri: String, _ title: String?, artist: String?, album: String?, track: UInt16? = nil,
    tags: AlbumTags? = nil
) -> Song {
    var s = Song(uri: uri, title: title, artist: artist, album: album, duration: 30)
    s.track = track
    s.disc = track == nil ? nil : 1
    s.albumTags = tags
    return s
}

private let songs = [
    song("deezer:track:3135556", "Harder, Better, Faster, Stronger", artist: "Daft Punk", album: "Discovery", track: 4, tags: discovery),
    song("deezer:track:3135553", "One More Time", artist: "Daft Punk", album: "Discovery", track: 1, tags: discovery),
    song("deezer:track:1", "Lose Yourself", artist: "Eminem", album: "8 Mile", tags: AlbumTags(id: 7, complete: false)),
    song("http://h/x.mp3", nil, artist: nil, album: nil),
]

@Suite struct TagListTests {
    func lines(_ args: [String], _ over: [Song] = songs) throws -> [String] {
        try TagList(args).lines(for: over).map { "\($0.key): \($0.value)" }
    }

    @Test func tagNamesParseInAnyCaseAndKeepMPDsSpelling() {
        #expect(TagType(name: "albumartist") == .albumArtist)
        #expect(TagType(name: "MUSICBRAINZ_TRACKID")?.mpdName == "MUSICBRAINZ_TRACKID")
        #expect(TagType(name: "musicbrainz_trackid") == .musicBrainzTrackID)
        #expect(TagType(name: "any") == nil)
        #expect(TagType.allCases.count == 31)
        #expect(
            TagType.advertised.map(\.mpdName) == ["Artist", "Album", "AlbumArtist", "Title", "Track", "Genre", "Date", "Disc", "Label"])
    }

    @Test func aSongWithoutTheTagCountsOnceAsEmpty() throws {
        #expect(try lines(["genre"]) == ["Genre: ", "Genre: Dance", "Genre: Electro"])
        #expect(try lines(["Track"]) == ["Track: ", "Track: 1", "Track: 4"])
        #expect(try lines(["composer"]) == ["Composer: "])
        #expect(try lines(["date"], []) == [])
    }

    @Test func albumArtistFallsBackToArtistAsInMPD() throws {
        #expect(try lines(["albumartist"]) == ["AlbumArtist: ", "AlbumArtist: Daft Punk", "AlbumArtist: Eminem"])
        #expect(try lines(["albumartistsort"]) == ["AlbumArtistSort: ", "AlbumArtistSort: Daft Punk", "AlbumArtistSort: Eminem"])
    }

    @Test func theLastGroupIsOutermost() throws {
        #expect(
            try lines(["title", "group", "album", "group", "albumartist"], Array(songs.prefix(3))) == [
                "AlbumArtist: Daft Punk", "Album: Discovery", "Title: Harder, Better, Faster, Stronger", "Title: One More Time",
                "AlbumArtist: Eminem", "Album: 8 Mile", "Title: Lose Yourself",
            ])
        #expect(
            try lines(["album", "group", "date"], Array(songs.prefix(3))) == [
                "Date: ", "Album: 8 Mile", "Date: 2001-03-07", "Album: Discovery",
            ])
    }

    @Test func aFilterAndTheLegacyAlbumForm() throws {
        let list = try TagList(["album", "Eminem"])
        #expect(list.filter == .compare(.tag(.artist), .equals, "Eminem", foldCase: false))
        #expect(
            try TagList(["title", "(genre == 'Dance')"]).filter.map { f in songs.filter { f.matches($0) } }?
                .map(\.uri) == ["deezer:track:3135556", "deezer:track:3135553"])
        #expect(
            try lines(["file"]) == [
                "file: deezer:track:1", "file: deezer:track:3135553", "file: deezer:track:3135556", "file: http://h/x.mp3",
            ])
    }

    @Test func mpdsErrors() {
        #expect(throws: ProtocolError(.argument, "Unknown tag type: nosuchtag")) { try TagList(["nosuchtag"]) }
        #expect(throws: ProtocolError(.argument, "Unknown tag type: any")) { try TagList(["any"]) }
        #expect(throws: ProtocolError(.argument, "should be \"Album\" for 3 arguments")) { try TagList(["genre", "group"]) }
        #expect(throws: ProtocolError(.argument, "Conflicting group")) { try TagList(["album", "group", "album"]) }
        #expect(throws: ProtocolError(.argument, "Unknown tag type: x")) { try TagList(["album", "group", "x"]) }
    }

    @Test func countGroups() {
        let groups = TagList.grouped(Array(songs.prefix(3)), by: .genre)
        #expect(groups.map(\.value) == ["", "Dance", "Electro"])
        #expect(groups.map(\.songs.count) == [1, 2, 2])
    }
}

@Suite struct TagFilterTests {
    func find(_ args: [String], fold: Bool = false) throws -> [String] {
        let filter = try SongFilter.parse(args, foldCase: fold)
        return songs.filter { filter.matches($0) }.map(\.uri)
    }

    @Test func theNewTagsFilter() throws {
        #expect(try find(["genre", "Electro"]) == ["deezer:track:3135556", "deezer:track:3135553"])
        #expect(try find(["track", "4"]) == ["deezer:track:3135556"])
        #expect(try find(["(date starts_with '2001')"]) == ["deezer:track:3135556", "deezer:track:3135553"])
        #expect(try find(["label", "daft"], fold: true) == ["deezer:track:3135556", "deezer:track:3135553"])
        #expect(try find(["albumartist", "Eminem"]) == ["deezer:track:1"])
    }

    @Test func anEmptyValueFindsSongsWithoutTheTag() throws {
        #expect(try find(["genre", ""]) == ["deezer:track:1", "http://h/x.mp3"])
        #expect(try find(["artist", ""]) == ["http://h/x.mp3"])
    }

    @Test func fileAndBase() throws {
        #expect(try find(["file", "deezer:track:1"]) == ["deezer:track:1"])
        #expect(try find(["base", "deezer:album:302127"]) == ["deezer:track:3135556", "deezer:track:3135553"])
        #expect(try find(["(base 'deezer:album:302127/')"]) == ["deezer:track:3135556", "deezer:track:3135553"])
        #expect(try find(["base", "http://h"]) == ["http://h/x.mp3"])
        #expect(try find(["(!(base 'deezer:album:302127'))"]) == ["deezer:track:1", "http://h/x.mp3"])
        #expect(try find(["any", "8 mile"], fold: true) == ["deezer:track:1"])
    }

    @Test func unknownFilterTypesAreRefused() {
        #expect(throws: ProtocolError(.argument, "Unknown filter type")) { try SongFilter.parse(["nosuch", "x"], foldCase: false) }
    }

    @Test func nestingIsBoundedBeforeRecursion() throws {
        let refused = ProtocolError(.argument, "filter nested too deeply (at most 64 levels)")
        // 100,000 levels overflowed the stack before the bound (SIGSEGV).
        for (open, close) in [("(", ")"), ("(!", ")")] {
            let deep = String(repeating: open, count: 100_000) + "artist == 'x'" + String(repeating: close, count: 100_000)
            #expect(throws: refused) { try SongFilter.parse([deep], foldCase: false) }
        }
        // 64 levels, the most taken: 63 negations around the comparison.
        let most = String(repeating: "(!", count: 63) + "(albumartist == 'Eminem')" + String(repeating: ")", count: 63)
        #expect(try find([most]) == find(["(!(albumartist == 'Eminem'))"]))
        #expect(try find([most]).count == songs.count - 1)
        #expect(throws: refused) { try SongFilter.parse(["(!" + most + ")"], foldCase: false) }
    }
}
