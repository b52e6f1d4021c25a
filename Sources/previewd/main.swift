// previewd: parse options, wire the real engine to the server, run.
import PreviewAudio
import PreviewPlatform
import PreviewServer

let options: DaemonOptions
do {
    options = try DaemonOptions.parse(Array(CommandLine.arguments.dropFirst()),
                                      environment: Environment.value,
                                      uid: ThisProcess.userID)
} catch {
    writeStderr("previewd: \(error)")
    ThisProcess.exit(64)
}
if options.showHelp {
    print(DaemonOptions.usage, terminator: "")
    ThisProcess.exit(0)
}
if options.showVersion {
    print("previewd \(previewdVersion)")
    ThisProcess.exit(0)
}

if case .wav(let path) = options.output {
    // Fail now, not on every song, when the WAV files cannot be written.
    let dir = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    do { try FileSystem.checkWritable(dir.isEmpty ? "/" : dir) } catch {
        writeStderr("previewd: cannot write WAV files in \(dir): \(error.reason)")
        ThisProcess.exit(1)
    }
}
let network = CurlNetwork()
let engine = Engine(network: network, output: options.output, paced: options.realtimePace, stallTimeout: options.streamTimeout,
                    prefetchBudget: options.prefetchMemory)
do {
    try Server(options: options, engine: engine, http: network).run()
} catch {
    writeStderr("previewd: \(error)")
    ThisProcess.exit(1)
}
