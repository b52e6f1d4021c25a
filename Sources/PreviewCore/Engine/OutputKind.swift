/// One output the engine plays to (`--output`, repeatable).
public enum OutputKind: Equatable, Sendable {
    /// PulseAudio through the asynchronous API, to this sink (nil: the
    /// server's default, followed when it changes).
    case pulse(sink: String?)
    /// Discard the PCM (paced to real time unless told otherwise).
    case null
    /// Write the PCM to WAV files starting at this path.
    case wav(String)
    /// Raw PCM (s16le, 44,100 Hz, stereo) into a named pipe at this path,
    /// made when missing: what snapserver's `pipe` source reads.
    case fifo(String)
    /// An HTTP stream server (MP3 and FLAC) on this IPv4 address and port.
    case http(host: String, port: Int)

    /// The `--output` value that names it: `pulse`, `pulse:SINK`, `null`,
    /// `wav:PATH`, `fifo:PATH`, `http:HOST:PORT`.
    public var setting: String {
        switch self {
        case .pulse(let sink?): return "pulse:\(sink)"
        case .pulse(nil): return "pulse"
        case .null: return "null"
        case .wav(let path): return "wav:\(path)"
        case .fifo(let path): return "fifo:\(path)"
        case .http(let host, let port): return "http:\(host):\(port)"
        }
    }

    /// The output's plugin name, as `outputs` lists it (mpd's names where
    /// mpd has the plugin): `pulse`, `null`, `wav`, `fifo`, `httpd`.
    public var name: String {
        switch self {
        case .pulse: return "pulse"
        case .null: return "null"
        case .wav: return "wav"
        case .fifo: return "fifo"
        case .http: return "httpd"
        }
    }

    /// Whether it plays at a device's pace, so that it may set the pace of
    /// playback (PulseAudio, and null and WAV, paced or not). A pipe or a
    /// stream never does: it takes what comes, or drops it.
    public var isDevice: Bool {
        switch self {
        case .pulse, .null, .wav: return true
        case .fifo, .http: return false
        }
    }

    /// The outputs the engine runs and `outputs` lists for `configured`,
    /// with whether each starts enabled: those configured, all on, and
    /// beside PulseAudio alone a null output, off, which keeps the pace
    /// once PulseAudio is turned off (as before there were several).
    public static func listed(_ configured: [OutputKind]) -> [(kind: OutputKind, enabled: Bool)] {
        var listed = configured.map { (kind: $0, enabled: true) }
        if configured.count == 1, case .pulse = configured[0] { listed.append((.null, false)) }
        return listed
    }

    /// The outputs' names as `outputs` lists them: each its plugin's name,
    /// and a second of one plugin `NAME 2`, and so on, so that every name is
    /// one output (mpd's outputs are named in its settings; ours are not).
    public static func names(of outputs: [OutputKind]) -> [String] {
        var seen: [String: Int] = [:]
        return outputs.map { kind in
            let n = (seen[kind.name] ?? 0) + 1
            seen[kind.name] = n
            return n == 1 ? kind.name : "\(kind.name) \(n)"
        }
    }
}
