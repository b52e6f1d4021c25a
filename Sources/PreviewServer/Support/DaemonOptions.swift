import PreviewCore

/// The daemon's settings: its command line, parsed without I/O so it can
/// be tested, and what the server, the controller and the engine are
/// built from (declared once, here).
public struct DaemonOptions: Equatable, Sendable {
    /// Path of the Unix socket (`--socket`).
    public var socketPath: String
    /// Where PCM goes (`--output`).
    public var output = OutputKind.pulse(sink: nil)
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
    /// Last.fm API endpoint (`--lastfm-base`).
    public var lastfmBase = "https://ws.audioscrobbler.com/2.0/"
    /// Seconds catalog answers are reused (`--catalog-cache-ttl`; 0 disables).
    public var catalogCacheTTL = 600.0
    /// `--restore-playing`: a restored session resumes instead of coming back paused.
    public var restorePlaying = false
    /// `--previous-restart S`: `previous` past S seconds restarts the song (0: mpd's way).
    public var previousRestart = 3.0
    /// `--stream-timeout S`: a preview delivering nothing for S seconds fails.
    public var streamTimeout = 15.0
    /// `--max-clients N`: connections beyond N get an ACK saying so.
    public var maxClients = 100
    /// `--prefetch N`: songs downloaded ahead of the current one (0: off).
    public var prefetch = 2
    /// `--prefetch-memory MIB`: bytes all in-memory downloads may hold.
    public var prefetchMemory = 8 << 20
    /// `--on-event [EVENTS:]CMD`, repeatable: hooks run for each change.
    public var hooks: [Hook] = []
    /// `--hook-timeout S`: a hook still running after S seconds is killed.
    public var hookTimeout = 10.0
    /// `--max-command-list KIB`: the longest command list taken, in bytes.
    public var maxCommandListBytes = 2 << 20
    /// `--help` was given: print `usage` and exit 0.
    public var showHelp = false
    /// `--version` was given.
    public var showVersion = false

    /// The text `--help` prints.
    public static let usage = """
    usage: previewd [options]
    Plays Deezer's 30-second previews; controlled over the MPD protocol.

      --socket PATH          Unix socket (default $PREVIEWD_SOCKET, else
                             $XDG_RUNTIME_DIR/previewd/socket)
      --output KIND          pulse (default sink, followed when it changes),
                             pulse:SINK (that sink), null, or wav:PATH
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
      --catalog-cache-ttl S  seconds Deezer answers are reused (default 600; 0 off)
      --restore-playing      resume playback of the restored session (default:
                             it comes back paused at the same place)
      --stream-timeout S     a preview that sends nothing for S seconds fails
                             (default 15)
      --max-clients N        connections at once (default 100); more get an ACK
      --previous-restart S   previous more than S seconds into a song restarts
                             it (default 3; 0 always goes back, as mpd does)
      --prefetch N           songs downloaded ahead of the current one
                             (default 2; 0 off)
      --prefetch-memory MIB  memory all downloads may hold (default 8)
      --on-event [EV,..:]CMD run `sh -c CMD` for each event (or only for the
                             named ones: player, mixer, options, playlist,
                             output, tick); the event is in PREVIEWD_*
                             variables and on stdin; repeatable
      --hook-timeout S       kill a hook still running after S seconds (default 10)
      --max-command-list KIB longest command list a client may send
                             (default 2048, as mpd's max_command_list_size)
      --help                 show this text
      --version              show the version

    """

