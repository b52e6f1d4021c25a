import PreviewCore
import PreviewDesktop

/// One option of previewd, declared once: the parser applies it, and
/// `--help`, the settings file's keys, `--print-config`, the shell
/// completions and (checked by test_manpages.py) the man page's OPTIONS
/// are made from the same entry.
struct DaemonOption: Sendable {
    /// The long name, without the dashes (`prefetch`); a settings file key
    /// when `inFile`.
    let name: String
    /// The value's placeholder in `--help` (`N`, `PATH`); nil for a switch.
    let value: String?
    /// `--help`'s description, wrapped when printed.
    let help: String
    /// Whether a settings file may set it (all but `--config`,
    /// `--print-config`, `--help` and `--version`).
    let inFile: Bool
    /// Other spellings (`-h`).
    let aliases: [String]
    /// What the shell completes after it.
    let completion: Completion
    /// Applies the option, reading its value from `words`.
    let take:
        @Sendable (inout DaemonOptions, inout OptionWords, OptionWords.Option, inout DaemonOptions.GivenPaths)
            throws(DaemonOptions.UsageError) -> Void
    /// What `--print-config` shows for it; nil: nothing (not a setting).
    let printed: (@Sendable (DaemonOptions) -> Printed)?

    /// What a shell offers for an option's value.
    enum Completion: Equatable, Sendable {
        case nothing, files, directories
        case words([String])
    }

    /// A setting as `--print-config` shows it, under `# NAME: SOURCE`.
    enum Printed: Sendable {
        /// `NAME = VALUE` lines (none: nothing shown), each under its comment.
        case values([String])
        /// The comment alone, ending in `: NOTE` (the value is secret or unset).
        case note(String)
        /// A default the environment gave: `# NAME: default (FROM)` and its line.
        case derived(String, from: String)
    }

    /// `--NAME VALUE` as `--help` and the man page show it.
    var synopsis: String { "--\(name)" + aliases.map { ", " + $0 }.joined() + (value.map { " \($0)" } ?? "") }

    /// A setting every file and command line may give.
    static func setting(
        _ name: String, _ value: String?, _ help: String, completion: Completion = .nothing,
        take:
            @escaping @Sendable (
                inout DaemonOptions, inout OptionWords, OptionWords.Option,
                inout DaemonOptions.GivenPaths
            ) throws(DaemonOptions.UsageError) -> Void,
        printed: @escaping @Sendable (DaemonOptions) -> Printed
    ) -> DaemonOption {
        DaemonOption(
            name: name, value: value, help: help, inFile: true, aliases: [], completion: completion, take: take,
            printed: printed)
    }

    /// An option of the command line only, which is not a setting.
    static func action(
        _ name: String, _ value: String?, _ help: String, aliases: [String] = [], completion: Completion = .nothing,
        take:
            @escaping @Sendable (
                inout DaemonOptions, inout OptionWords, OptionWords.Option,
                inout DaemonOptions.GivenPaths
            ) throws(DaemonOptions.UsageError) -> Void
    )
        -> DaemonOption
    {
        DaemonOption(
            name: name, value: value, help: help, inFile: false, aliases: aliases, completion: completion, take: take,
            printed: nil)
    }
}

extension DaemonOptions {
    /// Every option, in `--help`'s order (and `--print-config`'s).
    static let declared: [DaemonOption] = placesAndLogs + catalogAndSession + playbackAndLimits + commandLineOnly

