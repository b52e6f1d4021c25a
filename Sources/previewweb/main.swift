// previewweb: parse options, serve the web front end over previewd's socket
// until SIGTERM or SIGINT.
import PreviewCore
import PreviewHTTP
import PreviewPlatform
import PreviewWeb

let options: WebOptions
do { options = try WebOptions.parse(Array(CommandLine.arguments.dropFirst())) } catch {
    writeStandardError("previewweb: \(error.message)\n" + WebOptions.usage)
    ThisProcess.exit(64)
}
switch options.action {
case .help?:
    print(WebOptions.usage, terminator: "")
    ThisProcess.exit(0)
case .version?:
    print("previewweb \(previewVersion)")
    ThisProcess.exit(0)
case nil: break
}
let socket = options.socket ?? SocketPath.resolve(explicit: nil, environment: Environment.value, uid: ThisProcess.userID)
// Beyond loopback every request needs the password (HTTP digest, so it
// never crosses the network in the clear; the rest of the traffic does).
var credentials: HTTPCredentials?
if let file = options.passwordFile {
    do {
        let (read, readableByOthers) = try HTTPCredentials.fromPasswordFile(file)
        credentials = read
        if readableByOthers { writeStandardError("previewweb: warning: \(file) can be read by others (chmod 600 it)\n") }
    } catch {
        writeStandardError("previewweb: --password-file \(file): \(error.reason)\n")
        ThisProcess.exit(66)
    }
}
// The token: 128 bits from the system's random source (getrandom(2) under Swift's).
let token = (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined(separator: "-")
let signals: SignalPipe
do { signals = try SignalPipe(catching: [.terminate], unlessIgnored: [.interrupt]) } catch {
    writeStandardError("previewweb: \(error)\n")
    ThisProcess.exit(71)
}
// The guard needs the port, known once listening (0 asks for any): until
// it is set, a request is answered 503.
let app = WebAppSlot()
let server: HTTPServer
do {
    // Without a password, only previewweb's own user is served (on
    // loopback, where that can be known): another local user could
    // otherwise read the token from the page and change the queue.
    var policy: HTTPServer.AcceptPolicy?
    if credentials == nil {
        let ownUser = OwnUserOnly(userID: ThisProcess.effectiveUserID, log: { writeStderr($0) })
        policy = { client, server in ownUser.admit(client, server) }
    }
    server = try HTTPServer(
        address: options.address, port: options.port, headers: WebApp.headers,
        credentials: credentials, acceptPolicy: policy,
        log: { writeStderr("previewweb: " + $0) }
    ) { app.respond(to: $0) }
} catch {
    writeStandardError("previewweb: cannot listen: \(error)\n")
    ThisProcess.exit(69)
}
// Without a cache the page still works, with placeholders for covers.
var covers: CoverCache?
if let directory = options.coverDirectory(environment: Environment.value) {
    do { covers = try CoverCache(directory: directory) } catch {
        writeStandardError("previewweb: no covers: cannot use \(directory): \(error)\n")
    }
}
app.set(
    WebApp(
        guardian: WebGuard(address: options.address, port: server.port, token: token),
        mpd: MPDClient(socketPath: socket), covers: covers))
// Written at once (not through stdio's buffer): scripts read the address from it.
try? FileDescriptor.standardOutput.writeAll(Array("previewweb: http://\(options.address):\(server.port)/ (previewd at \(socket))\n".utf8))
if credentials != nil {
    writeStandardError(
        "previewweb: a browser is asked for user \"previewd\" and the password (HTTP digest, SHA-256); "
            + "the rest of the traffic is not encrypted\n")
}
// Serve until a signal: the server's threads answer; this one waits.
signals.readEnd.setBlocking()
var byte = [UInt8](repeating: 0, count: 1)
while (try? signals.readEnd.read(into: &byte)) != 1 {}
withExtendedLifetime(server) {}
ThisProcess.exit(0)
