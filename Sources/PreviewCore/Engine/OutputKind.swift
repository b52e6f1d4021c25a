/// Which output the engine plays to (`--output`).
public enum OutputKind: Equatable, Sendable {
    /// PulseAudio through the asynchronous API, to this sink (nil: the
    /// server's default, followed when it changes).
    case pulse(sink: String?)
    /// Discard the PCM (paced to real time unless told otherwise).
    case null
    /// Write the PCM to WAV files starting at this path.
    case wav(String)

    /// The `--output` value that names it: `pulse`, `pulse:SINK`, `null`, `wav:PATH`.
    public var setting: String {
        switch self {
        case .pulse(let sink?): return "pulse:\(sink)"
        case .pulse(nil): return "pulse"
        case .null: return "null"
        case .wav(let path): return "wav:\(path)"
        }
    }

    /// The output's plugin name, as `outputs` lists it: `pulse`, `null` or `wav`.
    public var name: String {
        switch self {
        case .pulse: return "pulse"
        case .null: return "null"
        case .wav: return "wav"
        }
    }
}