    private static let placesAndLogs: [DaemonOption] = [
        .setting(
            "socket", "PATH", "Unix socket (default $PREVIEWD_SOCKET, else $XDG_RUNTIME_DIR/previewd/socket)",
            completion: .files, take: { _, w, o, p throws(UsageError) in p.socket = try w.value(of: o) },
            printed: { .values([$0.socketPath]) }),
        .setting(
            "output", "KIND",
            "pulse (default sink, followed when it changes), pulse:SINK (that sink), null, wav:PATH, "
                + "fifo:PATH (raw s16le 44100 Hz stereo into a named pipe, as snapserver reads it) or http:HOST:PORT "
                + "(MP3 and FLAC streams); repeatable: several play at once, each switched with enableoutput",
            completion: .words(["pulse", "pulse:", "null", "wav:", "fifo:", "http:"]),
            take: { d, w, o, _ throws(UsageError) in d.outputs.append(try w.output(o)) },
            printed: { .values($0.outputs.map(\.setting)) }),
        .setting(
            "pace", "realtime|none", "null/wav outputs: real-time speed (default) or as fast as decoding allows",
            completion: .words(["realtime", "none"]), take: { d, w, o, _ throws(UsageError) in d.realtimePace = try w.pace(o) },
            printed: { .values([$0.realtimePace ? "realtime" : "none"]) }),
        .setting(
            "api-base", "URL", "Deezer API base (default $PREVIEWD_API_BASE, else https://api.deezer.com)",
            take: { _, w, o, p throws(UsageError) in p.apiBase = try w.webURL(o) }, printed: { .values([$0.apiBase]) }),
        .setting(
            "state-dir", "DIR", "state directory (default $XDG_STATE_HOME/previewd, else ~/.local/state/previewd)",
            completion: .directories, take: { _, w, o, p throws(UsageError) in p.stateDirectory = try w.value(of: o) },
            printed: { .values([$0.stateDirectory]) }),
        .setting(
            "log-level", "LEVEL", "error, warning, info (default) or debug",
            completion: .words(["error", "warning", "info", "debug"]),
            take: { d, w, o, _ throws(UsageError) in d.logLevel = try w.logLevel(o) }, printed: { .values(["\($0.logLevel)"]) }),
        .setting(
            "lastfm-key", "KEY",
            "Last.fm API key for country and tag charts (also $PREVIEWD_LASTFM_KEY or "
                + "~/.config/previewd/lastfm.key)",
            take: { d, w, o, _ throws(UsageError) in d.lastfmKey = try w.value(of: o) },
            // The key stays secret: only whether there is one.
            printed: { .note($0.lastfmKey == nil ? "none (key file \($0.lastfmKeyFile))" : "set, not shown") }),
        .setting(
            "lastfm-base", "URL", "Last.fm API endpoint (for tests and mirrors)",
            take: { d, w, o, _ throws(UsageError) in d.lastfmBase = try w.webURL(o) }, printed: { .values([$0.lastfmBase]) }),
        .setting(
            "country", "CODE|NAME", "the country of \"your\" chart (default: the locale's, from LC_ALL, LC_MESSAGES or LANG)",
            take: { d, w, o, _ throws(UsageError) in d.country = try w.value(of: o) },
            printed: { o in
                if let country = o.country { return .values([country]) }
                if let locale = o.localeCountry { return .derived(locale.code, from: "\(locale.variable)=\(locale.value)") }
                return .note("none (no locale names one)")
            }),
    ]

    private static let catalogAndSession: [DaemonOption] = [
        .setting(
            "catalog-cache-ttl", "SECONDS", "seconds Deezer answers are reused (default 600; 0 off)",
            take: { d, w, o, _ throws(UsageError) in d.catalogCacheTTL = try w.seconds(o, allowZero: true) },
            printed: { .values([number($0.catalogCacheTTL)]) }),
        .setting(
            "restore-playing", nil, "resume playback of the restored session (default: it comes back paused at the same place)",
            take: { d, w, o, _ throws(UsageError) in d.restorePlaying = try w.flag(o) },
            printed: { .values([$0.restorePlaying ? "yes" : "no"]) }),
        .setting(
            "stream-timeout", "SECONDS", "a preview that sends nothing for SECONDS fails (default 15)",
            take: { d, w, o, _ throws(UsageError) in d.streamTimeout = try w.seconds(o, allowZero: false) },
            printed: { .values([number($0.streamTimeout)]) }),
        .setting(
            "max-clients", "N", "connections at once (default 100); more get an ACK",
            take: { d, w, o, _ throws(UsageError) in d.maxClients = try w.whole(o, 1...100_000, "a number") },
            printed: { .values(["\($0.maxClients)"]) }),
        .setting(
            "connection-timeout", "SECONDS", "close a client silent for SECONDS outside idle (default 60, as mpd; 0 never)",
            take: { d, w, o, _ throws(UsageError) in d.connectionTimeout = try w.seconds(o, allowZero: true) },
            printed: { .values([number($0.connectionTimeout)]) }),
        .setting(
            "previous-restart", "SECONDS",
            "previous more than SECONDS into a song restarts it (default 3; 0 always goes back, "
                + "as mpd does)",
            take: { d, w, o, _ throws(UsageError) in d.previousRestart = try w.seconds(o, allowZero: true) },
            printed: { .values([number($0.previousRestart)]) }),
    ]

