import PreviewCore
import PreviewPlatform
import PreviewServer

/// The settings file, `$XDG_CONFIG_HOME/previewd/previewd.conf` (or
/// `--config FILE`): `key = value` lines named like the long options
/// (`prefetch = 4`, `output = pulse:alsa_output.usb`), `#` comment lines
/// and blank lines; switches take `yes` or `no`; `on-event` and `output`
/// may repeat.
/// A value may be put in double quotes to keep its spaces at either end.
/// The command line overrides the file (its `--on-event`s replace the
/// file's). Parsed without I/O: the caller reads the file.
public enum ConfigFile {
    /// One setting, with where it was (`FILE:LINE`).
    public struct Entry: Equatable, Sendable {
        public let key: String
        public let value: String
        public let place: String
    }

    /// The file to read: `--config FILE` when given (explicit), else the
    /// default under `$XDG_CONFIG_HOME` (or `~/.config`), which may be absent.
    public static func path(arguments: [String], environment: (String) -> String?) -> (path: String, explicit: Bool) {
        for (i, word) in arguments.enumerated() {
            if word == "--config", i + 1 < arguments.count { return (arguments[i + 1], true) }
            if word.hasPrefix("--config=") { return (String(word.dropFirst("--config=".count)), true) }
        }
        let home = environment("XDG_CONFIG_HOME").flatMap { $0.isEmpty ? nil : $0 } ?? (environment("HOME") ?? "/tmp") + "/.config"
        return (home + "/previewd/previewd.conf", false)
    }

    /// The settings in `text`, in order.
    /// - Throws: `DaemonOptions.UsageError` naming `FILE:LINE`: a line that
    ///   is not `key = value`, an unknown key (with a close match), a key
    ///   set twice (other than `on-event`).
    public static func entries(_ text: String, path: String) throws(DaemonOptions.UsageError) -> [Entry] {
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        // Editors on some systems start a UTF-8 file with a byte-order mark.
        let body = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : text[...]
        for (n, raw) in body.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingSpaces()
            let place = "\(path):\(n + 1)"
            if line.utf8.contains(0) { throw .init(description: "\(place): a NUL byte (the file is not text)") }
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                throw .init(description: "\(place): expected key = value, not \"\(DaemonOptions.UsageError.shown(line))\"")
            }
            let key = String(line[..<eq].trimmingSpaces())
            var value = line[line.index(after: eq)...].trimmingSpaces()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            guard DaemonOptions.optionNames.contains(key) else {
                let hint = ClosestMatch.closest(to: key, among: DaemonOptions.optionNames).map { "; did you mean \"\($0)\"?" } ?? ""
                throw .init(description: "\(place): unknown key \"\(DaemonOptions.UsageError.shown(key))\"\(hint)")
            }
            if key != "on-event", key != "output", let first = seen[key] {
                throw .init(description: "\(place): \(key) is set twice (first on line \(first))")
            }
            seen[key] = n + 1
            entries.append(Entry(key: key, value: String(value), place: place))
        }
        return entries
    }
}

extension DaemonOptions {
    /// What `--print-config` shows: each setting in effect as a settings
    /// file line, under a comment saying where it came from (`FILE:LINE`,
    /// `command line`, or `default`, which includes what the environment
    /// decides), so the output reads back as a settings file. The Last.fm
    /// key is not shown, only whether there is one.
    public func printedConfig(file: String) -> String {
        var out = "# previewd settings in effect; settings file: \(file)\n"
        for option in DaemonOptions.declared {
            guard let printed = option.printed?(self) else { continue }
            let key = option.name, source = sources[key] ?? "default"
            switch printed {
            case .values(let values):
                for value in values {
                    // Quotes keep spaces at the ends, as the file reads them.
                    let shown = value.first == " " || value.last == " " || value.hasPrefix("\"") ? "\"\(value)\"" : value
                    out += "# \(key): \(source)\n\(key) = \(shown)\n"
                }
            case .note(let note):
                out += "# \(key): \(source): \(note)\n"
            case .derived(let value, let from):
                out += "# \(key): default (\(from))\n\(key) = \(value)\n"
            }
        }
        return out
    }
}

private extension StringProtocol {
    /// Without spaces and tabs at either end.
    func trimmingSpaces() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}

extension DaemonOptions {
    /// The settings of a daemon without a socket or a network, whose
    /// catalog is at `apiBase` and state under `stateDirectory` (the
    /// fuzzer's and the tests' instances); every other setting is the
    /// default.
    package static func unlisted(apiBase: String, stateDirectory: String, logLevel: LogLevel) -> DaemonOptions {
        DaemonOptions(socketPath: "", apiBase: apiBase, stateDirectory: stateDirectory, logLevel: logLevel)
    }
}
