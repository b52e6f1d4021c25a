/// The boundary between the control thread (server) and the audio side:
/// fetching previews, decoding and output. (Catalog requests go through
/// `HTTPClient`, not through the engine.) Declared here so the server and its
/// tests depend only on this protocol; `PreviewAudio` provides the real one.
///
/// Every method returns at once; results arrive later as `EngineEvent`s
/// through the sink given to `start(events:)`, on an engine thread.

/// PCM format after decoding: signed 16-bit native-endian interleaved samples.
public struct AudioFormat: Equatable, Sendable, CustomStringConvertible {
    /// Frames per second.
    public var sampleRate: Int
    /// Samples per frame.
    public var channels: Int
    /// - Parameters: sampleRate in Hz; channels per frame.
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }
    /// Bytes per frame (s16).
    public var bytesPerFrame: Int { 2 * channels }
    /// MPD's `audio:` notation, `rate:bits:channels`.
    public var description: String { "\(sampleRate):16:\(channels)" }
}

/// Identifies one play request; events for older ids are stale.
public typealias StreamID = UInt64

/// Why a stream stopped before its end.
public enum StreamFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server answered with this HTTP status (>= 400).
    case httpStatus(Int)
    /// The server answered 503 with `Retry-After` in this many seconds.
    case unavailable(retryAfter: Int)
    /// The server sent something that is not audio (HTML, text, ...).
    case notAudio(String)
    /// Connection, DNS, TLS, protocol or time-out error.
    case transport(String)
    /// The decoder gave up on the bytes.
    case decode(String)
    /// The output failed (PulseAudio gone, disk full, ...).
    case output(String)
    /// No byte arrived for this many seconds.
    case stalled(seconds: Int)
    /// The body passed the largest size taken, in bytes.
    case tooLarge(bytes: Int)
    /// Bytes came, but so slowly (this many per second) that the decoder
    /// waited for them longer in all than the stream time-out.
    case tooSlow(bytesPerSecond: Int)
    /// A catalog preview played past `StreamInfo.maxSeconds` (this many
    /// seconds): an endless or oversized body, where Deezer's are 30 s.
    case tooLong(seconds: Int)

    /// Whether fetching the rest of the body (maybe from a fresh URL) can
    /// cure it: a broken connection or a refused Range request can heal; a
    /// silent server, an oversized or undecodable body will not.
    public var isResumable: Bool {
        switch self {
        case .transport, .httpStatus, .unavailable: return true
        case .notAudio, .decode, .output, .stalled, .tooLarge, .tooSlow, .tooLong: return false
        }
    }

    public var description: String {
        switch self {
        case .httpStatus(let s): return "HTTP status \(s)"
        case .unavailable(let seconds): return "HTTP status 503 (retry after \(seconds) s)"
        case .notAudio(let why): return "not audio: \(why)"
        case .transport(let why): return "network error: \(why)"
        case .decode(let why): return "decode error: \(why)"
        case .output(let why): return "output error: \(why)"
        case .stalled(let seconds): return "network error: no data for \(seconds) s"
        case .tooLarge(let bytes): return "network error: body larger than \(bytes >> 20) MiB"
        case .tooSlow(let rate): return "network error: too slow (\(rate) bytes/s)"
        case .tooLong(let seconds): return "the preview plays past \(seconds) s (a catalog preview is 30 s); stopped there"
        }
    }
}

/// What the engine reports to the control thread.
public enum EngineEvent: Sendable {
    /// The first frames of the stream were decoded and handed to the output.
    /// `bitrate` is in kbit/s (0 when unknown); `totalFrames` is the decoder's
    /// estimate of the stream's length in PCM frames, when it has one.
    case streamStarted(StreamID, AudioFormat, bitrate: Int, totalFrames: Int?)
    /// The stream ended normally at position `frames` (counted from the
    /// song's beginning, so including any frames skipped by a start offset).
    case streamFinished(StreamID, frames: Int)
    /// The stream began its crossfade into stream `into` (see
    /// `AudioEngine.queueNext`) at position `frames`: from now on `into` is
    /// the one playing, its first frames mixed with this one's last. No
    /// `.streamFinished` follows for this stream.
    case streamFaded(StreamID, frames: Int, into: StreamID)
    /// The stream stopped with an error after `frames` PCM frames.
    case streamFailed(StreamID, StreamFailure, frames: Int)
    /// The download under the stream broke off after `bytes` bytes of the
    /// body (connection closed, time-out, an expired URL refused). The
    /// decoder keeps its place; the stream waits, silent, for
    /// `AudioEngine.resume(stream:url:)` to fetch the rest with an HTTP
    /// Range request, or for a `play`/`stop` that abandons it.
    case streamCut(StreamID, StreamFailure, bytes: Int)
    /// The loudness of the body kept under `key` (see
    /// `AudioEngine.measureLoudness`), or nil when it could not be measured;
    /// also of a stream measured before its first sample (`StreamInfo.measure`,
    /// `key` its plan's), reported before its `.gainChosen`.
    case loudnessMeasured(key: String, Loudness?)
    /// The replay gain a stream with a `StreamInfo.measure` plan got, chosen
    /// before its first sample: from its measurement, or the plan's
    /// fallback when the measurement did not finish within the wait's bound
    /// (`GainPlan.defaultWait`, or `--replay-gain-wait`). Reported before
    /// `.streamStarted`.
    case gainChosen(StreamID, ReplayGain)
    /// The output device went away (`lost` says why) or came back (nil).
    /// While lost, the stream holds its place and the engine reconnects by
    /// itself with back-off.
    case outputChanged(lost: String?)
    /// An output that follows (fed on its own thread while another sets
    /// the pace: a pipe, a stream) failed, with why (its PCM is dropped
    /// until a write works again), or works again (nil). `output` is its
    /// index in the engine's outputs.
    case followerChanged(output: Int, failed: String?)
}