    private static let playbackAndLimits: [DaemonOption] = [
        .setting(
            "prefetch", "N", "songs downloaded ahead of the current one (default 2; 0 off)",
            take: { d, w, o, _ throws(UsageError) in d.prefetch = try w.whole(o, 0...16, "a number of songs") },
            printed: { .values(["\($0.prefetch)"]) }),
        .setting(
            "prefetch-memory", "MIB", "memory all downloads may hold (default 8)",
            take: { d, w, o, _ throws(UsageError) in d.prefetchMemory = try w.whole(o, 1...1024, "MiB") << 20 },
            printed: { .values(["\($0.prefetchMemory >> 20)"]) }),
        .setting(
            "stream-listeners", "N",
            "listeners an http: output serves at once (default 16, at most 256: a thread and 4 s "
                + "of audio each)",
            take: { d, w, o, _ throws(UsageError) in d.streamListeners = try w.whole(o, 1...256, "a number") },
            printed: { .values(["\($0.streamListeners)"]) }),
        .setting(
            "stream-password-file", "FILE",
            "an http: output beyond loopback asks for user \"previewd\" and the password "
                + "on FILE's first line",
            completion: .files, take: { d, w, o, _ throws(UsageError) in d.streamPasswordFile = try w.value(of: o) },
            printed: { o in o.streamPasswordFile.map { .values([$0]) } ?? .note("none (an http: output serves loopback only)") }),
        .setting(
            "replay-gain-preamp", "DB",
            "dB added to the replay gain (-15 to 15, default 0; the gain still never lifts a "
                + "peak past full scale)",
            take: { d, w, o, _ throws(UsageError) in d.replayGainPreamp = try w.decibels(o) },
            printed: { .values([number($0.replayGainPreamp)]) }),
        .setting(
            "replay-gain-wait", "SECONDS",
            "most seconds a song not measured yet waits for its whole preview before its first "
                + "sample (0 to 60, default 1.5; past it the song starts with Deezer's gain)",
            take: { d, w, o, _ throws(UsageError) in d.replayGainWait = try w.seconds(o, upTo: 60) },
            printed: { .values([number($0.replayGainWait)]) }),
        .setting(
            "on-event", "[EVENTS:]CMD",
            "run `sh -c CMD` for each event (or only for the named ones: player, mixer, "
                + "options, playlist, output, tick); the event is in PREVIEWD_* variables and on stdin; repeatable",
            take: { d, w, o, _ throws(UsageError) in d.hooks.append(try w.hook(o)) },
            printed: { .values($0.hooks.map(\.setting)) }),
        .setting(
            "hook-timeout", "SECONDS", "kill a hook still running after SECONDS (default 10)",
            take: { d, w, o, _ throws(UsageError) in d.hookTimeout = try w.seconds(o, allowZero: false) },
            printed: { .values([number($0.hookTimeout)]) }),
        .setting(
            "max-command-list", "KIB",
            "longest command list a client may send (default 2048, as mpd's "
                + "max_command_list_size)",
            take: { d, w, o, _ throws(UsageError) in d.maxCommandListBytes = try w.whole(o, 1...(1 << 20), "KiB") << 10 },
            printed: { .values(["\($0.maxCommandListBytes >> 10)"]) }),
        .setting(
            "autoplay", nil,
            "when the queue's last song plays, add songs like the ones played lately (until `autoplay 0`; "
                + "a saved state's choice wins)",
            take: { d, w, o, _ throws(UsageError) in d.autoplay = try w.flag(o) }, printed: { .values([$0.autoplay ? "yes" : "no"]) }),
        .setting(
            "no-mpris", nil,
            "do not offer MPRIS (media keys, desktop widgets) on the session bus as "
                + "org.mpris.MediaPlayer2.previewd",
            take: { d, w, o, _ throws(UsageError) in d.mpris = !(try w.flag(o)) }, printed: { .values([$0.mpris ? "no" : "yes"]) }),
    ]

    private static let commandLineOnly: [DaemonOption] = [
        .action(
            "config", "FILE",
            "settings file (default $XDG_CONFIG_HOME/previewd/previewd.conf): key = value lines named "
                + "like these options; the command line overrides it",
            // Read before parsing (`ConfigFile.path`).
            completion: .files, take: { _, w, o, _ throws(UsageError) in _ = try w.value(of: o) }),
        .action(
            "print-config", nil, "show the settings in effect and where each came from",
            take: { d, _, _, _ throws(UsageError) in d.printConfig = true }),
        .action(
            "completions", "SHELL", "print previewd's completion script for SHELL: bash, zsh or fish",
            completion: .words(completionShells),
            take: { d, w, o, _ throws(UsageError) in
                let shell = try w.value(of: o)
                guard completionShells.contains(shell) else {
                    throw UsageError(description: "--completions takes bash, zsh or fish, not \"\(UsageError.shown(shell))\"")
                }
                d.completionShell = shell
            }),
        .action("help", nil, "show this text", aliases: ["-h"], take: { d, _, _, _ throws(UsageError) in d.showHelp = true }),
        .action("version", nil, "show the version", aliases: ["-V"], take: { d, _, _, _ throws(UsageError) in d.showVersion = true }),
    ]

    /// The settings a file or a long option may give, by key.
    public static let optionNames = declared.filter(\.inFile).map(\.name)

    /// The declared option a command-line word names (`--prefetch`, `-h`).
    static func declaration(named word: String) -> DaemonOption? {
        declared.first { "--" + $0.name == word || $0.aliases.contains(word) }
    }

    /// The text `--help` prints: each option's synopsis, then its help
    /// wrapped at 79 columns from column 25.
    public static let usage: String = {
        var text = "usage: previewd [options]\nPlays Deezer's 30-second previews; controlled over the MPD protocol.\n\n"
        for option in declared {
            let synopsis = "  " + option.synopsis
            let lines = wrap(option.help, width: 79 - 25)
            if synopsis.count <= 23 {  // two spaces at least before the help
                text += synopsis + String(repeating: " ", count: 25 - synopsis.count) + lines[0] + "\n"
                for line in lines.dropFirst() { text += String(repeating: " ", count: 25) + line + "\n" }
            } else {
                text += synopsis + "\n"
                for line in lines { text += String(repeating: " ", count: 25) + line + "\n" }
            }
        }
        return text + "\n"
    }()

    /// `text`'s words in lines of at most `width` characters (a longer word alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }

    /// A setting's number as a file would give it: `600`, `0.5`.
    static func number(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? "\(Int(x))" : "\(x)"
    }
}
