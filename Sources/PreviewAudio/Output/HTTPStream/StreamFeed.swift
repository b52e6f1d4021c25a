import PreviewCore
import Synchronization

/// One of the HTTP stream's formats, as a listener asks for it by path.
enum StreamKind: CaseIterable, Sendable {
    case mp3, flac

    /// The URL path.
    var path: String { self == .mp3 ? "/stream.mp3" : "/stream.flac" }
    /// The `Content-Type` answered.
    var contentType: String { self == .mp3 ? "audio/mpeg" : "audio/flac" }
    /// The format's bytes a second at most: MP3's CBR rate; for FLAC the
    /// PCM's own (it is never much larger, and most music far smaller).
    var maxBytesPerSecond: Int { self == .mp3 ? MP3Encoder.kilobitsPerSecond * 1000 / 8 : 44100 * 4 }
    /// Makes the format's encoder.
    /// - Throws: `StreamFailure.output` from the encoder's library.
    func makeEncoder() throws(StreamFailure) -> StreamEncoder {
        switch self {
        case .mp3: return try MP3Encoder()
        case .flac: return try FLACEncoder()
        }
    }
}

/// One format's stream: its encoder, which runs only while someone
/// listens, and its listeners, which share it. The encoder is the
/// writing thread's alone; the lists are shared with the connections'
/// threads (a listener joining or leaving) under a lock held only to copy
/// or change them. A joining listener is handed the header and then the
/// frames of the next `feed`: the stream from a frame boundary on.
final class StreamFeed: @unchecked Sendable {
    /// Seconds of encoded audio a listener may fall behind before it is dropped.
    static let bufferSeconds = 4
    let kind: StreamKind
    private let log: @Sendable (String) -> Void
    private let roster = Mutex<(joining: [StreamListener], active: [StreamListener])>(([], []))
    // The writing thread's alone.
    private var encoder: StreamEncoder?
    private var title: String?

    /// - Parameters: kind: the format; log: where an encoder's failure goes.
    init(kind: StreamKind, log: @escaping @Sendable (String) -> Void) {
        self.kind = kind
        self.log = log
    }

    /// Adds a listener (on its connection's thread); it gets audio from the next `feed` on.
    func join(_ listener: StreamListener) {
        roster.withLock { $0.joining.append(listener) }
    }

    /// Whether anyone listens or waits to: the writer converts PCM only then.
    var isWanted: Bool { roster.withLock { !$0.joining.isEmpty || !$0.active.isEmpty } }

    /// Each listener's bytes queued and not yet taken by its connection
    /// (its lag), joining ones first.
    var backlogs: [Int] { roster.withLock { $0.joining + $0.active }.map(\.backlog) }

    /// Encodes `samples` (interleaved 44,100 Hz stereo s16) for the
    /// listeners, starting the encoder for the first and stopping it after
    /// the last. Never waits for a listener.
    func feed(_ samples: UnsafeBufferPointer<Int16>) {
        let joining = roster.withLock { roster in
            defer { roster.joining = [] }
            return roster.joining
        }
        let active = roster.withLock { $0.active }
        guard !joining.isEmpty || !active.isEmpty else {
            encoder = nil
            return
        }
        if encoder == nil {
            do { encoder = try kind.makeEncoder() } catch {
                log("\(kind.path): \(error)")
                for listener in joining + active { listener.end() }
                roster.withLock { $0.active = [] }
                return
            }
        }
        guard let encoder else { return }
        let frames = encoder.encode(samples)
        var welcomed: [StreamListener] = []
        for listener in joining {
            if let title { listener.offerTitle(title) }
            if listener.offer(encoder.header) == .taken { welcomed.append(listener) }
        }
        deliver(frames, to: active + welcomed)
    }

    /// Offers `bytes` to `listeners` and keeps those still there (the rest
    /// left, or were dropped for falling behind).
    private func deliver(_ bytes: [UInt8], to listeners: [StreamListener]) {
        var kept: [StreamListener] = []
        for listener in listeners {
            switch listener.offer(bytes) {
            case .taken: kept.append(listener)
            case .gone: break
            case .dropped: log("\(kind.path): dropped a listener \(StreamFeed.bufferSeconds) s behind")
            }
        }
        let keptIDs = Set(kept.map(ObjectIdentifier.init))
        let offered = Set(listeners.map(ObjectIdentifier.init))
        roster.withLock { roster in
            let stay = roster.active.filter { keptIDs.contains(ObjectIdentifier($0)) || !offered.contains(ObjectIdentifier($0)) }
            roster.active = stay + kept.filter { listener in !stay.contains { $0 === listener } }
        }
    }

    /// The song whose audio is fed next, as `StreamTitle` text.
    func setTitle(_ text: String) {
        title = text
        for listener in roster.withLock({ $0.active }) { listener.offerTitle(text) }
    }

    /// Ends the stream: the encoder's last frames go out, every listener's
    /// response ends once it has taken what is queued, and the encoder stops.
    func end() {
        let (joining, active) = roster.withLock { roster in
            defer { roster = ([], []) }
            return (roster.joining, roster.active)
        }
        if let encoder {
            let last = encoder.finish()
            for listener in active { _ = listener.offer(last) }
        }
        encoder = nil
        for listener in joining + active { listener.end() }
    }

}