    /// A command-line mistake, for a stderr line and exit code 64.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Parses `arguments` (without the program name).
    /// - Parameters: environment: variable lookup; uid: for the socket fallback.
    /// - Throws: `UsageError` naming the bad option or value.
    public static func parse(_ arguments: [String], environment: (String) -> String?, uid: UInt32) throws(UsageError) -> DaemonOptions {
        var socket: String?
        var apiBase: String?
        var stateDir: String?
        var o = DaemonOptions(socketPath: "", apiBase: "", stateDirectory: "")
        var i = 0
        func value(_ name: String) throws(UsageError) -> String {
            i += 1
            // `--socket --output null` is a forgotten value, not a socket named "--output".
            guard i < arguments.count, !arguments[i].hasPrefix("--") else {
                throw UsageError(description: "\(name) needs a value")
            }
            return arguments[i]
        }
        while i < arguments.count {
            var arg = arguments[i]
            var inline: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                inline = String(arg[arg.index(after: eq)...])
                arg = String(arg[..<eq])
            }
            func v() throws(UsageError) -> String { if let inline { return inline }; return try value(arg) }
            func webURL() throws(UsageError) -> String {
                let url = try v()
                guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                    throw UsageError(description: "\(arg) must be an http:// or https:// URL, not \"\(url)\"")
                }
                return url
            }
            func seconds(allowZero: Bool) throws(UsageError) -> Double {
                let text = try v()
                guard let s = Seconds.parse(text), allowZero || s > 0 else {
                    throw UsageError(description: "\(arg) takes seconds (at most \(Int(Seconds.maximum))), not \"\(text)\"")
                }
                return s
            }
            switch arg {
            case "--socket": socket = try v()
            case "--output":
                let text = try v()
                switch text {
                case "pulse": o.output = .pulse(sink: nil)
                case "null": o.output = .null
                case _ where text.hasPrefix("pulse:") && text.count > 6:
                    o.output = .pulse(sink: String(text.dropFirst(6)))
                default:
                    guard text.hasPrefix("wav:"), text.count > 4 else {
                        throw UsageError(description: "--output must be pulse, pulse:SINK, null or wav:PATH, not \"\(text)\"")
                    }
                    o.output = .wav(String(text.dropFirst(4)))
                }
            case "--pace":
                switch try v() {
                case "realtime": o.realtimePace = true
                case "none": o.realtimePace = false
                case let other: throw UsageError(description: "--pace must be realtime or none, not \"\(other)\"")
                }
            case "--api-base": apiBase = try webURL()
            case "--state-dir": stateDir = try v()
            case "--log-level":
                let text = try v()
                guard let level = LogLevel(name: text) else {
                    throw UsageError(description: "--log-level must be error, warning, info or debug, not \"\(text)\"")
                }
                o.logLevel = level
            case "--lastfm-key": o.lastfmKey = try v()
            case "--lastfm-base": o.lastfmBase = try webURL()
            case "--catalog-cache-ttl": o.catalogCacheTTL = try seconds(allowZero: true)
            case "--restore-playing": o.restorePlaying = true
            case "--stream-timeout": o.streamTimeout = try seconds(allowZero: false)
            case "--previous-restart": o.previousRestart = try seconds(allowZero: true)
            case "--max-clients":
                let text = try v()
                guard let n = Int(text), n >= 1, n <= 100_000 else {
                    throw UsageError(description: "--max-clients takes a number from 1 to 100000, not \"\(text)\"")
                }
                o.maxClients = n
            case "--prefetch":
                let text = try v()
                guard let n = Int(text), n >= 0, n <= 16 else {
                    throw UsageError(description: "--prefetch takes a number of songs from 0 to 16, not \"\(text)\"")
                }
                o.prefetch = n
            case "--prefetch-memory":
                let text = try v()
                guard let n = Int(text), n >= 1, n <= 1024 else {
                    throw UsageError(description: "--prefetch-memory takes MiB from 1 to 1024, not \"\(text)\"")
                }
                o.prefetchMemory = n << 20
            case "--on-event":
                let text = try v()
                let hook = Hook(parsing: text)
                guard !hook.command.isEmpty else { throw UsageError(description: "--on-event needs a command") }
                o.hooks.append(hook)
            case "--hook-timeout": o.hookTimeout = try seconds(allowZero: false)
            case "--max-command-list":
                let text = try v()
                guard let n = Int(text), n >= 1, n <= 1 << 20 else {
                    throw UsageError(description: "--max-command-list takes KiB from 1 to 1048576, not \"\(text)\"")
                }
                o.maxCommandListBytes = n << 10
            case "--help", "-h": o.showHelp = true
            case "--version", "-V": o.showVersion = true
            default: throw UsageError(description: "unknown option \"\(arguments[i])\" (see --help)")
            }
            i += 1
        }
        if o.lastfmKey == nil, let key = environment("PREVIEWD_LASTFM_KEY"), !key.isEmpty { o.lastfmKey = key }
        let configHome = environment("XDG_CONFIG_HOME").flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment("HOME") ?? "/tmp") + "/.config"
        o.lastfmKeyFile = configHome + "/previewd/lastfm.key"
        o.socketPath = SocketPath.resolve(explicit: socket, environment: environment, uid: uid)
        o.apiBase = apiBase ?? environment("PREVIEWD_API_BASE").flatMap { $0.isEmpty ? nil : $0 } ?? "https://api.deezer.com"
        if let stateDir {
            o.stateDirectory = stateDir
        } else if let xdg = environment("XDG_STATE_HOME"), !xdg.isEmpty {
            o.stateDirectory = xdg + "/previewd"
        } else {
            o.stateDirectory = (environment("HOME") ?? "/tmp") + "/.local/state/previewd"
        }
        return o
    }
}

/// previewd's version.
public let previewdVersion = "0.1.0"
