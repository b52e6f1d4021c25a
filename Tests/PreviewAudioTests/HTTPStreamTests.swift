import Glibc
import PreviewCore
import PreviewPlatform
import Synchronization
import Testing
@testable import PreviewAudio

/// A corpus file decoded whole by the project's decoder.
func decodedPCM(_ name: String) throws -> (AudioFormat, [UInt8]) { try decodedStream(Corpus.bytes(name)) }

/// MP3 bytes decoded whole by libmpg123 (the project's decoder).
func decodedStream(_ bytes: [UInt8]) throws -> (AudioFormat, [UInt8]) {
    let decoder = try Mpg123Decoder()
    try bytes.withUnsafeBytes { try decoder.feed($0) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16384, alignment: 16)
    defer { buffer.deallocate() }
    var format: AudioFormat?
    var pcm: [UInt8] = []
    while true {
        switch try decoder.decode(into: buffer) {
        case .newFormat(let f): format = f
        case .pcm(let n): pcm += buffer[0..<n]
        case .needMore: return (try #require(format), pcm)
        }
    }
}

func md5(_ bytes: [UInt8]) -> String {
    var digest = MD5()
    digest.update(bytes)
    return digest.hexDigest()
}

/// A listener on a real socket: sends its request at once and reads on a
/// thread of its own until the server closes (or never reads at all).
final class TestListener: @unchecked Sendable {
    let fd: Int32
    private let received = Mutex<[UInt8]>([])
    /// When each read ended, with the bytes received by then.
    private let arrivals = Mutex<[(time: Double, total: Int)]>([])
    private let done = Atomic<Bool>(false)
    private var thread: pthread_t?

    /// - Parameters: receiveBuffer: SO_RCVBUF before connecting; reads: false for one that never reads.
    init(port: Int, path: String, headers: [String] = [], receiveBuffer: Int32? = nil, reads: Bool = true) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        let request = (["GET \(path) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"] + headers).joined(separator: "\r\n") + "\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        guard reads else { return }
        thread = startThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { break }
                let total = received.withLock {
                    $0 += chunk[0..<n]; return $0.count
                }
                arrivals.withLock { $0.append((SystemClock.monotonicSeconds(), total)) }
            }
            done.store(true, ordering: .releasing)
        }
    }

    deinit { Glibc.close(fd) }

    var count: Int { received.withLock { $0.count } }

    /// When the first byte past the answer's head arrived (monotonic seconds).
    var firstBodyByte: Double? {
        let bytes = received.withLock { $0 }
        let head = (0..<max(0, bytes.count - 3)).first { bytes[$0..<$0 + 4].elementsEqual("\r\n\r\n".utf8) } ?? bytes.count
        return arrivals.withLock { $0.first { $0.total > head + 4 }?.time }
    }

    /// Waits (at most `timeout` s) for the server to close, then gives the
    /// answer: status, headers (names in lower case), body (dechunked).
    func finish(timeout: Double = 20) -> (status: Int, headers: [String: String], body: [UInt8]) {
        let deadline = SystemClock.monotonicSeconds() + timeout
        while !done.load(ordering: .acquiring), SystemClock.monotonicSeconds() < deadline { usleep(2000) }
        if !done.load(ordering: .acquiring) { shutdown(fd, Int32(SHUT_RDWR)) }
        if let thread { pthread_join(thread, nil) }
        thread = nil
        return HTTPAnswer.parse(received.withLock { $0 })
    }
}

/// HTTP/1.1 answers as the test listeners read them.
enum HTTPAnswer {
    static func parse(_ bytes: [UInt8]) -> (status: Int, headers: [String: String], body: [UInt8]) {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else { return (0, [:], []) }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: " ")
        }
        let body = Array(bytes[(end + 4)...])
        return (status, headers, headers["transfer-encoding"] == "chunked" ? dechunk(body) : body)
    }

    static func dechunk(_ body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < body.count {
            var j = i
            while j + 1 < body.count, !(body[j] == 13 && body[j + 1] == 10) { j += 1 }
            let sizeText = String(decoding: body[i..<j], as: UTF8.self).split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(sizeText, radix: 16), size > 0, j + 2 + size <= body.count else { break }
            out += body[(j + 2)..<(j + 2 + size)]
            i = j + 2 + size + 2
        }
        return out
    }
}

