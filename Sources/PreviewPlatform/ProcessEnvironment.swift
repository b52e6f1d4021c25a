import Glibc

/// The environment of this process (getenv(3), unsetenv(3), environ).
public enum Environment {
    /// getenv(3): the value of `name`, nil when unset.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// unsetenv(3): children started later do not inherit `name`.
    public static func remove(_ name: String) {
        _ = unsetenv(name)
    }

    /// Every `NAME=value` string of `environ`, in its order.
    public static var all: [String] {
        var out: [String] = []
        var e = environ
        while let entry = e.pointee {
            out.append(String(cString: entry))
            e += 1
        }
        return out
    }
}

/// This process's identity and exit.
public enum ThisProcess {
    /// getpid(2).
    public static var id: Int32 { getpid() }
    /// getuid(2): the real user id.
    public static var userID: UInt32 { getuid() }
    /// geteuid(2): the effective user id, which the kernel checks.
    public static var effectiveUserID: UInt32 { geteuid() }

    /// nanosleep(2) for `seconds` (a signal may end it early).
    public static func sleep(seconds: Double) {
        var t = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        _ = nanosleep(&t, nil)
    }

    /// exit(3) with `status`: atexit handlers run, stdio is flushed.
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}

/// Writes `text` to standard error with write(2), unbuffered, so lines of
/// several threads are not interleaved inside a line; errors are ignored
/// (there is nowhere left to report them).
public func writeStandardError(_ text: String) {
    try? FileDescriptor.standardError.writeAll(Array(text.utf8))
}

/// The clocks (clock_gettime(2)) and calendar formatting (strftime(3)).
/// Not Swift's `Clock`: plain seconds as `Double`, which is what the
/// daemon's timers and time stamps compute with.
public enum SystemClock {
    /// Seconds on CLOCK_MONOTONIC: never jumps, meaningless across boots;
    /// for durations and deadlines.
    public static func monotonicSeconds() -> Double { seconds(CLOCK_MONOTONIC) }

    /// Seconds since the Unix epoch (CLOCK_REALTIME), with the fraction.
    public static func unixSeconds() -> Double { seconds(CLOCK_REALTIME) }

    /// The CLOCK_MONOTONIC time `seconds` from now (at most a day; less
    /// than 0 is now), for timed waits that take an absolute deadline
    /// (pthread_cond_timedwait on a condition set to that clock).
    public static func monotonicDeadline(after seconds: Double) -> timespec {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        // At most a day per wait: callers loop, and the sum stays inside Int.
        let wait = seconds.isNaN ? 0 : min(max(seconds, 0), 86_400)
        let ns = Int(wait * 1e9) + ts.tv_nsec
        ts.tv_sec += ns / 1_000_000_000
        ts.tv_nsec = ns % 1_000_000_000
        return ts
    }

    private static func seconds(_ clock: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// strftime(3) of Unix second `seconds`, in UTC (gmtime_r) or the
    /// local time zone (localtime_r). The result is at most 31 bytes.
    public static func format(_ seconds: Int, _ format: String, utc: Bool) -> String {
        var t = time_t(seconds)
        var parts = tm()
        if utc { gmtime_r(&t, &parts) } else { localtime_r(&t, &parts) }
        var buf = [UInt8](repeating: 0, count: 32)
        let n = buf.withUnsafeMutableBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { strftime($0.baseAddress, $0.count, format, &parts) }
        }
        return String(decoding: buf[..<n], as: UTF8.self)
    }
}
