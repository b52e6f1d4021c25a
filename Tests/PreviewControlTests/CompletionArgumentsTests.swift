@testable import PreviewControl
import PreviewCore
import Testing

/// What previewctl completes after the words typed so far.
@Suite struct CompletionArgumentsTests {
    typealias C = Completions.Candidates

    @Test(arguments: [
        (["play"], C.positions), (["del"], .positions), (["move", "3"], .positions), (["move", "3", "4"], .none),
        (["load"], .playlists), (["playlist"], .playlists), (["rmplaylist"], .playlists),
        (["playlist", "mine"], .words(["add", "rename", "del", "move"])),
        (["want"], .words(["add", "rm", "toggle", "play"])), (["want", "rm"], .wanted), (["want", "add"], .none),
        (["library", "rm"], .saved), (["chart", "--genre"], .genres), (["picks", "--genre"], .genres),
        (["random"], .words(["on", "off"])), (["completions"], .words(["bash", "zsh", "fish"])),
        (["--socket=/s", "play"], .positions), (["next"], .none),
    ])
    func after(_ typed: [String], _ expected: C) {
        #expect(Completions.candidates(after: typed) == expected)
    }

    @Test func nothingTypedGivesTheSubcommands() {
        guard case .words(let names) = Completions.candidates(after: []) else { Issue.record("no words"); return }
        #expect(names.contains("status") && names.contains("--socket") && names.count == ControlCommand.subcommands.count + 2)
    }

    @Test func genreNamesComeFromTheReply() {
        #expect(Completions.genreNames([("genre", "0"), ("Name", "All"), ("genre", "132"), ("Name", "Pop")]) == ["All", "Pop"])
    }
}
