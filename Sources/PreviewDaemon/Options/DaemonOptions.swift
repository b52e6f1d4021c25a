import PreviewCore
import PreviewDesktop
import PreviewPlatform
import PreviewServer

/// The daemon's settings: its command line, parsed without I/O so it can
/// be tested, and what the server, the controller and the engine are
/// built from (declared once, here).
public struct DaemonOptions: Equatable, Sendable {
    /// Path of the Unix socket (`--socket`).
    public var socketPath: String
    /// `$XDG_RUNTIME_DIR/previewd` (made 0700 at start-up when the socket
    /// is there), or nil without a runtime directory.
    public var runtimeDirectory: String?
    /// Where PCM goes (`--output`, repeatable; PulseAudio when none is given).
    public var outputs: [OutputKind] = []
    /// Null/WAV outputs consume PCM in real time (true) or as fast as decoding allows.
    public var realtimePace = true
    /// Base URL of the Deezer API (`https://api.deezer.com`, or a loopback stand-in).
    public var apiBase: String
    /// Directory for state (the queue, stored playlists, the want list), created on demand.
    public var stateDirectory: String
    /// Logging verbosity (`--log-level`).
    public var logLevel = LogLevel.info
    /// Last.fm API key for country and tag charts (`--lastfm-key`,
    /// `$PREVIEWD_LASTFM_KEY`, or the file `$XDG_CONFIG_HOME/previewd/lastfm.key`).
    public var lastfmKey: String?
    /// Where a key file is looked for when no key is given.
    public var lastfmKeyFile: String = ""
    /// `--country CODE|NAME`: the country whose chart is "yours"
    /// (`catalogchart KIND country ""`), as typed; nil: the locale's.
    public var country: String?
    /// The locale's country (`LC_ALL`, else `LC_MESSAGES`, else `LANG`:
    /// `de_DE.UTF-8` is `DE`), with the variable that gave it.
    public var localeCountry: LocaleCountry?
    /// Last.fm API endpoint (`--lastfm-base`).
    public var lastfmBase = "https://ws.audioscrobbler.com/2.0/"
    /// Seconds catalog answers are reused (`--catalog-cache-ttl`; 0 disables).
    public var catalogCacheTTL = 600.0
    /// `--restore-playing`: a restored session resumes instead of coming back paused.
    public var restorePlaying = false
    /// `--autoplay`: autoplay starts on where no saved state says otherwise
    /// (`autoplay 0|1` is saved with the state and wins over this).
    public var autoplay = false
    /// `--previous-restart S`: `previous` past S seconds restarts the song (0: mpd's way).
    public var previousRestart = 3.0
    /// `--stream-timeout S`: a preview delivering nothing for S seconds fails.
    public var streamTimeout = 15.0
    /// Outputs at most (`--output` repeated): each has a thread of its own.
    public static let maxOutputs = 16
    /// `--max-clients N`: connections beyond N get an ACK saying so.
    public var maxClients = 100
    /// `--connection-timeout S`: a client that sends nothing and reads
    /// nothing for S seconds, outside `idle` and `events`, is closed (mpd's
    /// `connection_timeout`, 60 s by default), so silent connections cannot
    /// hold every place; 0 never.
    public var connectionTimeout = 60.0
    /// `--prefetch N`: songs downloaded ahead of the current one (0: off).
    public var prefetch = 2
    /// `--replay-gain-preamp DB`: dB added to every replay gain (-15 to 15, as mpd's).
    public var replayGainPreamp = 0.0
    /// `--prefetch-memory MIB`: bytes all in-memory downloads may hold.
    public var prefetchMemory = 8 << 20
    /// `--stream-listeners N`: listeners an HTTP stream output serves at
    /// once (both formats together); one more is answered 503.
    public var streamListeners = 16
    /// `--stream-password-file FILE`: the file whose first line is the
    /// password an HTTP stream output beyond loopback asks for (user
    /// `previewd`, HTTP digest, as previewweb's `--password-file`); nil: none.
    public var streamPasswordFile: String?
    /// `--on-event [EVENTS:]CMD`, repeatable: hooks run for each change.
    public var hooks: [Hook] = []
    /// `--hook-timeout S`: a hook still running after S seconds is killed.
    public var hookTimeout = 10.0
    /// `--max-command-list KIB`: the longest command list taken, in bytes.
    public var maxCommandListBytes = 2 << 20
    /// Serve MPRIS on the session bus (false with `--no-mpris`).
    public var mpris = true
    /// `--help` was given: print `usage` and exit 0.
    public var showHelp = false
    /// `--version` was given.
    public var showVersion = false
    /// `--print-config` was given: print the settings in effect and exit 0.
    public var printConfig = false
    /// Where each setting given came from, by key (`prefetch`): `FILE:LINE`
    /// or `command line`; settings not named are defaults or the environment's.
    public var sources: [String: String] = [:]

