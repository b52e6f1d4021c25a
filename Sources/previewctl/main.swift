// previewctl: argv to requests over previewd's socket, replies to stdout,
// an exit code. Links PreviewCore and PreviewPlatform only (no Foundation),
// so a hotkey starts fast.
import PreviewControl
import PreviewCore
import PreviewPlatform

var args = Array(CommandLine.arguments.dropFirst())
var socketOption: String?
var timeoutOption: Double?
/// `--timeout`'s value: seconds, above 0 and at most a day.
func timeoutSeconds(_ text: String) -> Double {
    guard let n = Double(text), n > 0, n <= 86_400 else { fail("--timeout takes seconds, above 0 and at most 86400: \(text)", 64) }
    return n
}
while let first = args.first, first.hasPrefix("-") {
    args.removeFirst()
    switch first {
    case "--socket":
        guard !args.isEmpty else { fail("--socket needs a path", 64) }
        socketOption = args.removeFirst()
    case _ where first.hasPrefix("--socket="):
        socketOption = String(first.dropFirst("--socket=".count))
    case "--timeout":
        guard !args.isEmpty else { fail("--timeout needs seconds", 64) }
        timeoutOption = timeoutSeconds(args.removeFirst())
    case _ where first.hasPrefix("--timeout="):
        timeoutOption = timeoutSeconds(String(first.dropFirst("--timeout=".count)))
    case "--help", "-h":
        out(ControlCommand.usage)
        exit(0)
    default:
        let hint = ClosestMatch.closest(to: first, among: ["--socket", "--timeout", "--help"]).map { "; did you mean \"\($0)\"?" } ?? "."
        fail("unknown option \"\(first)\"\(hint) See previewctl --help", 64)
    }
}
// `COMMAND --help` prints that command's help and needs no daemon.
if let name = args.first, args.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }), let text = CommandHelp.help(for: name) {
    out(text)
    exit(0)
}
if args.first == "__complete" { completeArguments(Array(args.dropFirst()), socket: socketOption) }
// The COMMANDS section of previewctl(1), which contrib/man/update writes into the page.
if args == ["__man"] {
    out(ControlCommand.manCommands)
    exit(0)
}
let (words, jsonOutput) = ControlJSON.takeFlag(args)
let command: ControlCommand
do { command = try ControlCommand(arguments: words) } catch {
    fail(CommandHelp.line(for: error, arguments: args), 64)
}
// What needs no daemon.
switch command {
case .help(let name):
    guard let name else {
        out(ControlCommand.usage)
        exit(0)
    }
    guard let text = CommandHelp.help(for: name) else {
        fail(CommandHelp.line(for: .init(message: "unknown command \"\(name)\"", unknownCommand: name), arguments: []), 64)
    }
    out(text)
    exit(0)
case .version:
    out("previewctl \(previewVersion)\n")
    exit(0)
case .completions(let shell):
    out(Completions.script(for: shell) ?? "")
    exit(0)
default: break
}
let path = SocketPath.resolve(explicit: socketOption, environment: Environment.value, uid: ThisProcess.userID)
let timeout = timeoutOption ?? Connection.defaultTimeout
if case .watch(let format, let json, let interval) = command {
    watch(path: path, timeout: timeout, format: format, json: json, interval: interval)
}
let connection = Connection.open(path: path, timeout: timeout)
let q = RequestParser.quote

run(command)
exit(0)
