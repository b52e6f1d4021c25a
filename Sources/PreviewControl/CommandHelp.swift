import PreviewCore

/// What previewctl says about its own usage: one line for a mistake, with a
/// close match when a name was mistyped, and the help of one command.
public enum CommandHelp {
    /// The one line a usage error prints (without the `previewctl: ` prefix):
    /// the reason, a "did you mean" for an unknown command, and where help is.
    public static func line(for error: ControlCommand.UsageError, arguments: [String]) -> String {
        if let unknown = error.unknownCommand {
            let names = ControlCommand.commands.flatMap { [$0.name] + $0.aliases }
            if let close = ClosestMatch.closest(to: unknown, among: names) {
                return "\(error.message); did you mean \"\(close)\"? See previewctl --help"
            }
            return "\(error.message). See previewctl --help"
        }
        if let name = arguments.first, help(for: name) != nil {
            return "\(error.message). See previewctl \(name) --help"
        }
        return "\(error.message). See previewctl --help"
    }

    /// Command `name`'s lines of the usage text (its synopses and help)
    /// under the usage header; nil for a name previewctl does not know.
    public static func help(for name: String) -> String? {
        guard let command = ControlCommand.command(named: name) else { return nil }
        return ([ControlCommand.usageHeader] + command.usageLines).joined(separator: "\n") + "\n"
    }
}
