import PreviewCore
import Testing

/// previewctl's help on mistakes: close matches, one command's help.
@Suite struct CommandHelpTests {
    @Test func slipsFindTheirCommand() {
        let names = ControlCommand.subcommands.map(\.name)
        #expect(CommandHelp.closest(to: "stauts", among: names) == "status")
        #expect(CommandHelp.closest(to: "nxt", among: names) == "next")
        #expect(CommandHelp.closest(to: "vloume", among: names) == "volume")
        #expect(CommandHelp.closest(to: "PLAY", among: names) == "play")
        #expect(CommandHelp.closest(to: "frob", among: names) == nil)
        #expect(CommandHelp.closest(to: "xy", among: names) == nil, "short words need a near match")
    }

    @Test func everyCommandHasHelp() {
        for (name, _) in ControlCommand.subcommands {
            let help = CommandHelp.help(for: name)
            #expect(help?.hasPrefix("usage: previewctl") == true, "\(name)")
            #expect(help?.split(separator: "\n").count ?? 0 >= 2, "\(name)")
        }
        #expect(CommandHelp.help(for: "frob") == nil)
    }

    @Test func aCommandsHelpHoldsItsDescriptionLines() throws {
        let help = try #require(CommandHelp.help(for: "want"))
        #expect(help.split(separator: "\n").dropFirst() == [
            "  want [add|rm|toggle URI | play [URI]]",
            "                    the Want to Listen list (albums and tracks), newest first",
        ])
    }

    @Test func theLineSaysWhereHelpIs() {
        let unknown = ControlCommand.UsageError(message: "unknown command \"stauts\"", unknownCommand: "stauts")
        #expect(CommandHelp.line(for: unknown, arguments: ["stauts"])
                == "unknown command \"stauts\"; did you mean \"status\"? See previewctl --help")
        let bad = ControlCommand.UsageError(message: "random takes on or off, not \"maybe\"")
        #expect(CommandHelp.line(for: bad, arguments: ["random", "maybe"])
                == "random takes on or off, not \"maybe\". See previewctl random --help")
    }
}
