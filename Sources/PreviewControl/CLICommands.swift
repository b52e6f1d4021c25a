import PreviewCore

/// One previewctl command as a user meets it: its names, synopsis and help,
/// and how its words parse. `ControlCommand.commands` lists them all; the
/// usage text, `help COMMAND`, the shell completions and the COMMANDS
/// section of previewctl(1) are made from that list, so none of them can
/// name a command the parser lacks, or miss one it has.
public struct CLICommand: Sendable {
    /// Where the man page lists the command.
    public enum Group: String, CaseIterable, Sendable {
        case playback = "The queue and playback"
        case catalog = "The catalog"
        case saved = "Saved things"
        case other = "Other"
    }

    /// The name, as completions offer it.
    public let name: String
    /// Other names the parser takes (`previous` for `prev`).
    public let aliases: [String]
    /// What may follow the name, one form a line (`[POS]`); empty for nothing.
    public let synopses: [String]
    /// A few words for completion menus.
    public let summary: String
    /// The description, as lines of the usage text (at most 60 characters).
    public let help: [String]
    public let group: Group
    /// The words after the name (as typed: `del` or `delete`) to a command.
    let parse: @Sendable (Subcommand) throws(ControlCommand.UsageError) -> ControlCommand

    init(
        _ name: String, aliases: [String] = [], _ synopses: [String], _ group: Group, summary: String, help: [String],
        parse: @escaping @Sendable (Subcommand) throws(ControlCommand.UsageError) -> ControlCommand
    ) {
        self.name = name
        self.aliases = aliases
        self.synopses = synopses
        self.group = group
        self.summary = summary
        self.help = help
        self.parse = parse
    }

    /// The command's lines in the usage text: each synopsis, and the help
    /// beside the last one when that is short (at column 20), else below it.
    public var usageLines: [String] {
        var lines = (synopses.isEmpty ? [""] : synopses).map { "  " + name + ($0.isEmpty ? "" : " " + $0) }
        var rest = help[...]
        if let first = rest.first, lines[lines.count - 1].count <= 18 {
            let last = lines.removeLast()
            lines.append(last + String(repeating: " ", count: 20 - last.count) + first)
            rest = rest.dropFirst()
        }
        return lines + rest.map { String(repeating: " ", count: 20) + $0 }
    }

    /// The command's entry in previewctl(1): a tagged paragraph whose tag
    /// is the name in bold with each synopsis, and the help as its text.
    public var manEntry: String {
        var out = ""
        for (i, synopsis) in (synopses.isEmpty ? [""] : synopses).enumerated() {
            out += i == 0 ? ".TP\n" : ".TQ\n"
            out += ".B " + Self.roffQuoted(synopsis.isEmpty ? name : name + " " + synopsis) + "\n"
        }
        for line in help { out += Self.roffText(line) + "\n" }
        if !aliases.isEmpty { out += Self.roffText("(also " + aliases.joined(separator: ", ") + ")") + "\n" }
        return out
    }

    /// A roff argument in double quotes (a quote inside is doubled).
    static func roffQuoted(_ text: String) -> String {
        "\"" + roffEscaped(text).replacingAll("\"", with: "\"\"") + "\""
    }

    /// A text line: backslashes and minus signs escaped, and a leading dot
    /// or apostrophe (which roff reads as a request) kept as text.
    static func roffText(_ text: String) -> String {
        let escaped = roffEscaped(text)
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    private static func roffEscaped(_ text: String) -> String {
        text.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-")
    }
}

extension ControlCommand {
    /// Every previewctl command, in the order the usage text and the man
    /// page show them.
    public static let commands: [CLICommand] = playbackCommands + catalogCommands + savedCommands + otherCommands

    /// The command named `name` (or one of its aliases).
    public static func command(named name: String) -> CLICommand? {
        commands.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// Every subcommand with a one-line summary: what the shell completions offer.
    public static var subcommands: [(name: String, summary: String)] { commands.map { ($0.name, $0.summary) } }

    /// The usage text, printed by `previewctl --help` (a usage error prints
    /// one line instead: `CommandHelp.line`).
    public static let usage: String = {
        var out = usageHeader + "\n"
        for command in commands { out += command.usageLines.joined(separator: "\n") + "\n" }
        return out + "exit codes: 0 done, 1 refused by the daemon, 64 usage error, 69 daemon not reachable, "
            + "75 no answer within --timeout seconds (default 5)\n\n"
    }()

    /// The first line of every usage text.
    public static let usageHeader = "usage: previewctl [--socket PATH] [--timeout S] COMMAND [ARGS]"

    /// The COMMANDS section of previewctl(1), by group.
    public static var manCommands: String {
        var out = ".SH COMMANDS\n"
        for group in CLICommand.Group.allCases {
            out += ".SS \(group.rawValue)\n"
            for command in commands where command.group == group { out += command.manEntry }
        }
        return out
    }

    /// Parses the words after the options.
    /// - Throws: `UsageError` for unknown commands and bad arguments.
    public init(arguments: [String]) throws(UsageError) {
        guard let name = arguments.first else { throw UsageError(message: "no command given") }
        guard let command = ControlCommand.command(named: name) else {
            throw UsageError(message: "unknown command \"\(name)\"", unknownCommand: name)
        }
        self = try command.parse(Subcommand(name: name, args: Array(arguments.dropFirst())))
    }
}
