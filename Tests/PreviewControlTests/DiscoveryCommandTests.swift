@testable import PreviewControl
@testable import PreviewCore
import Testing

/// previewctl's discovery subcommands: parsing, requests and output.
@Suite struct DiscoveryCommandTests {
    let genres: [(id: Int, name: String)] = [
        (0, "All"), (132, "Pop"), (116, "Rap/Hip Hop"), (152, "Rock"),
        (2, "African Music"), (16, "Asian Music"), (106, "Electro"),
    ]

    func requests(_ name: String, _ args: String...) throws -> [String] {
        try CatalogCommand(name: name, arguments: args).requests
    }

    func usage(_ message: String, _ name: String, _ args: String...) {
        #expect(throws: ControlCommand.UsageError(message: message)) { try CatalogCommand(name: name, arguments: args) }
    }

    @Test func genreNamesMatchWithoutCaseAndUnknownOnesHaveCloseNames() {
        #expect(GenreMatch.find("ROCK", in: genres) == .found(152))
        #expect(GenreMatch.find(" rap/hip hop ", in: genres) == .found(116))
        #expect(GenreMatch.find("999", in: genres) == .found(999))
        #expect(GenreMatch.find("music", in: genres) == .notFound(close: ["African Music", "Asian Music"]))
        #expect(GenreMatch.find("rap", in: genres) == .notFound(close: ["Rap/Hip Hop"]))
        #expect(GenreMatch.find("elektro", in: genres) == .notFound(close: ["Electro"]))
        #expect(GenreMatch.find("musik", in: genres) == .notFound(close: ["African Music", "Asian Music"]))
        #expect(GenreMatch.find("polka", in: genres) == .notFound(close: []))
        #expect(GenreMatch.refusal("polka", close: [], all: ["All", "Pop"]) == "unknown genre \"polka\"; genres are: All, Pop")
    }

    @Test func genresAreWholeOrOnePage() throws {
        #expect(try requests("genres") == ["cataloggenres"])
        #expect(try requests("genres", "--limit", "5") == ["cataloggenres limit 5 index 0"])
        #expect(try requests("genres", "--page", "2") == ["cataloggenres limit 25 index 25"])
        usage("genres does not take --genre", "genres", "--genre", "pop")
    }

