/// Log severity, most severe first.
public enum LogLevel: Int, Comparable, Sendable {
    case error = 0, warning, info, debug

    /// Parses `error|warning|info|debug`.
    public init?(name: String) {
        switch name {
        case "error": self = .error
        case "warning", "warn": self = .warning
        case "info": self = .info
        case "debug": self = .debug
        default: return nil
        }
    }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// One line per event on stderr. Under systemd (`JOURNAL_STREAM` set) the
/// journal adds its own timestamps, so none are written.
public struct Log: Sendable {
    /// Lines above this level are dropped.
    public var level: LogLevel
    private let timestamps: Bool

    /// - Parameter level: the most verbose level written.
    public init(level: LogLevel) {
        self.level = level
        timestamps = Environment.value("JOURNAL_STREAM") == nil
    }

    /// Writes `message` at `lineLevel`.
    public func write(_ lineLevel: LogLevel, _ message: String) {
        guard lineLevel <= level else { return }
        var line = ""
        if timestamps {
            line += SystemClock.format(Int(SystemClock.unixSeconds()), "%Y-%m-%d %H:%M:%S ", utc: false)
        }
        line += "\(lineLevel): \(Log.redacted(message))\n"
        writeStandardError(line)
    }

    /// `message` with the value of every `api_key=` parameter shown as `…`:
    /// request URLs are logged at debug level, and a log is often pasted
    /// into a bug report.
    public static func redacted(_ message: String) -> String {
        guard message.contains("api_key=") else { return message }
        var out = ""
        var rest = message[...]
        while let found = rest.firstRange(of: "api_key=") {
            out += rest[..<found.upperBound] + "…"
            rest = rest[found.upperBound...].drop(while: { !($0 == "&" || $0 == " " || $0 == "\"" || $0 == "'" || $0 == "\n") })
        }
        return out + rest
    }

    public func error(_ m: String) { write(.error, m) }
    public func warning(_ m: String) { write(.warning, m) }
    public func info(_ m: String) { write(.info, m) }
    public func debug(_ m: String) { write(.debug, m) }
}

/// Writes `line` and a newline to stderr (fd 2) unbuffered.
public func writeStderr(_ line: String) {
    writeStandardError(line + "\n")
}
