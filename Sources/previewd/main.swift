// previewd: parse options, wire the real engine to the server, run.
import Glibc
import PreviewAudio
import PreviewServer

let options: DaemonOptions
do {
    options = try DaemonOptions.parse(Array(CommandLine.arguments.dropFirst()),
                                      environment: { getenv($0).map { String(cString: $0) } },
                                      uid: getuid())
} catch {
    writeStderr("previewd: \(error)")
    exit(64)
}
if options.showHelp {
    print(DaemonOptions.usage, terminator: "")
    exit(0)
}
if options.showVersion {
    print("previewd \(previewdVersion)")
    exit(0)
}

if case .wav(let path) = options.output {
    // Fail now, not on every song, when the WAV files cannot be written.
    let dir = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    guard access(dir.isEmpty ? "/" : dir, W_OK) == 0 else {
        writeStderr("previewd: cannot write WAV files in \(dir): \(String(cString: strerror(errno)))")
        exit(1)
    }
}
let network = CurlNetwork()
let engine = Engine(network: network, output: options.output, paced: options.realtimePace, stallTimeout: options.streamTimeout,
                    prefetchBudget: options.prefetchMemory)
do {
    try Server(options: options, engine: engine, http: network).run()
} catch {
    writeStderr("previewd: \(error)")
    exit(1)
}
