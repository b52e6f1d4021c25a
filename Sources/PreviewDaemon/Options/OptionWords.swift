import PreviewCore
import PreviewDesktop
import PreviewPlatform

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
            throw UsageError(
                description: "\(option.name) takes seconds (at most \(Int(Seconds.maximum))), not \"\(UsageError.shown(text))\"")
        }
        return s
    }

    /// Seconds from 0 to `limit` (a bound on a wait), fractions allowed.
    mutating func seconds(_ option: Option, upTo limit: Double) throws(UsageError) -> Double {
        let text = try value(of: option)
        guard let s = Seconds.parse(text), s <= limit else {
            throw UsageError(description: "\(option.name) takes seconds from 0 to \(Int(limit)), not \"\(UsageError.shown(text))\"")
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
            throw UsageError(
                description:
                    "\(option.name) takes \(unit) from \(range.lowerBound) to \(range.upperBound), not \"\(UsageError.shown(text))\"")
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
            throw UsageError(
                description: "--output must be pulse, pulse:SINK, null, wav:PATH, fifo:PATH or http:HOST:PORT, "
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
            let port = Int(parts[1]), (0...65535).contains(port)
        else {
            throw UsageError(
                description: "--output http: takes HOST:PORT, an IPv4 address and a port, as http:127.0.0.1:8000, "
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
