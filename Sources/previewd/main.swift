// previewd: parse options, wire the real engine to the server, run.
import PreviewAudio
import PreviewCore
import PreviewFetch
import PreviewHTTP
import PreviewPlatform
import PreviewDaemon

let arguments = Array(CommandLine.arguments.dropFirst())
let configFile = ConfigFile.path(arguments: arguments, environment: Environment.value)
var configText: String?
do {
    configText = try AtomicFile.read(configFile.path).map { String(decoding: $0, as: UTF8.self) }
} catch {
    writeStderr("previewd: cannot read \(configFile.path): \(error.reason)")
    ThisProcess.exit(64)
}
if configText == nil && configFile.explicit {
    writeStderr("previewd: --config \(configFile.path): no such file")
    ThisProcess.exit(64)
}
let options: DaemonOptions
do {
    options = try DaemonOptions.parse(
        arguments, environment: Environment.value, uid: ThisProcess.userID,
        config: configText.map { (configFile.path, $0) })
    try options.checkCountry()
} catch {
    writeStderr("previewd: \(error)")
    ThisProcess.exit(64)
}
if options.printConfig {
    print(options.printedConfig(file: configFile.path + (configText == nil ? " (none)" : "")), terminator: "")
    ThisProcess.exit(0)
}
if let shell = options.completionShell, let script = DaemonOptions.completionScript(for: shell) {
    print(script, terminator: "")
    ThisProcess.exit(0)
}
if options.showHelp {
    print(DaemonOptions.usage, terminator: "")
    ThisProcess.exit(0)
}
if options.showVersion {
    print("previewd \(previewVersion)")
    ThisProcess.exit(0)
}

for case .wav(let path) in options.outputs {
    // Fail now, not on every song, when the WAV files cannot be written.
    let dir = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    do { try FileSystem.checkWritable(dir.isEmpty ? "/" : dir) } catch {
        writeStderr("previewd: cannot write WAV files in \(dir): \(error.reason)")
        ThisProcess.exit(1)
    }
}
// The HTTP stream's password, read once: a stream beyond loopback needs it.
var streamCredentials: HTTPCredentials?
if let file = options.streamPasswordFile {
    do {
        let (read, readableByOthers) = try HTTPCredentials.fromPasswordFile(file)
        streamCredentials = read
        if readableByOthers { writeStderr("previewd: warning: \(file) can be read by others (chmod 600 it)") }
    } catch {
        writeStderr("previewd: --stream-password-file \(file): \(error.reason)")
        ThisProcess.exit(66)
    }
}
let network = CurlNetwork()
let engine = Engine(
    network: network, outputs: OutputKind.listed(options.outputs).map(\.kind), paced: options.realtimePace,
    stallTimeout: options.streamTimeout,
    prefetchBudget: options.prefetchMemory, measureWait: options.replayGainWait, streamListeners: options.streamListeners,
    streamCredentials: streamCredentials, log: { [log = Log(level: options.logLevel)] in log.info($0) })
do {
    try Server(options: options, engine: engine, http: network).run()
} catch {
    writeStderr("previewd: \(error)")
    ThisProcess.exit(1)
}