    @Test func chartsAndListsSendTheirWindow() throws {
        #expect(try requests("chart") == ["catalogchart tracks limit 25 index 0"])
        #expect(
            try requests("chart", "albums", "--genre", "rap/hip hop", "--limit", "20", "--page", "2")
                == [#"catalogchart albums genre "rap/hip hop" limit 20 index 20"#])
        #expect(try requests("chart", "tracks", "--country", "canada") == [#"catalogchart tracks country "canada" limit 25 page 1"#])
        #expect(try requests("picks", "--genre", "132") == [#"catalogeditorial picks genre "132" limit 25 index 0"#])
        #expect(try requests("releases", "--page", "3", "--limit", "10") == ["catalogeditorial releases limit 10 index 20"])
        #expect(try requests("radios", "--top") == ["catalogradios top limit 25 index 0"])
        #expect(try requests("radios", "--genre", "electro") == [#"catalogradios genre "electro" limit 25 index 0"#])
        #expect(try requests("genres") == ["cataloggenres"])
    }

    @Test func itemsRadiosAndRelated() throws {
        #expect(try requests("artist", "27", "--radio") == ["catalogradio deezer:artist:27"])
        #expect(try requests("radio", "deezer:artist:27") == ["catalogradio deezer:artist:27"])
        #expect(try requests("radio", "deezer:radio:6") == ["lsinfo deezer:radio:6"])
        #expect(try requests("related", "27") == ["catalogrelated deezer:artist:27"])
        #expect(try requests("related", "https://www.deezer.com/album/302127") == ["catalogrelated deezer:album:302127"])
        #expect(try requests("related", "deezer:track:3135556") == ["catalogrelated deezer:track:3135556"])
        let shuffled = try CatalogCommand(name: "album", arguments: ["302127", "--shuffle"])
        #expect(shuffled.shuffle && shuffled.play)
        let radio = try CatalogCommand(name: "radio", arguments: ["deezer:radio:6", "--add"])
        #expect(try radio.urisToQueue(CatalogRecord.split([("file", "deezer:track:1")])) == ["deezer:radio:6"])
    }

    @Test func badInputNamesWhatIsWrong() {
        usage("radios takes --genre or --top, not both", "radios", "--top", "--genre", "pop")
        usage("chart takes --genre or --country/--tag, not both", "chart", "--genre", "pop", "--country", "canada")
        usage("picks does not take --top", "picks", "--top")
        usage("chart kinds are tracks, albums, artists and playlists, not \"radios\"", "chart", "radios")
        usage("--genre needs a value", "chart", "--genre")
        usage("radio takes an artist id or deezer:artist:ID, deezer:radio:ID, not \"deezer:album:1\"", "radio", "deezer:album:1")
        usage("album does not take --radio", "album", "1", "--radio")
        usage("releases takes no words, not \"new\"", "releases", "new")
    }

    @Test func aPagedTableEndsWithItsRange() throws {
        let cmd = try CatalogCommand(name: "releases", arguments: ["--limit", "2", "--page", "11"])
        let fields: [(String, String)] = [
            ("album", "deezer:album:1"), ("Title", "A"), ("album", "deezer:album:2"), ("Title", "B"),
            ("total", "58"),
        ]
        let table = cmd.render(fields, terminal: true, width: 80)
        #expect(table.hasSuffix("deezer:album:2\n21–22 of 58\n"))
        #expect(!cmd.render(fields, terminal: false, width: 80).contains("of 58"))
        #expect(CatalogFormat.range(first: 0, count: 10, total: nil) == nil)
        let json = try CatalogCommand(name: "radios", arguments: ["--json"])
        #expect(
            json.render([("radio", "deezer:radio:6"), ("Title", "Electro"), ("total", "139")], terminal: true, width: 80)
                == #"{"results":[{"kind":"radio","uri":"deezer:radio:6","title":"Electro"}],"total":139}"# + "\n")
        let genres = try CatalogCommand(name: "genres", arguments: ["--json"])
        #expect(
            genres.render([("genre", "0"), ("Name", "All")], terminal: false, width: 80)
                == #"{"results":[{"kind":"genre","uri":"deezer:genre:0","name":"All"}]}"# + "\n")
    }

    @Test func anAlbumPageHasAHeaderThenTheTracks() throws {
        let fields: [(String, String)] = [
            ("album", "deezer:album:302127"), ("Title", "Discovery"), ("Artist", "Daft Punk"), ("Tracks", "14"),
            ("Date", "2001-03-07"), ("Type", "album"), ("Genre", "Dance"), ("Genre", "Electro"), ("Label", "Daft Life"),
            ("file", "deezer:track:3135553"), ("Title", "One More Time"), ("Time", "30"),
        ]
        let page = try CatalogCommand(name: "album", arguments: ["302127"])
        #expect(
            page.render(fields, terminal: true, width: 80).hasPrefix(
                "Discovery\nDaft Punk\nDance, Electro · 2001\nDaft Life\n14 tracks\n\n #  TITLE"))
        // Piped: the tracks alone, as before.
        #expect(page.render(fields, terminal: false, width: 80) == "1\tOne More Time\t\t\t0:30\tdeezer:track:3135553\n")
        let json = try CatalogCommand(name: "album", arguments: ["302127", "--json"]).render(fields, terminal: false, width: 80)
        #expect(
            json.hasPrefix(
                #"{"results":[{"kind":"album","uri":"deezer:album:302127","title":"Discovery","artist":"Daft Punk","tracks":14,"#
                    + #""date":"2001-03-07","type":"album","label":"Daft Life","genres":["Dance","Electro"]},"#))
    }
}
