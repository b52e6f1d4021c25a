import Glibc

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
        timestamps = getenv("JOURNAL_STREAM") == nil
    }

    /// Writes `message` at `lineLevel`.
    public func write(_ lineLevel: LogLevel, _ message: String) {
        guard lineLevel <= level else { return }
        var line = ""
        if timestamps {
            var now = time(nil)
            var parts = tm()
            localtime_r(&now, &parts)
            var buf = [CChar](repeating: 0, count: 32)
            strftime(&buf, buf.count, "%Y-%m-%d %H:%M:%S ", &parts)
            line += String(cString: buf)
        }
        line += "\(lineLevel): \(message)\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }

    public func error(_ m: String) { write(.error, m) }
    public func warning(_ m: String) { write(.warning, m) }
    public func info(_ m: String) { write(.info, m) }
    public func debug(_ m: String) { write(.debug, m) }
}

/// Seconds since the Unix epoch (clock_gettime(CLOCK_REALTIME)).
func unixTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Seconds on the monotonic clock.
func monotonicTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Writes `line` and a newline to stderr (fd 2) unbuffered.
public func writeStderr(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
}

/// Unix seconds as ISO 8601 UTC (`2026-11-30T04:00:00Z`), as MPD's `Last-Modified`.
func isoTime(_ seconds: Int) -> String {
    var t = time_t(seconds)
    var parts = tm()
    gmtime_r(&t, &parts)
    var buf = [CChar](repeating: 0, count: 32)
    strftime(&buf, buf.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
    return String(cString: buf)
}