/// What a stream is, for the sound server's stream properties (the name a
/// volume applet shows), and the scale its PCM gets, given with each `play`.
public struct StreamInfo: Equatable, Sendable {
    /// The song's artist and title, when known.
    public var artist: String?
    public var title: String?
    /// The replay gain as a linear scale on the PCM (1: bit-exact), applied
    /// before every output, to every frame of the stream.
    public var gain: Double
    /// When set, `gain` is not used: the engine holds the first sample until
    /// the song is decoded whole and measured (within a bound), and applies
    /// the gain the plan gives for that measurement.
    public var measure: GainPlan?
    /// A direct stream URL, whose body may never end (a radio): a download
    /// kept under the request's key is played only once it is whole (a
    /// crossfade's prefetch), else the stream goes through the ring.
    public var mayBeEndless: Bool
    /// Seconds of audio past which the stream fails (`tooLong`), counted
    /// from the song's start; nil: no bound (a direct URL, a radio).
    public var maxSeconds: Double?
    /// - Parameters: as the properties.
    public init(
        artist: String? = nil, title: String? = nil, gain: Double = 1, measure: GainPlan? = nil,
        mayBeEndless: Bool = false, maxSeconds: Double? = nil
    ) {
        self.artist = artist
        self.title = title
        self.gain = gain
        self.measure = measure
        self.mayBeEndless = mayBeEndless
        self.maxSeconds = maxSeconds
    }
    /// "Artist – Title" (PulseAudio's `media.name`), the title alone, or nil.
    public var mediaName: String? {
        switch (artist, title) {
        case let (a?, t?) where !a.isEmpty && !t.isEmpty: return "\(a) – \(t)"
        case let (_, t?) where !t.isEmpty: return t
        case let (a?, _) where !a.isEmpty: return a
        default: return nil
        }
    }
}

/// A stream to crossfade into (`AudioEngine.queueNext`): as `play`'s
/// arguments, its body kept under `key`.
public struct NextStream: Equatable, Sendable {
    public var id: StreamID
    public var url: String
    public var key: String
    /// Start and end points in seconds from the song's start (`end` nil: to its end).
    public var start: Double
    public var end: Double?
    public var info: StreamInfo
    /// - Parameters: as the properties.
    public init(id: StreamID, url: String, key: String, start: Double = 0, end: Double? = nil, info: StreamInfo) {
        self.id = id
        self.url = url
        self.key = key
        self.start = start
        self.end = end
        self.info = info
    }
}

/// One preview to download ahead of play. `key` names the media across URL
/// refreshes (the song's URI); `url` is where to fetch it now.
public struct MediaItem: Equatable, Sendable {
    public var key: String
    public var url: String
    /// - Parameters: as the properties.
    public init(key: String, url: String) {
        self.key = key
        self.url = url
    }
}

/// Where the output stands: which stream and how many of its frames have
/// been played (counted from the song's start, skipped ones included).
public struct PlaybackPosition: Equatable, Sendable {
    public var stream: StreamID
    public var frames: Int
    public var format: AudioFormat?
    public var bitrate: Int
    /// Frames of the stream before this one that the output still has to
    /// play before this one is heard (a sound server's buffer holding the
    /// previous song's end); `frames` stays 0 meanwhile.
    public var framesBeforeStart = 0
    /// - Parameters: as the properties.
    public init(stream: StreamID, frames: Int, format: AudioFormat?, bitrate: Int) {
        self.stream = stream
        self.frames = frames
        self.format = format
        self.bitrate = bitrate
    }
    /// Seconds played.
    public var seconds: Double {
        guard let format, format.sampleRate > 0 else { return 0 }
        return Double(frames) / Double(format.sampleRate)
    }
}

