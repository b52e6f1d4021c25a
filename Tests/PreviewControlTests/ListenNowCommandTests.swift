import Testing
@testable import PreviewControl
@testable import PreviewCore

@Suite struct ListenNowCommandTests {
    let fields: [(String, String)] = [
        ("section", "Top Picks"), ("album", "deezer:album:1"), ("Title", "One"), ("Artist", "A"), ("Tracks", "9"),
        ("album", "deezer:album:2"), ("Title", "Two"), ("Artist", "B"),
        ("section", "Want to Listen"), ("file", "deezer:track:7"), ("Artist", "C"), ("Title", "Song"), ("Time", "30"),
    ]

    @Test func entriesAreNumberedAcrossSections() {
        let now = ListenNowSections(fields)
        #expect(now.sections.map(\.title) == ["Top Picks", "Want to Listen"])
        #expect(now.count == 3)
        #expect(now.entry(3)?.uri == "deezer:track:7")
        #expect(now.entry(0) == nil && now.entry(4) == nil)
        #expect(
            now.text() == """
                Top Picks
                  1. A - One  deezer:album:1
                  2. B - Two  deezer:album:2

                Want to Listen
                  3. C - Song  deezer:track:7

                """)
        #expect(ListenNowSections([]).text() == "nothing to show yet\n")
    }

    @Test func jsonIsOneDocumentWithNumbersAsNumbers() {
        let json = ListenNowSections(Array(fields.prefix(5))).json()
        #expect(
            json
                == #"{"sections":[{"title":"Top Picks","results":[{"kind":"album","uri":"deezer:album:1","title":"One","artist":"A","tracks":9}]}]}"#
                + "\n")
    }

    @Test func options() throws {
        #expect(try ControlCommand(arguments: ["now"]) == .now(nil, json: false))
        #expect(try ControlCommand(arguments: ["now", "--play", "6", "--json"]) == .now(ListenNowPick(number: 6, play: true), json: true))
        #expect(throws: ControlCommand.UsageError(message: "now takes one of --play N and --add N")) {
            try ControlCommand(arguments: ["now", "--play", "1", "--add", "2"])
        }
        #expect(throws: ControlCommand.UsageError(message: "now takes --play N, --add N or --json, not \"x\"")) {
            try ControlCommand(arguments: ["now", "x"])
        }
    }
}
