import PreviewCore

/// previewctl's subcommands turned into protocol requests, without I/O,
/// so the CLI's behaviour is tested here and the executable only wires it up.
public enum ControlCommand: Equatable, Sendable {
    case add([String])
    case play(Int?)
    case pause
    case toggle
    case stop
    /// `next [--wait]`: the daemon answers at once; with `wait`, previewctl
    /// returns once the new song's audio has started.
    case next(wait: Bool)
    case previous
    case shuffle
    case random(Bool)
    case `repeat`(Bool)
    /// `autoplay on|off`.
    case autoplay(Bool)
    case queue
    case clear
    case delete(Int)
    /// `volume` alone shows it; `N` sets it; `+N`/`-N` changes it.
    case volume(String?)
    case status
    /// `search`, `chart`, `album`, `artist`, `related`, `info`.
    case catalog(CatalogCommand)
    /// `want` (list), `want add|rm|toggle URI`, `want play [URI]`.
    case want(action: String, uri: String?)
    /// `library` (list), `library add|rm URI`.
    case library(action: String, uri: String?)
    case pauseIfPlaying
    /// `seek [+|-]SECONDS` or `seek PERCENT%`.
    case seek(String)
    /// `insert URI`: queue right after the current song.
    case insert(String)
    /// `crop`: remove every song but the current one.
    case crop
    /// `move FROM TO` (positions from 1).
    case move(Int, Int)
    case version
    /// `completions bash|zsh|fish`: print the completion script.
    case completions(String)
    /// `current [--format FMT] [--json]`: one line about the current song.
    case current(format: String, json: Bool)
    /// `watch [--format FMT] [--json] [--interval S]`: a line per change.
    case watch(format: String, json: Bool, interval: Double?)
    /// Stored playlists: `playlists`, `save NAME [--replace]`, `load NAME`,
    /// `playlist NAME` (show), `playlist NAME add|rename|del|move ...`,
    /// `rmplaylist NAME`.
    /// `now [--play N | --add N] [--json]`: Listen Now, or one of its entries queued.
    case now(ListenNowPick?, json: Bool)
    case playlists
    case save(String, replace: Bool)
    /// `load NAME [--play]`: queue it; with `play`, play its first song.
    case load(String, play: Bool)
    /// `playlist NAME add URI|N...`: each URI, or entry N of the last listing, added.
    case addToPlaylist(String, [ListingReference])
    /// `open N [--play|--add] [--json]`: entry N of the last listing, shown
    /// as its own listing (an album's tracks, an artist's page, ...).
    case open(Int, add: Bool, play: Bool, json: Bool)
    case showPlaylist(String)
    case editPlaylist(String, PlaylistEdit)
    case removePlaylist(String)
    /// `help [COMMAND]`: the usage text, or one command's lines of it.
    case help(String?)

    /// The format `current` and `watch` use without `--format`.
    public static let defaultFormat = "%state%[: [%artist% - ]%title%][ %elapsed%/%duration%]"

    /// A usage mistake, described for stderr.
    public struct UsageError: Error, Equatable {
        public let message: String
        /// The command name that is none of previewctl's, when that is the mistake.
        public var unknownCommand: String?
        /// - Parameters: as the properties.
        public init(message: String, unknownCommand: String? = nil) {
            self.message = message
            self.unknownCommand = unknownCommand
        }
    }
}

/// One subcommand's words, with the checks of its arguments. Usage
/// messages name the subcommand as typed (`del` or `delete`), so each check
/// knows it.
/// (Internal so that parsers of related verbs can live in their own files.)
struct Subcommand {
    typealias UsageError = ControlCommand.UsageError

    /// The subcommand as typed.
    let name: String
    /// The words after it.
    let args: [String]

    /// - Throws: "wrong number of arguments" unless `n` holds the count.
    func count(_ n: ClosedRange<Int>) throws(UsageError) {
        guard n.contains(args.count) else { throw UsageError(message: "wrong number of arguments for \"\(name)\"") }
    }

    /// The one argument of `random` and `repeat`: on/1/yes or off/0/no.
    func onOff() throws(UsageError) -> Bool {
        try count(1...1)
        switch args[0] {
        case "on", "1", "yes": return true
        case "off", "0", "no": return false
        default: throw UsageError(message: "\(name) takes on or off, not \"\(args[0])\"")
        }
    }

    /// The first argument as a queue position from 1 (as people count), at
    /// most `Int32.max` like the daemon's. The caller checks the count.
    func position() throws(UsageError) -> Int {
        guard let n = Int(args[0]), n >= 1, n <= Int(Int32.max) else {
            throw UsageError(message: "\(name) takes a queue position from 1, not \"\(args[0])\"")
        }
        return n
    }