    /// The text `--help` prints.
    public static let usage = """
    usage: previewd [options]
    Plays Deezer's 30-second previews; controlled over the MPD protocol.

      --socket PATH          Unix socket (default $PREVIEWD_SOCKET, else
                             $XDG_RUNTIME_DIR/previewd/socket)
      --output KIND          pulse (default sink, followed when it changes),
                             pulse:SINK (that sink), null, wav:PATH,
                             fifo:PATH (raw s16le 44100 Hz stereo into a named
                             pipe, as snapserver reads it) or http:HOST:PORT
                             (MP3 and FLAC streams); repeatable: several
                             play at once, each switched with enableoutput
      --pace realtime|none   null/wav outputs: real-time speed (default) or
                             as fast as decoding allows
      --api-base URL         Deezer API base (default $PREVIEWD_API_BASE, else
                             https://api.deezer.com)
      --state-dir DIR        state directory (default $XDG_STATE_HOME/previewd,
                             else ~/.local/state/previewd)
      --log-level LEVEL      error, warning, info (default) or debug
      --lastfm-key KEY       Last.fm API key for country and tag charts (also
                             $PREVIEWD_LASTFM_KEY or ~/.config/previewd/lastfm.key)
      --lastfm-base URL      Last.fm API endpoint (for tests and mirrors)
      --country CODE|NAME    the country of "your" chart (default: the locale's,
                             from LC_ALL, LC_MESSAGES or LANG)
      --catalog-cache-ttl S  seconds Deezer answers are reused (default 600; 0 off)
      --restore-playing      resume playback of the restored session (default:
                             it comes back paused at the same place)
      --stream-timeout S     a preview that sends nothing for S seconds fails
                             (default 15)
      --max-clients N        connections at once (default 100); more get an ACK
      --connection-timeout S close a client silent for S seconds outside idle
                             (default 60, as mpd; 0 never)
      --previous-restart S   previous more than S seconds into a song restarts
                             it (default 3; 0 always goes back, as mpd does)
      --prefetch N           songs downloaded ahead of the current one
                             (default 2; 0 off)
      --prefetch-memory MIB  memory all downloads may hold (default 8)
      --stream-listeners N   listeners an http: output serves at once (default
                             16, at most 256: a thread and 4 s of audio each)
      --stream-password-file FILE
                             an http: output beyond loopback asks for user
                             "previewd" and the password on FILE's first line
      --replay-gain-preamp DB
                             dB added to the replay gain (-15 to 15, default 0;
                             the gain still never lifts a peak past full scale)
      --on-event [EV,..:]CMD run `sh -c CMD` for each event (or only for the
                             named ones: player, mixer, options, playlist,
                             output, tick); the event is in PREVIEWD_*
                             variables and on stdin; repeatable
      --hook-timeout S       kill a hook still running after S seconds (default 10)
      --max-command-list KIB longest command list a client may send
                             (default 2048, as mpd's max_command_list_size)
      --autoplay             when the queue's last song plays, add songs like
                             the ones played lately (until `autoplay 0`;
                             a saved state's choice wins)
      --no-mpris             do not offer MPRIS (media keys, desktop widgets)
                             on the session bus as org.mpris.MediaPlayer2.previewd
      --config FILE          settings file (default
                             $XDG_CONFIG_HOME/previewd/previewd.conf): key = value
                             lines named like these options; the command line
                             overrides it
      --print-config         show the settings in effect and where each came from
      --help                 show this text
      --version              show the version

    """

    /// A command-line mistake, for a stderr line and exit code 64.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public let description: String

