import Glibc
import PreviewCore
import PreviewFetch
import PreviewHTTP
import PreviewTestSupport
import Synchronization
import Testing
@testable import PreviewAudio

/// The engine's hold before the first sample (`Engine+Gate.swift`) on a
/// corpus preview: a loopback libmicrohttpd server (`HTTPServer`) serves
/// it, libcurl reads it into the ring, mpg123 decodes it, and the WAV
/// output keeps what played, compared with mpg123's own decode of the same
/// bytes. (A body changing format mid-way is covered by the integration
/// tests' stand-in; mpg123 does not announce one inside two MP3 files
/// glued together.)
@Suite(.serialized) struct HoldTests {
    /// What the engine reported, in order (its threads append).
    final class Events: Sendable {
        private let list = Mutex<[EngineEvent]>([])
        func add(_ event: EngineEvent) { list.withLock { $0.append(event) } }

        /// The events once one ends the stream (finished or failed), or after 20 s.
        func untilTheEnd() -> [EngineEvent] {
            for _ in 0..<2000 {
                let now = list.withLock { $0 }
                if now.contains(where: { if case .streamFinished = $0 { true } else if case .streamFailed = $0 { true } else { false } }) {
                    return now
                }
                usleep(10_000)
            }
            return list.withLock { $0 }
        }
    }

    /// A fresh directory under /tmp.
    func directory() -> String {
        var template = Array("/tmp/previewd-hold-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    /// The whole PCM mpg123 gives for `bytes`, split at each format change.
    func decoded(_ bytes: [UInt8]) throws -> [(AudioFormat, [UInt8])] {
        let decoder = try Mpg123Decoder()
        let pcm = UnsafeMutableRawBufferPointer.allocate(byteCount: 16384, alignment: 16)
        defer { pcm.deallocate() }
        var parts: [(AudioFormat, [UInt8])] = []
        var fed = false
        while true {
            switch try decoder.decode(into: pcm) {
            case .newFormat(let f): parts.append((f, []))
            case .pcm(let n): parts[parts.count - 1].1 += UnsafeRawBufferPointer(rebasing: pcm[0..<n])
            case .needMore:
                guard !fed else { return parts }
                fed = true
                try bytes.withUnsafeBytes { try decoder.feed($0) }
            }
        }
    }

    /// `pcm` scaled as the engine scales played PCM by `gain` at full volume.
    func scaled(_ pcm: [UInt8], _ gain: ReplayGain) -> [UInt8] {
        var out = pcm
        out.withUnsafeMutableBytes { PCMScale.apply(PCMScale.factor(replayGain: gain.scale, volume: 65536), to: $0) }
        return out
    }

    /// Plays `body`, served over loopback HTTP (a ring stream), with
    /// `plan`, to WAV files in a fresh directory, as fast as it decodes.
    /// - Returns: the events, and each WAV file's PCM (after its 44-byte header).
    func play(_ body: [UInt8], plan: GainPlan, holdLimit: Int? = nil, holdWait: Double? = nil) throws -> ([EngineEvent], [[UInt8]]) {
        let server = try HTTPServer(address: "127.0.0.1", port: 0, headers: []) { _ in
            HTTPResponse(status: 200, headers: [("Content-Type", "audio/mpeg")], body: body)
        }
        let dir = directory()
        defer { rmdir(dir) }
        let engine = Engine(network: CurlNetwork(), outputs: [.wav(dir + "/out.wav")], paced: false)
        if let holdLimit { engine.holdLimit = holdLimit }
        if let holdWait { engine.holdWait = holdWait }
        let events = Events()
        try engine.start { events.add($0) }
        engine.play(
            stream: 7, url: "http://127.0.0.1:\(server.port)/preview.mp3", key: nil, from: 0, until: nil, info: StreamInfo(measure: plan))
        let seen = events.untilTheEnd()
        engine.shutdown()
        var files: [[UInt8]] = []
        for name in ["out.wav", "out-2.wav", "out-3.wav"] {
            guard let bytes = Fixtures.bytes(at: dir + "/" + name) else { break }
            files.append(Array(bytes.dropFirst(44)))
            unlink(dir + "/" + name)
        }
        return (seen, files)
    }

    static let plan = GainPlan(key: "song", mode: .track, random: false, preamp: 0)

    /// Where in `events` the first event `matching` is (Int.max: none).
    func index(_ events: [EngineEvent], _ matching: (EngineEvent) -> Bool) -> Int {
        events.firstIndex(where: matching) ?? .max
    }

    @Test func aHeldSongPlaysWithItsMeasuredGainFromTheFirstSample() throws {
        let (events, files) = try play(Corpus.bytes("preview-01.mp3"), plan: Self.plan)
        let (format, reference) = try #require(try decoded(Corpus.bytes("preview-01.mp3")).first)
        let loudness = try #require(Engine.loudness(of: reference, format: format))
        let measured = index(events) { if case .loudnessMeasured("song", loudness) = $0 { true } else { false } }
        let chosen = index(events) { if case .gainChosen(7, Self.plan.resolve(loudness)) = $0 { true } else { false } }
        let started = index(events) { if case .streamStarted(7, format, _, _) = $0 { true } else { false } }
        #expect(measured < chosen && chosen < started && started < events.count, "\(events)")
        #expect(Self.plan.resolve(loudness).source == .track)
        #expect(
            files.count == 1 && files.first == scaled(reference, Self.plan.resolve(loudness)),
            "every sample, the first one too, has the measured gain")
    }

    @Test func pastTheMemoryBoundTheSongStartsWithTheFallbackAndPlaysOn() throws {
        // 1 MiB holds 6 s of the preview's 30.
        let (events, files) = try play(Corpus.bytes("preview-01.mp3"), plan: Self.plan, holdLimit: 1 << 20)
        #expect(index(events) { if case .loudnessMeasured = $0 { true } else { false } } == .max, "not measured: \(events)")
        let chosen = index(events) { if case .gainChosen(7, .none) = $0 { true } else { false } }
        let started = index(events) { if case .streamStarted = $0 { true } else { false } }
        #expect(chosen < started && started < events.count, "\(events)")
        // Its fallback is no gain: what was held, then the rest, bit for bit.
        var md5 = MD5()
        md5.update(files.first ?? [])
        let (frames, expected) = try #require(Corpus.expected("preview-01.mp3"))
        #expect(files.count == 1 && (files.first?.count ?? 0) == frames * 4 && md5.hexDigest() == expected)
    }

    @Test func pastTheWaitTheSongStartsWithTheFallbackAndIsMeteredAsItPlays() throws {
        // No wait at all: the first sample goes out at once, with no gain.
        let (events, files) = try play(Corpus.bytes("preview-01.mp3"), plan: Self.plan, holdWait: 0)
        let (format, reference) = try #require(try decoded(Corpus.bytes("preview-01.mp3")).first)
        let loudness = try #require(Engine.loudness(of: reference, format: format))
        let chosen = index(events) { if case .gainChosen(7, .none) = $0 { true } else { false } }
        let started = index(events) { if case .streamStarted = $0 { true } else { false } }
        // The decode that played it metered it, from its first frame: the figure of the whole song.
        let measured = index(events) { if case .loudnessMeasured("song", loudness) = $0 { true } else { false } }
        let finished = index(events) { if case .streamFinished = $0 { true } else { false } }
        #expect(chosen < started && started < measured && measured < finished && finished < events.count, "\(events)")
        #expect(files.count == 1 && files.first == reference)
    }
}