    /// `play [POS] [--wait]`: the position from 1, or nil for "where it
    /// stands". `--wait` is accepted anywhere: play answers once the audio
    /// started anyway.
    func playPosition() throws(UsageError) -> Int? {
        let rest = args.filter { $0 != "--wait" }
        guard rest.count <= 1 else { throw UsageError(message: "wrong number of arguments for \"play\"") }
        guard let p = rest.first else { return nil }
        guard let n = Int(p), n >= 1, n <= Int(Int32.max) else {
            throw UsageError(message: "play takes a queue position from 1, not \"\(p)\"")
        }
        return n
    }

    /// `volume [N|+N|-N]`: the argument as given (the daemon side tells
    /// setting from changing), checked to be 0 to 100; nil shows the volume.
    func volumeChange() throws(UsageError) -> String? {
        try count(0...1)
        guard let v = args.first else { return nil }
        let digits = v.hasPrefix("+") || v.hasPrefix("-") ? v.dropFirst() : v[...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits), n <= 100 else {
            throw UsageError(message: "volume takes N, +N or -N (0 to 100), not \"\(v)\"")
        }
        return v
    }

    /// `seek SECONDS|+SECONDS|-SECONDS|PERCENT%`: the argument as given,
    /// checked to be a finite, non-negative number (a percentage at most 100).
    func seekTarget() throws(UsageError) -> String {
        try count(1...1)
        let v = args[0]
        let body = v.hasSuffix("%") ? v.dropLast() : (v.hasPrefix("+") || v.hasPrefix("-") ? v.dropFirst() : v[...])
        guard let n = Double(body), n >= 0, n.isFinite, !(v.hasSuffix("%") && n > 100) else {
            throw UsageError(message: "seek takes SECONDS, +SECONDS, -SECONDS or PERCENT%, not \"\(v)\"")
        }
        return v
    }

    /// `move FROM TO`: two queue positions from 1.
    func moveFromTo() throws(UsageError) -> (Int, Int) {
        try count(2...2)
        guard let from = Int(args[0]), let to = Int(args[1]), from >= 1, to >= 1, from <= Int(Int32.max), to <= Int(Int32.max) else {
            throw UsageError(message: "move takes two queue positions from 1")
        }
        return (from, to)
    }

    /// `completions bash|zsh|fish`: a shell there is a script for.
    func shell() throws(UsageError) -> String {
        try count(1...1)
        guard Completions.script(for: args[0]) != nil else {
            throw UsageError(message: "completions are for bash, zsh and fish, not \"\(args[0])\"")
        }
        return args[0]
    }

    /// The options of `current` and `watch`: `--format FMT`, `--json`, and
    /// (`watch` only) `--interval S` in seconds from 0.1 to 3600.
    func statusLine() throws(UsageError) -> ControlCommand {
        var format = ControlCommand.defaultFormat
        var json = false
        var interval: Double?
        var i = 0
        while i < args.count {
            switch args[i] {
            case "--json": json = true
            case "--format":
                guard i + 1 < args.count else { throw UsageError(message: "--format needs a value") }
                format = args[i + 1]
                i += 1
            case "--interval" where name == "watch":
                guard i + 1 < args.count, let s = Double(args[i + 1]), s >= 0.1, s <= 3600 else {
                    throw UsageError(message: "--interval takes seconds from 0.1 to 3600")
                }
                interval = s
                i += 1
            default: throw UsageError(message: "unknown option \"\(args[i])\" for \(name)")
            }
            i += 1
        }
        return name == "current" ? .current(format: format, json: json) : .watch(format: format, json: json, interval: interval)
    }

    /// `want` (list), `want add|rm|toggle URI`, `want play [URI]`.
    func want() throws(UsageError) -> ControlCommand {
        guard let action = args.first else { return .want(action: "list", uri: nil) }
        switch action {
        case "add", "rm", "toggle":
            guard args.count == 2 else { throw UsageError(message: "want \(action) takes one URI") }
            return .want(action: action, uri: args[1])
        case "play":
            guard args.count <= 2 else { throw UsageError(message: "want play takes at most one URI") }
            return .want(action: "play", uri: args.count == 2 ? args[1] : nil)
        default: throw UsageError(message: "want takes add, rm, toggle or play, not \"\(action)\"")
        }
    }

    /// `library` (list), `library add|rm URI`.
    func library() throws(UsageError) -> ControlCommand {
        guard let action = args.first else { return .library(action: "list", uri: nil) }
        guard action == "add" || action == "rm" else { throw UsageError(message: "library takes add or rm, not \"\(action)\"") }
        guard args.count == 2 else { throw UsageError(message: "library \(action) takes one URI") }
        return .library(action: action, uri: args[1])
    }
}

