import CFuzzDriver
import Glibc
import PreviewCore
import PreviewPlatform
import PreviewFuzz

/// An engine that plays nothing: the fuzzed code is the server's.
final class SilentEngine: AudioEngine, @unchecked Sendable {
    func start(events: @escaping @Sendable (EngineEvent) -> Void) throws {}
    func play(stream id: StreamID, url: String, key: String?, from start: Double, until end: Double?, info: StreamInfo) {}
    func queueNext(_ next: NextStream?, crossfade seconds: Double) {}
    func prefetch(_ items: [MediaItem]) {}
    func measureLoudness(_ key: String) {}
    func resume(stream id: StreamID, url: String) {}
    func setPaused(_ paused: Bool) {}
    func setOutputs(enabled: [Bool]) {}
    func stop() {}
    func dropBuffered() {}
    func setVolume(_ percent: Int) {}
    func position() -> PlaybackPosition? { nil }
    func shutdown() {}
}

nonisolated(unsafe) var target = ""
let engine = SilentEngine()
nonisolated(unsafe) var directory = ""

func usage() -> Never {
    let text = """
        usage: previewfuzz TARGET FILE...      replays inputs (regressions, a corpus)
               PREVIEWFUZZ_TARGET=TARGET previewfuzz [libFuzzer flags] [CORPUS...]
                                              fuzzes (built with -sanitize=fuzzer)
        targets: \(FuzzEntry.targets.joined(separator: " "))
        """
    writeStderr(text)
    exit(64)
}

/// libFuzzer's callback: one input for the selected target. (Its own
/// `main` refers to this name; ours below runs the driver the same way.)
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if case .broken(let why) = FuzzEntry.run(target, bytes, engine: engine, directory: directory) {
        fatalError(why)  // a crash is what makes libFuzzer keep the input
    }
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver when it is
/// linked in, else a replay of files.
@_cdecl("previewfuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    // Stored playlists go to memory where it can: the session target
    // writes them (with fsync) for many inputs a second.
    directory = (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") + "/previewfuzz-\(getpid())"
    mkdir(directory, 0o700)
    let args = (0..<Int(argc)).map { String(cString: argv![$0]!) }
    if pv_fuzzer_linked() != 0 {
        guard let name = getenv("PREVIEWFUZZ_TARGET").map({ String(cString: $0) }), FuzzEntry.targets.contains(name) else { usage() }
        target = name
        var count = argc
        var vector = argv
        return pv_run_fuzzer(&count, &vector) { data, size in testOneInput(data, size) }
    }
    guard args.count >= 3, FuzzEntry.targets.contains(args[1]) else { usage() }
    for path in args[2...] {
        guard let f = fopen(path, "rb") else {
            writeStderr("previewfuzz: cannot read \(path): \(String(cString: strerror(errno)))")
            exit(66)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        fclose(f)
        if case .broken(let why) = FuzzEntry.run(args[1], bytes, engine: engine, directory: directory) {
            writeStderr("previewfuzz: \(path): \(why)")
            exit(1)
        }
    }
    print("previewfuzz: \(args.count - 2) inputs of \(args[1]) replayed, no crash")
    return 0
}