        /// `text` as an error quotes it: at most 80 characters, then `…`
        /// and its length (a 10 MB value is not echoed back whole).
        static func shown(_ text: some StringProtocol) -> String {
            text.count <= 80 ? String(text) : "\(text.prefix(80))… (\(text.utf8.count) bytes)"
        }
    }

    /// Parses `arguments` (without the program name) over the settings of
    /// `config` (a settings file's path and text, see `ConfigFile`).
    /// - Parameters: environment: variable lookup; uid: for the socket fallback.
    /// - Throws: `UsageError` naming the bad option or value (and the file
    ///   and line, for the settings file).
    public static func parse(_ arguments: [String], environment: (String) -> String?, uid: UInt32,
                             config: (path: String, text: String)? = nil) throws(UsageError) -> DaemonOptions {
        var o = DaemonOptions(socketPath: "", apiBase: "", stateDirectory: "")
        var paths = GivenPaths()
        if let config {
            for entry in try ConfigFile.entries(config.text, path: config.path) {
                var words = OptionWords(["--\(entry.key)=\(entry.value)"])
                let option = words.next()!
                do { try o.take(option, from: &words, paths: &paths) } catch {
                    // The file names the setting without the option's dashes.
                    var reason = error.description
                    if reason.hasPrefix("--\(entry.key)") { reason.removeFirst(2) }
                    throw UsageError(description: "\(entry.place): \(reason)")
                }
                o.sources[entry.key] = entry.place
            }
        }
        var words = OptionWords(arguments)
        var hooksGiven = false, outputsGiven = false
        while let option = words.next() {
            if option.name == "--on-event", !hooksGiven {
                // The command line's hooks replace the file's.
                hooksGiven = true
                o.hooks = []
            }
            if option.name == "--output", !outputsGiven {
                // So do its outputs.
                outputsGiven = true
                o.outputs = []
            }
            try o.take(option, from: &words, paths: &paths)
            if option.name.hasPrefix("--") { o.sources[String(option.name.dropFirst(2))] = "command line" }
        }
        o.applyEnvironment(paths, environment: environment, uid: uid)
        if o.outputs.isEmpty { o.outputs = [.pulse(sink: nil)] }
        guard o.outputs.count <= DaemonOptions.maxOutputs else {
            throw UsageError(description: "--output: at most \(DaemonOptions.maxOutputs) outputs, not \(o.outputs.count)")
        }
        for case .http(let host, let port) in o.outputs where !host.hasPrefix("127.") && o.streamPasswordFile == nil {
            throw UsageError(description: "--output http:\(host):\(port): beyond loopback (127.x.x.x) a stream needs a password: "
                             + "--stream-password-file FILE")
        }
        return o
    }

    /// Applies one option, reading its value from `words`.
    /// - Throws: `UsageError` naming the bad option or value.
    private mutating func take(_ option: OptionWords.Option, from words: inout OptionWords, paths: inout GivenPaths) throws(UsageError) {
        switch option.name {
        case "--socket": paths.socket = try words.value(of: option)
        case "--output": outputs.append(try words.output(option))
        case "--pace": realtimePace = try words.pace(option)
        case "--api-base": paths.apiBase = try words.webURL(option)
        case "--state-dir": paths.stateDirectory = try words.value(of: option)
        case "--log-level": logLevel = try words.logLevel(option)
        case "--lastfm-key": lastfmKey = try words.value(of: option)
        case "--lastfm-base": lastfmBase = try words.webURL(option)
        case "--country": country = try words.value(of: option)
        case "--catalog-cache-ttl": catalogCacheTTL = try words.seconds(option, allowZero: true)
        case "--restore-playing": restorePlaying = try words.flag(option)
        case "--autoplay": autoplay = try words.flag(option)
        case "--stream-timeout": streamTimeout = try words.seconds(option, allowZero: false)
        case "--previous-restart": previousRestart = try words.seconds(option, allowZero: true)
        case "--max-clients": maxClients = try words.whole(option, 1...100_000, "a number")
        case "--connection-timeout": connectionTimeout = try words.seconds(option, allowZero: true)
        case "--prefetch": prefetch = try words.whole(option, 0...16, "a number of songs")
        case "--prefetch-memory": prefetchMemory = try words.whole(option, 1...1024, "MiB") << 20
        case "--stream-listeners": streamListeners = try words.whole(option, 1...256, "a number")
        case "--stream-password-file": streamPasswordFile = try words.value(of: option)
        case "--replay-gain-preamp": replayGainPreamp = try words.decibels(option)
        case "--on-event": hooks.append(try words.hook(option))
        case "--hook-timeout": hookTimeout = try words.seconds(option, allowZero: false)
        case "--max-command-list": maxCommandListBytes = try words.whole(option, 1...(1 << 20), "KiB") << 10
        case "--no-mpris": mpris = !(try words.flag(option))
        case "--help", "-h": showHelp = true
        case "--version", "-V": showVersion = true
        case "--print-config": printConfig = true
        case "--config": _ = try words.value(of: option)  // read before parsing (`ConfigFile.path`)
        default:
            let known = DaemonOptions.optionNames.map { "--" + $0 } + ["--help", "--version", "--print-config", "--config"]
            let hint = ClosestMatch.closest(to: option.name, among: known).map { "; did you mean \"\($0)\"?" } ?? ""
            throw UsageError(description: "unknown option \"\(UsageError.shown(option.word))\"\(hint) (see --help)")
        }
    }

    /// Paths and endpoints given on the command line: each falls back to the
    /// environment only when absent, so parsing keeps them apart until then.
    struct GivenPaths {
        var socket: String?
        var apiBase: String?
        var stateDirectory: String?
    }

    /// Fills in what the environment decides: the Last.fm key (when no
    /// `--lastfm-key`) and where its file would be, the socket, the Deezer
    /// API base and the state directory (XDG locations, else under `$HOME`,
    /// else `/tmp`).
    private mutating func applyEnvironment(_ paths: GivenPaths, environment: (String) -> String?, uid: UInt32) {
        if lastfmKey == nil, let key = environment("PREVIEWD_LASTFM_KEY"), !key.isEmpty { lastfmKey = key }
        localeCountry = CountryTable.localeCountry(environment: environment)
        let configHome = environment("XDG_CONFIG_HOME").flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment("HOME") ?? "/tmp") + "/.config"
        lastfmKeyFile = configHome + "/previewd/lastfm.key"
        socketPath = SocketPath.resolve(explicit: paths.socket, environment: environment, uid: uid)
        runtimeDirectory = SocketPath.runtimeDirectory(environment: environment)
        apiBase = paths.apiBase ?? environment("PREVIEWD_API_BASE").flatMap { $0.isEmpty ? nil : $0 } ?? "https://api.deezer.com"
        if let dir = paths.stateDirectory {
            stateDirectory = dir
        } else if let xdg = environment("XDG_STATE_HOME"), !xdg.isEmpty {
            stateDirectory = xdg + "/previewd"
        } else {
            stateDirectory = (environment("HOME") ?? "/tmp") + "/.local/state/previewd"
        }
    }
}