/// Text shown by previewctl, built from protocol replies (mpc's layout).
public enum ControlFormat {
    /// `Artist - Title`, else the title, else the URI.
    public static func songLine(_ song: [String: String]) -> String {
        if let title = song["Title"] {
            if let artist = song["Artist"] { return "\(artist) - \(title)" }
            return title
        }
        return song["file"] ?? "?"
    }

    /// M:SS.
    public static func clock(_ seconds: Double) -> String {
        let s = max(0, Int(clamping: seconds, rounding: .down))
        let sec = s % 60
        return "\(s / 60):\(sec < 10 ? "0" : "")\(sec)"
    }

    /// How long before `now` the time `then` is (Unix seconds), in words,
    /// as `relative`; a time after `now` is "just now".
    public static func age(of then: Int, now: Int) -> String {
        let (seconds, overflow) = now.subtractingReportingOverflow(then)
        return relative(overflow ? (then > now ? 0 : .max) : seconds)
    }

    /// How long ago `seconds` is, in words ("just now", "5 minutes ago",
    /// "3 days ago").
    public static func relative(_ seconds: Int) -> String {
        func unit(_ n: Int, _ name: String) -> String { "\(n) \(name)\(n == 1 ? "" : "s") ago" }
        switch max(0, seconds) {
        case ..<60: return "just now"
        case ..<3600: return unit(seconds / 60, "minute")
        case ..<86400: return unit(seconds / 3600, "hour")
        case ..<(86400 * 30): return unit(seconds / 86400, "day")
        case ..<(86400 * 365): return unit(seconds / (86400 * 30), "month")
        default: return unit(seconds / (86400 * 365), "year")
        }
    }

    /// Unix seconds of an ISO 8601 UTC time `YYYY-MM-DDTHH:MM:SSZ`, for
    /// years 0 to 9999; nil for anything else (`ISO8601.unixSeconds`).
    public static func unixTime(iso text: String) -> Int? { ISO8601.unixSeconds(text) }

    /// The three-line status: song, state with progress, modes.
    public static func status(status: [String: String], song: [String: String]) -> String {
        var out = ""
        let state = status["state"] ?? "stop"
        if state != "stop", !song.isEmpty {
            out += songLine(song) + "\n"
            let elapsed = Double(status["elapsed"] ?? "") ?? 0
            let duration = Double(status["duration"] ?? "") ?? 0
            let pos = (Int(status["song"] ?? "") ?? 0).clampedAdding(1)
            let length = status["playlistlength"] ?? "0"
            let percent = duration > 0 ? Int(clamping: elapsed / duration * 100, rounding: .down) : 0
            let label = state == "play" ? "[playing]" : "[paused] "
            out += "\(label) #\(pos)/\(length)   \(clock(elapsed))/\(clock(duration)) (\(percent)%)\n"
            out += progressBar(fraction: duration > 0 ? elapsed / duration : 0, width: 40) + "\n"
        }
        let onOff: (String) -> String = { status[$0] == "1" ? "on " : "off" }
        let volume = status["volume"].map { $0 == "-1" ? "n/a" : "\($0)%" } ?? "n/a"
        let single = status["single"] == "oneshot" ? "once" : onOff("single")
        out +=
            "volume:\(volume.count < 4 ? String(repeating: " ", count: 4 - volume.count) : "")\(volume)   repeat: \(onOff("repeat"))   random: \(onOff("random"))   single: \(single)   consume: \(onOff("consume"))   autoplay: \(onOff("autoplay"))\n"
        if let error = status["error"] { out += "ERROR: \(error)\n" }
        return out
    }

    /// The `delete` commands that keep only the song at `position` of a
    /// queue of `length` songs (previewctl's `crop`), from `status` values.
    public static func cropCommands(position: Int, length: Int) -> [String] {
        guard position >= 0, position < length else { return [] }
        var commands: [String] = []
        if position + 1 < length { commands.append("delete \(position + 1):\(length)") }
        if position > 0 { commands.append("delete 0:\(position)") }
        return commands
    }

    /// `[=====>    ]` of `width` cells inside the brackets.
    public static func progressBar(fraction: Double, width: Int) -> String {
        let f = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        let filled = Int(clamping: Double(width) * f, rounding: .down)
        var bar = "["
        bar += String(repeating: "=", count: max(0, filled - 1))
        if filled > 0 { bar += filled == width ? "=" : ">" }
        bar += String(repeating: " ", count: width - filled)
        return bar + "]"
    }
}