/// The audio engine as the control thread sees it.
public protocol AudioEngine: AnyObject, Sendable {
    /// Starts the engine's threads; `events` is called on them.
    /// - Throws: `EngineError` when the output cannot be opened.
    func start(events: @escaping @Sendable (EngineEvent) -> Void) throws
    /// Stops what plays and starts streaming `url` as stream `id`, from
    /// `start` seconds into the decoded audio (earlier frames are decoded and
    /// dropped, so the cut is sample-exact) and, when `end` is given, ending
    /// the stream there. Positions reported for the stream count from the
    /// song's beginning, not from `start`.
    ///
    /// With a `key`, the body is kept whole in memory under that key (see
    /// `prefetch`), so a download already made or under way is used and a
    /// later seek or restart needs no network; without one, the body flows
    /// through a small bounded buffer (endless or unknown streams). `info`
    /// names the stream at the output.
    func play(stream id: StreamID, url: String, key: String?, from start: Double, until end: Double?, info: StreamInfo)
    /// Downloads `items` into memory, most wanted first, so that playing
    /// them starts without a network wait. Replaces the previous list: kept
    /// downloads not named here are dropped, except the one playing. Total
    /// memory stays within the engine's prefetch budget (bytes); an item
    /// that would pass it is not downloaded.
    func prefetch(_ items: [MediaItem])
    /// Measures the EBU R128 loudness of the body kept under `key` (a
    /// `prefetch` or keyed `play`) once it is whole, on a thread of its
    /// own, and reports `.loudnessMeasured`. A body already dropped, or
    /// never whole, is not measured.
    func measureLoudness(_ key: String)
    /// Names the stream to fade into over the last `seconds` of the playing
    /// one (MPD's `crossfade`), replacing any named before; nil or 0
    /// seconds: none. The fade happens only where both bodies are whole in
    /// memory (`key`ed and downloaded), the playing stream's length is
    /// known and both decode to the same format; it is announced with
    /// `.streamFaded`. Otherwise the playing stream ends as usual and the
    /// caller plays the next one. `play` and `stop` forget it.
    func queueNext(_ next: NextStream?, crossfade seconds: Double)
    /// Continues stream `id` after `.streamCut`, fetching the rest of the
    /// body from `url` (the same media, maybe a fresh signed URL) with an
    /// HTTP Range request starting at the first byte not yet received.
    func resume(stream id: StreamID, url: String)
    /// Pauses (true) or resumes (false) the output.
    func setPaused(_ paused: Bool)
    /// Stops and discards buffered audio.
    func stop()
    /// Drops what the output still holds of a stream that already ended
    /// (`.streamFinished`: up to a sound server's buffer, a second), so a
    /// command taken before that end is heard (`stop`, `previous`, a seek)
    /// is heard at once instead of after it.
    func dropBuffered()
    /// Which of the configured outputs play (`enabled[i]`: output `i`, in
    /// the order the engine was given them). The first enabled device
    /// (`OutputKind.isDevice`) sets the pace; the others each take the same
    /// PCM on a thread of their own, never delaying it; with no device
    /// enabled a clock sets the pace and playback goes on. A device turned
    /// off is let go. Takes effect at the next samples written; none are
    /// lost or repeated on the output that sets the pace.
    func setOutputs(enabled: [Bool])
    /// Where output `index` can be listened to, for an output that serves
    /// listeners (an HTTP stream: `http://127.0.0.1:8000/`, its port the one
    /// bound when 0 was asked for); nil for the others, and before `start`.
    func listeningAddress(ofOutput index: Int) -> String?
    /// Output volume, 0...100 percent.
    func setVolume(_ percent: Int)
    /// The current stream's position, or nil when nothing has played.
    func position() -> PlaybackPosition?
    /// Ends all threads and closes the output (finishing a WAV file). Idempotent.
    func shutdown()
}

extension AudioEngine {
    /// No output of this engine serves listeners.
    public func listeningAddress(ofOutput index: Int) -> String? { nil }

    /// Plays `url` from its beginning to its end.
    public func play(stream id: StreamID, url: String) { play(stream: id, url: url, key: nil, from: 0, until: nil, info: StreamInfo()) }
}

/// A failure to set the engine up.
public struct EngineError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for the log and stderr.
    public var message: String
    /// - Parameter message: what went wrong.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