/// The command line as a sequence of options, each with its value read on
/// demand as `--name VALUE` or `--name=VALUE`, and the value forms options
/// share. Every error names the option as given (without `=VALUE`).
struct OptionWords {
    typealias UsageError = DaemonOptions.UsageError

    /// One option word.
    struct Option {
        /// The word as typed, `=VALUE` included (for "unknown option").
        let word: String
        /// The option's name: the word before any `=`.
        let name: String
        /// The value after `=`, if the word had one.
        let inline: String?
    }

    private let arguments: [String]
    /// The next word to read.
    private var index = 0

    init(_ arguments: [String]) { self.arguments = arguments }

    /// The next option, or nil at the end. Only words starting with `--`
    /// carry an inline value.
    mutating func next() -> Option? {
        guard index < arguments.count else { return nil }
        let word = arguments[index]
        index += 1
        if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
            return Option(word: word, name: String(word[..<eq]), inline: String(word[word.index(after: eq)...]))
        }
        return Option(word: word, name: word, inline: nil)
    }

    /// The option's value: its inline one, else the next word.
    /// - Throws: "needs a value" at the end, or when the next word is an
    ///   option: `--socket --output null` is a forgotten value, not a socket
    ///   named "--output".
    mutating func value(of option: Option) throws(UsageError) -> String {
        if let inline = option.inline { return inline }
        guard index < arguments.count, !arguments[index].hasPrefix("--") else {
            throw UsageError(description: "\(option.name) needs a value")
        }
        index += 1
        return arguments[index - 1]
    }

    /// A switch: on when given bare; a settings file says `yes`/`no`
    /// (`true`/`false`, `on`/`off`, `1`/`0`).
    func flag(_ option: Option) throws(UsageError) -> Bool {
        guard let text = option.inline else { return true }
        switch text.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: throw UsageError(description: "\(option.name) takes yes or no, not \"\(UsageError.shown(text))\"")
        }
    }

    /// An `http://` or `https://` URL (the API endpoints).
    mutating func webURL(_ option: Option) throws(UsageError) -> String {
        let url = try value(of: option)
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw UsageError(description: "\(option.name) must be an http:// or https:// URL, not \"\(UsageError.shown(url))\"")
        }
        return url
    }

    /// Seconds as `Seconds.parse` takes them (at most `Seconds.maximum`);
    /// 0 only where it means "off" or "always".
    mutating func seconds(_ option: Option, allowZero: Bool) throws(UsageError) -> Double {
        let text = try value(of: option)
        guard let s = Seconds.parse(text), allowZero || s > 0 else {
            throw UsageError(description: "\(option.name) takes seconds (at most \(Int(Seconds.maximum))), not \"\(UsageError.shown(text))\"")
        }
        return s
    }

    /// A level change in dB, -15 to 15 (mpd's `replaygain_preamp` range).
    mutating func decibels(_ option: Option) throws(UsageError) -> Double {
        let text = try value(of: option)
        guard let db = Double(text), db.isFinite, (-15...15).contains(db) else {
            throw UsageError(description: "\(option.name) takes dB from -15 to 15, not \"\(UsageError.shown(text))\"")
        }
        return db
    }

    /// A whole number in `range`; `unit` words it in the error ("takes MiB
    /// from 1 to 1024").
    mutating func whole(_ option: Option, _ range: ClosedRange<Int>, _ unit: String) throws(UsageError) -> Int {
        let text = try value(of: option)
        guard let n = Int(text), range.contains(n) else {
            throw UsageError(description: "\(option.name) takes \(unit) from \(range.lowerBound) to \(range.upperBound), not \"\(UsageError.shown(text))\"")
        }
        return n
    }

    /// `--output pulse|pulse:SINK|null|wav:PATH`.
    mutating func output(_ option: Option) throws(UsageError) -> OutputKind {
        let text = try value(of: option)
        switch text {
        case "pulse": return .pulse(sink: nil)
        case "null": return .null
        case _ where text.hasPrefix("pulse:") && text.count > 6: return .pulse(sink: String(text.dropFirst(6)))
        case _ where text.hasPrefix("wav:") && text.count > 4: return .wav(String(text.dropFirst(4)))
        case _ where text.hasPrefix("fifo:") && text.count > 5: return .fifo(String(text.dropFirst(5)))
        case _ where text.hasPrefix("http:"): return try httpOutput(String(text.dropFirst(5)))
        default:
            throw UsageError(description: "--output must be pulse, pulse:SINK, null, wav:PATH, fifo:PATH or http:HOST:PORT, "
                             + "not \"\(UsageError.shown(text))\"")
        }
    }

    /// `HOST:PORT` of `--output http:HOST:PORT`: a dotted IPv4 address and a
    /// port (0: any free one). Beyond loopback a stream needs a password
    /// (`--stream-password-file`, checked once every option is read).
    private func httpOutput(_ text: String) throws(UsageError) -> OutputKind {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let octets = parts.first?.split(separator: ".", omittingEmptySubsequences: false) ?? []
        guard parts.count == 2, octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }),
              let port = Int(parts[1]), (0...65535).contains(port) else {
            throw UsageError(description: "--output http: takes HOST:PORT, an IPv4 address and a port, as http:127.0.0.1:8000, "
                             + "not \"http:\(UsageError.shown(text))\"")
        }
        return .http(host: String(parts[0]), port: port)
    }

    /// `--pace realtime|none`: whether null/WAV outputs keep real time.
    mutating func pace(_ option: Option) throws(UsageError) -> Bool {
        switch try value(of: option) {
        case "realtime": return true
        case "none": return false
        case let other: throw UsageError(description: "--pace must be realtime or none, not \"\(UsageError.shown(other))\"")
        }
    }

    /// `--log-level error|warning|info|debug`.
    mutating func logLevel(_ option: Option) throws(UsageError) -> LogLevel {
        let text = try value(of: option)
        guard let level = LogLevel(name: text) else {
            throw UsageError(description: "--log-level must be error, warning, info or debug, not \"\(UsageError.shown(text))\"")
        }
        return level
    }

    /// `--on-event [EVENTS:]CMD`: a hook with a command.
    mutating func hook(_ option: Option) throws(UsageError) -> Hook {
        let hook = Hook(parsing: try value(of: option))
        guard !hook.command.isEmpty else { throw UsageError(description: "--on-event needs a command") }
        return hook
    }
}

/// previewd's version.
public let previewdVersion = "0.1.0"