extension String {
    func components(separatedBy separator: String) -> [String] {
        var parts: [String] = []
        var rest = Substring(self)
        while let range = rest.firstRange(of: separator) {
            parts.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        return parts + [String(rest)]
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

/// User and system CPU time of this process so far (getrusage), all threads.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Runs `path` with `arguments` and waits; true when it exited 0.
func run(_ path: String, _ arguments: [String]) throws -> Bool {
    let child = try Subprocess.spawn(path, arguments: [path] + arguments, environment: ["PATH=/usr/bin:/bin"])
    return try child.wait() == .exited(0)
}

/// `bytes` decoded by the `flac` tool to raw s16 LE.
func flacDecoded(_ bytes: [UInt8]) throws -> [UInt8] {
    let base = "/tmp/previewd-httpstream-\(getpid())-\(UInt32.random(in: 0 ... .max))"
    defer { unlink(base + ".flac"); unlink(base + ".raw") }
    try AtomicFile.write(bytes, to: base + ".flac")
    #expect(
        try run(
            "/usr/bin/flac",
            [
                "-d", "-s", "-f", "--force-raw-format", "--endian=little", "--sign=signed",
                "-o", base + ".raw", base + ".flac",
            ]))
    return try AtomicFile.read(base + ".raw") ?? []
}

/// Writes `pcm` in the engine's 4,096-frame pieces, waiting (boundedly)
/// while the least-behind listener lags, so a fast test never drops one.
func play(_ pcm: [UInt8], format: AudioFormat, to output: HTTPStreamOutput) throws {
    try output.configure(format)
    let piece = 4096 * format.bytesPerFrame
    var offset = 0
    while offset < pcm.count {
        let end = min(offset + piece, pcm.count)
        _ = try pcm[offset..<end].withUnsafeBytes { try output.write($0, interrupted: { false }) }
        offset = end
        let deadline = SystemClock.monotonicSeconds() + 5
        while (output.backlogs().min() ?? 0) > 128 * 1024, SystemClock.monotonicSeconds() < deadline { usleep(500) }
    }
}

/// Waits (at most 5 s) until `output` has `count` listeners.
func waitForListeners(_ output: HTTPStreamOutput, _ count: Int) {
    let deadline = SystemClock.monotonicSeconds() + 5
    while output.backlogs().count < count, SystemClock.monotonicSeconds() < deadline { usleep(1000) }
}

final class LogLines: Sendable {
    let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

@Suite(.serialized) struct HTTPStreamTests {
    @Test func flacListenerGetsTwoPreviewsBitExactAndGapless() throws {
        let (format1, pcm1) = try decodedPCM("preview-01.mp3")
        let (format2, pcm2) = try decodedPCM("preview-02.mp3")
        #expect(md5(pcm1) == Corpus.expected("preview-01.mp3")?.1)
        #expect(md5(pcm2) == Corpus.expected("preview-02.mp3")?.1)
        let output = try HTTPStreamOutput(host: "127.0.0.1", port: 0, log: { _ in })
        let listener = try TestListener(port: output.port, path: "/stream.flac")
        waitForListeners(output, 1)
        try play(pcm1, format: format1, to: output)
        output.trackEnded()
        try play(pcm2, format: format2, to: output)
        output.stopped()
        let answer = listener.finish()
        output.close()
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "audio/flac")
        #expect(Array(answer.body.prefix(4)) == Array("fLaC".utf8))
        let decoded = try flacDecoded(answer.body)
        #expect(decoded.count == pcm1.count + pcm2.count)
        #expect(md5(decoded) == md5(pcm1 + pcm2))
    }

    @Test func mp3ListenerGetsWhatMpg123DecodesToAboutAsManyFrames() throws {
        let (format, pcm) = try decodedPCM("preview-03.mp3")
        let output = try HTTPStreamOutput(host: "127.0.0.1", port: 0, log: { _ in })
        let listener = try TestListener(port: output.port, path: "/stream.mp3")
        waitForListeners(output, 1)
        let start = SystemClock.monotonicSeconds()
        let cpuBefore = processCPUSeconds()
        try play(pcm, format: format, to: output)
        let seconds = SystemClock.monotonicSeconds() - start
        let cpu = processCPUSeconds() - cpuBefore
        output.stopped()
        let answer = listener.finish()
        output.close()
        #expect(answer.headers["content-type"] == "audio/mpeg")
        let (streamFormat, decoded) = try decodedStream(answer.body)
        #expect(streamFormat == AudioFormat(sampleRate: 44100, channels: 2))
        let frames = pcm.count / 4, got = decoded.count / 4
        // LAME's delay (1,105 frames) and the last frame's padding.
        #expect(got >= frames && got <= frames + 2 * 1152 + 1105, "\(got) frames for \(frames)")
        let firstByte = try #require(listener.firstBodyByte) - start
        #expect(firstByte < 1)
        print(
            "HTTP stream: one MP3 listener: \(Double(frames) / 44100) s of audio written in \(seconds) s, "
                + "\(Int(cpu / (Double(frames) / 44100) * 1e6)) µs of CPU a second of audio (debug build); "
                + "first byte at the listener \(Int(firstByte * 1e6)) µs after the first write")
    }

    @Test func aListenerThatStopsReadingIsDroppedWhileAnotherKeepsReceiving() throws {
        let (format, pcm) = try decodedPCM("preview-04.mp3")
        let log = LogLines()
        let output = try HTTPStreamOutput(host: "127.0.0.1", port: 0, log: { log.add($0) })
        let stalled = try TestListener(port: output.port, path: "/stream.mp3", receiveBuffer: 4096, reads: false)
        let reader = try TestListener(port: output.port, path: "/stream.mp3")
        waitForListeners(output, 2)
        try play(pcm, format: format, to: output)
        #expect(output.backlogs().count == 1)
        #expect(log.all.contains { $0.contains("dropped a listener") })
        output.stopped()
        let answer = reader.finish()
        output.close()
        // 30 s at 16,000 bytes a second.
        #expect(answer.body.count > 29 * 16000, "\(answer.body.count) bytes")
        withExtendedLifetime(stalled) {}
    }

    @Test func theListenerPastTheLimitIsAnswered503() throws {
        let output = try HTTPStreamOutput(host: "127.0.0.1", port: 0, maxListeners: 2, log: { _ in })
        let first = try TestListener(port: output.port, path: "/stream.mp3")
        let second = try TestListener(port: output.port, path: "/stream.flac")
        waitForListeners(output, 2)
        let third = try TestListener(port: output.port, path: "/stream.mp3")
        #expect(third.finish(timeout: 5).status == 503)
        let missing = try TestListener(port: output.port, path: "/other")
        #expect(missing.finish(timeout: 5).status == 404)
        output.close()
        #expect(first.finish(timeout: 5).status == 200)
        #expect(second.finish(timeout: 5).status == 200)
    }

    @Test func icyBlocksCarryTheTitle() throws {
        let (format, pcm) = try decodedPCM("preview-05.mp3")
        let output = try HTTPStreamOutput(host: "127.0.0.1", port: 0, log: { _ in })
        let listener = try TestListener(port: output.port, path: "/stream.mp3", headers: ["Icy-MetaData: 1"])
        waitForListeners(output, 1)
        output.nowPlaying(StreamInfo(artist: "Daft Punk", title: "It's; Over"))
        try play(Array(pcm.prefix(44100 * 4 * 5)), format: format, to: output)
        output.stopped()
        let answer = listener.finish()
        output.close()
        #expect(answer.headers["icy-metaint"] == "16000")
        var audio: [UInt8] = []
        var titles: [String] = []
        var i = 0
        while i < answer.body.count {
            let end = min(i + 16000, answer.body.count)
            audio += answer.body[i..<end]
            i = end
            guard i < answer.body.count else { break }
            let length = Int(answer.body[i]) * 16
            let text = answer.body[(i + 1)..<min(i + 1 + length, answer.body.count)].filter { $0 != 0 }
            if length > 0 { titles.append(String(decoding: text, as: UTF8.self)) }
            i += 1 + length
        }
        #expect(titles == ["StreamTitle='Daft Punk - It’s, Over';"])
        let (_, decoded) = try decodedStream(audio)
        #expect(decoded.count >= 5 * 44100 * 4)
    }

    @Test func aMono22kHzSongReachesTheListenerAs44kHzStereo() throws {
        let (format, pcm) = try decodedPCM("preview-08-mono22k.mp3")
        #expect(format == AudioFormat(sampleRate: 22050, channels: 1))
        let output = try HTTPStreamOutput(host: "127.0.0.1", port: 0, log: { _ in })
        let listener = try TestListener(port: output.port, path: "/stream.flac")
        waitForListeners(output, 1)
        try play(pcm, format: format, to: output)
        output.stopped()
        let answer = listener.finish()
        output.close()
        // STREAMINFO (after "fLaC" and the block's 4-byte header): the rate's 20 bits, channels - 1 in 3.
        let info = Array(answer.body[8..<26])
        let rate = Int(info[10]) << 12 | Int(info[11]) << 4 | Int(info[12]) >> 4
        #expect(rate == 44100)
        #expect(Int((info[12] >> 1) & 7) + 1 == 2)
        let decoded = try flacDecoded(answer.body)
        let frames = decoded.count / 4
        #expect(abs(frames - pcm.count / 2 * 2) < 64, "\(frames) frames")
        let samples = decoded.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(samples.contains { abs(Int($0)) > 1000 })
    }

    @Test func beyondLoopbackWithoutAPasswordIsRefused() {
        #expect(throws: StreamFailure.self) { try HTTPStreamOutput(host: "0.0.0.0", port: 0, log: { _ in }) }
    }

    @Test func aPortInUseIsAnOutputError() throws {
        let first = try HTTPStreamOutput(host: "127.0.0.1", port: 0, log: { _ in })
        defer { first.close() }
        do {
            _ = try HTTPStreamOutput(host: "127.0.0.1", port: first.port, log: { _ in })
            Issue.record("a second server on one port")
        } catch {
            guard case .output(let reason) = error else { throw error }
            #expect(reason.contains("cannot listen"))
        }
    }
}

@Suite struct PauseSilenceTests {
    @Test func owesTheFramesTheClockAdvancedAndNoMore() {
        var silence = PauseSilence(sampleRate: 44100, now: 100)
        #expect(silence.take(now: 100) == 0)
        #expect(silence.take(now: 100.1) == 4410)
        #expect(silence.take(now: 100.1) == 0)
        #expect(silence.take(now: 100.25) == 6615)
        #expect(silence.fed == 11025)
    }

    @Test func audioWrittenDuringThePauseMovesTheStart() {
        var silence = PauseSilence(sampleRate: 44100, now: 10)
        #expect(silence.take(now: 10.5) == 22050)
        silence.restart(now: 11)
        #expect(silence.since == 11 && silence.fed == 0)
        #expect(silence.take(now: 11.2) == 8820)
    }

    @Test func aLongStallIsForgivenNotFlooded() {
        var silence = PauseSilence(sampleRate: 44100, now: 0)
        #expect(silence.take(now: 60) == PauseSilence.maxFrames)
        #expect(silence.take(now: 60.1) == 4410)
    }
}
