import Testing
@testable import PreviewControl
@testable import PreviewCore

@Suite struct PlaylistEditTests {
    func parse(_ words: String) throws(ControlCommand.UsageError) -> ControlCommand {
        try ControlCommand(arguments: words.split(separator: " ").map(String.init))
    }

    @Test func editsParseAndBecomeMPDsRequests() throws {
        #expect(try parse("playlist mix") == .showPlaylist("mix"))
        #expect(try parse("playlist mix rename trip") == .editPlaylist("mix", .rename("trip")))
        #expect(PlaylistEdit.rename("road trip").request("mix") == #"rename "mix" "road trip""#)
        #expect(try parse("playlist mix del 3") == .editPlaylist("mix", .delete(3)))
        #expect(PlaylistEdit.delete(3).request("mix") == #"playlistdelete "mix" 2"#)
        #expect(try parse("playlist mix move 1 4") == .editPlaylist("mix", .move(1, 4)))
        #expect(PlaylistEdit.move(1, 4).request("mix") == #"playlistmove "mix" 0 3"#)
        #expect(try parse("save mix") == .save("mix", replace: false))
        #expect(try parse("save --replace mix") == .save("mix", replace: true))
    }

    @Test func mistakesNameWhatIsWrong() {
        #expect(throws: ControlCommand.UsageError(message: "playlist NAME del takes a position from 1")) { try parse("playlist mix del 0") }
        #expect(throws: ControlCommand.UsageError(message: "playlist NAME move takes two positions from 1")) {
            try parse("playlist mix move 1")
        }
        #expect(throws: ControlCommand.UsageError(message: "playlist NAME takes add, rename, del or move, not \"cut\"")) {
            try parse("playlist mix cut")
        }
        #expect(throws: ControlCommand.UsageError(message: "playlist NAME rename takes the new name")) { try parse("playlist mix rename") }
        #expect(throws: ControlCommand.UsageError(message: "save takes one playlist name (and --replace)")) { try parse("save a b") }
        #expect(throws: ControlCommand.UsageError(message: "playlist needs the playlist's name")) { try parse("playlist") }
    }
}
