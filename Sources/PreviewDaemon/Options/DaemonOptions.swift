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
    /// `--replay-gain-wait S`: most seconds a song not measured yet holds
    /// its first sample for its measurement (0 to 60). A slow link or a
    /// test on a loaded machine lengthens it; 0 starts every song at once,
    /// measured as it plays.
    public var replayGainWait = GainPlan.defaultWait
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
    /// `--completions SHELL`: print that shell's completion script and exit 0.
    public var completionShell: String?
    /// Where each setting given came from, by key (`prefetch`): `FILE:LINE`
    /// or `command line`; settings not named are defaults or the environment's.
    public var sources: [String: String] = [:]

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
    public static func parse(
        _ arguments: [String], environment: (String) -> String?, uid: UInt32,
        config: (path: String, text: String)? = nil
    ) throws(UsageError) -> DaemonOptions {
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
            throw UsageError(
                description: "--output http:\(host):\(port): beyond loopback (127.x.x.x) a stream needs a password: "
                    + "--stream-password-file FILE")
        }
        return o
    }

    /// Applies one option (its declaration's `take`), reading its value
    /// from `words`.
    /// - Throws: `UsageError` naming the bad option or value, or an
    ///   unknown option (with a close match).
    private mutating func take(_ option: OptionWords.Option, from words: inout OptionWords, paths: inout GivenPaths) throws(UsageError) {
        guard let declared = DaemonOptions.declaration(named: option.name) else {
            let known = DaemonOptions.declared.map { "--" + $0.name }
            let hint = ClosestMatch.closest(to: option.name, among: known).map { "; did you mean \"\($0)\"?" } ?? ""
            throw UsageError(description: "unknown option \"\(UsageError.shown(option.word))\"\(hint) (see --help)")
        }
        try declared.take(&self, &words, option, &paths)
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
        let configHome =
            environment("XDG_CONFIG_HOME").flatMap { $0.isEmpty ? nil : $0 }
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
