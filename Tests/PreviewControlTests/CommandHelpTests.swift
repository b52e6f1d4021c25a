@testable import PreviewControl
import PreviewCore
import Testing

/// previewctl's help on mistakes: close matches, one command's help.
@Suite struct CommandHelpTests {
    @Test func slipsFindTheirCommand() {
        let names = ControlCommand.subcommands.map(\.name)
        #expect(ClosestMatch.closest(to: "stauts", among: names) == "status")
        #expect(ClosestMatch.closest(to: "nxt", among: names) == "next")
        #expect(ClosestMatch.closest(to: "vloume", among: names) == "volume")
        #expect(ClosestMatch.closest(to: "PLAY", among: names) == "play")
        #expect(ClosestMatch.closest(to: "frob", among: names) == nil)
        #expect(ClosestMatch.closest(to: "xy", among: names) == nil, "short words need a near match")
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
        #expect(
            help.split(separator: "\n").dropFirst() == [
                "  want [add|rm|toggle URI | play [URI]]",
                "                    the Want to Listen list (albums and tracks), newest first",
            ])
    }

    @Test func theLineSaysWhereHelpIs() {
        let unknown = ControlCommand.UsageError(message: "unknown command \"stauts\"", unknownCommand: "stauts")
        #expect(
            CommandHelp.line(for: unknown, arguments: ["stauts"])
                == "unknown command \"stauts\"; did you mean \"status\"? See previewctl --help")
        let bad = ControlCommand.UsageError(message: "random takes on or off, not \"maybe\"")
        #expect(
            CommandHelp.line(for: bad, arguments: ["random", "maybe"])
                == "random takes on or off, not \"maybe\". See previewctl random --help")
    }

    @Test func usageCompletionsAndManPageNameExactlyTheParsedCommands() throws {
        let names = ControlCommand.commands.map(\.name)
        #expect(Set(names).count == names.count)
        for name in names + ControlCommand.commands.flatMap(\.aliases) {
            do { _ = try ControlCommand(arguments: [name]) } catch {
                #expect(error.unknownCommand == nil, "\(name) is in the table but does not parse")
            }
        }
        let usageNames = ControlCommand.usage.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .map { String($0.dropFirst(2).prefix { $0 != " " }) }
        #expect(firstOccurrences(usageNames) == names)
        let bash = try #require(Completions.script(for: "bash"))
        #expect(bash.contains("compgen -W \"" + names.joined(separator: " ") + " --socket --help\""))
        let manNames = ControlCommand.manCommands.replacingAll("\\-", with: "-").split(separator: "\n").filter { $0.hasPrefix(".B \"") }
            .map { String($0.dropFirst(4).prefix { $0 != " " && $0 != "\"" }) }
        #expect(firstOccurrences(manNames) == names)
    }
}

/// `items` without repeats, in the order each first appears.
private func firstOccurrences(_ items: [String]) -> [String] {
    var seen = Set<String>()
    return items.filter { seen.insert($0).inserted }
}
