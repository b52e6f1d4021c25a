import PreviewCore

/// The engine interface, recorded: tests see what the server asked for and
/// inject the events a real engine would send.
package final class FakeEngine: AudioEngine, @unchecked Sendable {
    package init() {}

    package enum Call: Equatable {
        case play(StreamID, String)
        case paused(Bool)
        case stop
        case dropBuffered
        case volume(Int)
        case range(Double, Double?)
    }
    package var calls: [Call] = []
    package var positionValue: PlaybackPosition?
    /// Events the harness hands to the controller after each request, as
    /// the server's loop would; `play` queues a start unless `autoStart` is off.
    package var events: [EngineEvent] = []
    package var autoStart = true

    package func start(events: @escaping @Sendable (EngineEvent) -> Void) throws {}
    package func play(stream id: StreamID, url: String, key: String?, from start: Double, until end: Double?, info: StreamInfo) {
        calls.append(.play(id, url))
        infos.append(info)
        if autoStart { events.append(.streamStarted(id, AudioFormat(sampleRate: 44100, channels: 2), bitrate: 128, totalFrames: nil)) }
        if start != 0 || end != nil { calls.append(.range(start, end)) }
    }
    /// Each `prefetch` list, as keys.
    package var prefetches: [[String]] = []
    /// Each `resume`, in order.
    package var resumes: [(StreamID, String)] = []
    package func prefetch(_ items: [MediaItem]) { prefetches.append(items.map(\.key)) }
    /// Each `measureLoudness` key, in order.
    package var measured: [String] = []
    package func measureLoudness(_ key: String) { measured.append(key) }
    /// The `info` of each `play`, in order.
    package var infos: [StreamInfo] = []
    package func resume(stream id: StreamID, url: String) { resumes.append((id, url)) }
    package func setPaused(_ paused: Bool) { calls.append(.paused(paused)) }
    /// Each `setOutputs` argument, in order.
    package var outputSelections: [[Bool]] = []
    package func setOutputs(enabled: [Bool]) { outputSelections.append(enabled) }
    package func stop() { calls.append(.stop) }
    package func dropBuffered() { calls.append(.dropBuffered) }
    /// Each `queueNext`, in order: the stream (nil: none) and the overlap.
    package var queuedNext: [(NextStream?, Double)] = []
    package func queueNext(_ next: NextStream?, crossfade seconds: Double) { queuedNext.append((next, seconds)) }
    package func setVolume(_ percent: Int) { calls.append(.volume(percent)) }
    package func position() -> PlaybackPosition? { positionValue }
    package func shutdown() {}

    /// The last `play` call.
    package var lastPlay: (StreamID, String)? {
        for call in calls.reversed() { if case .play(let id, let url) = call { return (id, url) } }
        return nil
    }
}
