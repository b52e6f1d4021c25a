@testable import PreviewControl
@testable import PreviewCore
import Testing

/// previewctl's Last.fm charts (`chart KIND --country NAME | --tag TAG`):
/// the request with Last.fm's window, the range line counting the entries
/// Deezer lacks, `--json`'s `total` and `unresolved_names`, and the stderr
/// lines naming what was not found.
@Suite struct LastfmChartCommandTests {
    func command(_ args: String...) throws -> CatalogCommand { try CatalogCommand(name: "chart", arguments: args) }

    func usage(_ message: String, _ args: String...) {
        #expect(throws: ControlCommand.UsageError(message: message)) { try CatalogCommand(name: "chart", arguments: args) }
    }

    /// A page of two artists found and one not, with Last.fm's total.
    let reply: [(String, String)] = [
        ("artist", "deezer:artist:1"), ("Name", "Beach House"), ("artist", "deezer:artist:2"), ("Name", "Clairo"),
        ("total", "8498"), ("unresolved_name", "Cocteau Twins"), ("unresolved", "1"),
    ]

    @Test func everyKindButPlaylistsWithLastfmsWindow() throws {
        #expect(
            try command("artists", "--tag", "dream pop", "--limit", "5", "--page", "2").requests
                == [#"catalogchart artists tag "dream pop" limit 5 page 2"#])
        #expect(try command("albums", "--tag", "pop").requests == [#"catalogchart albums tag "pop" limit 25 page 1"#])
        #expect(
            try command("--country", "united states", "--page", "3").requests
                == [#"catalogchart tracks country "united states" limit 25 page 3"#])
        usage("Last.fm has no album chart by country: use --tag", "albums", "--country", "canada")
        usage("country and tag charts list tracks, artists and albums", "playlists", "--tag", "rock")
        usage("chart --country/--tag does not take --top", "--tag", "rock", "--top")
        usage("chart takes --country or --tag, not both", "--tag", "rock", "--country", "canada")
    }

    @Test func theRangeCountsEntriesDeezerLacks() throws {
        let cmd = try command("artists", "--tag", "dream pop", "--limit", "5", "--page", "2")
        #expect(cmd.render(reply, terminal: true, width: 80).hasSuffix("deezer:artist:2\n6–8 of 8498\n"))
        #expect(
            cmd.render(reply, terminal: false, width: 80) == "1\tBeach House\t\t\t\tdeezer:artist:1\n2\tClairo\t\t\t\tdeezer:artist:2\n")
        #expect(cmd.notices(reply) == "previewctl: not found on Deezer: Cocteau Twins\n")
    }

    @Test func jsonCarriesTotalAndTheNamesNotFound() throws {
        let json = try command("artists", "--tag", "dream pop", "--json").render(reply, terminal: false, width: 80)
        #expect(
            json == #"{"results":[{"kind":"artist","uri":"deezer:artist:1","name":"Beach House"},"#
                + #"{"kind":"artist","uri":"deezer:artist:2","name":"Clairo"}],"total":8498,"unresolved":1,"#
                + #""unresolved_names":["Cocteau Twins"]}"# + "\n")
        // Other listings with `unresolved: N` (related albums) name none and print nothing on stderr.
        let related = try CatalogCommand(name: "related", arguments: ["deezer:album:1", "--json"])
        #expect(related.render([("unresolved", "5")], terminal: false, width: 80) == #"{"results":[],"unresolved":5}"# + "\n")
        #expect(related.notices([("unresolved", "5")]) == "")
    }
}
