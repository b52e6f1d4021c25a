/// Why something changed, as the `events` stream and `--on-event` hooks
/// report it.
public enum EventReason: String, Sendable, CaseIterable {
    /// A client's command.
    case user
    /// A song played to its end and the next one began, or the queue ended.
    case eof
    /// A song failed and was skipped; the record's `error` says why.
    case error
    /// A preview URL expired or was refused and was resolved again.
    case urlRefreshed = "url-refreshed"
    /// The sound server went away; playback holds its place.
    case outputLost = "output-lost"
    /// The sound server is back; playback goes on.
    case outputBack = "output-back"
    /// A song's stream told what the catalog did not (its duration).
    case metadata
    /// The periodic progress record asked for with `events INTERVAL`.
    case tick
    /// The first record after `events`: the state as it is.
    case subscribed
    /// Autoplay added a song, or stopped for a while (the record's `error` says why).
    case autoplay
}

/// One record of the `events` stream, a previewd extension to the MPD
/// protocol: `event:` (the MPD subsystem that changed, or `tick`),
/// `reason:`, then what a status bar shows. The same record reaches
/// `--on-event` hooks as environment variables and as `key=value` lines.
public struct PlayerEvent: Equatable, Sendable {
    /// One `key: value` field.
    public struct Field: Equatable, Sendable {
        public var key: String
        public var value: String
        /// - Parameters: as the properties.
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// The subsystem name (`player`, `mixer`, `options`, `playlist`,
    /// `output`) or `tick`.
    public var name: String
    public var reason: EventReason
    /// The state after the change: `state` (play, pause, stop), and when
    /// there is a current song `position` (1-based) and `songid`; always
    /// `length` (songs queued) and `volume`; then `file`, `title`, `artist`,
    /// `album`, `elapsed` and `duration` (seconds, 3 decimals) as known,
    /// `autoplay: 1` while autoplay is on, and `error` while there is one.
    public var fields: [Field]

    /// - Parameters: as the properties.
    public init(name: String, reason: EventReason, fields: [Field]) {
        self.name = name
        self.reason = reason
        self.fields = fields
    }

    /// The record as protocol lines (without the closing `OK`).
    public var protocolLines: String {
        var out = "event: \(name)\nreason: \(reason.rawValue)\n"
        for f in fields { out += "\(f.key): \(Self.oneLine(f.value))\n" }
        return out
    }

    /// The record as `key=value` lines, for a hook's standard input.
    public var keyValueLines: String {
        var out = "event=\(name)\nreason=\(reason.rawValue)\n"
        for f in fields { out += "\(f.key)=\(Self.oneLine(f.value))\n" }
        return out
    }

    /// The record as `PREVIEWD_EVENT=...`, `PREVIEWD_REASON=...`,
    /// `PREVIEWD_TITLE=...` environment entries.
    /// Each value is cut to `maxEnvironmentValueBytes` (where a Unicode
    /// scalar ends): one string past 128 KiB makes execve(2) fail with E2BIG,
    /// and a hook would not start at all. `PREVIEWD_TRUNCATED` then lists
    /// the keys cut (`TITLE,ALBUM`); their whole values are on stdin.
    public var environment: [String] {
        var cut: [String] = []
        let entries = fields.map { field -> String in
            let key = field.key.uppercased()
            var value = Self.oneLine(field.value)
            if value.utf8.count > Self.maxEnvironmentValueBytes {
                value = Self.prefix(value, bytes: Self.maxEnvironmentValueBytes)
                cut.append(key)
            }
            return "PREVIEWD_\(key)=\(value)"
        }
        return ["PREVIEWD_EVENT=\(name)", "PREVIEWD_REASON=\(reason.rawValue)"] + entries
            + (cut.isEmpty ? [] : ["PREVIEWD_TRUNCATED=" + cut.joined(separator: ",")])
    }

    /// The longest value an environment variable of a record carries, in
    /// bytes of UTF-8.
    public static let maxEnvironmentValueBytes = 4096

    /// The longest prefix of `text` within `bytes` bytes of UTF-8 that ends
    /// where a Unicode scalar does (never inside one's bytes).
    static func prefix(_ text: String, bytes: Int) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.count > bytes else { return text }
        var end = bytes
        // Back off continuation bytes (10xxxxxx) to the start of a scalar.
        while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }

    /// Values never break the line framing.
    private static func oneLine(_ value: String) -> String { CatalogText.oneLine(value) }

    /// The subsystems that produce records (client messages and stored
    /// playlists do not: a status bar shows neither).
    public static let subsystems: Subsystems = [.player, .mixer, .options, .playlist, .output]

    /// Names `--on-event` filters may use.
    public static let names = ["player", "mixer", "options", "playlist", "output", "tick"]
}
