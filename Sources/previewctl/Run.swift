// What each command asks of the daemon and shows: `run` is the one switch
// over `ControlCommand` (the compiler checks that it covers every command
// the table in PreviewCore parses); the longer cases are functions below.
import PreviewControl
import PreviewCore
import PreviewPlatform

/// Carries out `command` over the connection `main.swift` opened.
@MainActor func run(_ command: ControlCommand) {
    switch command {
    case .add(let uris): send(uris.map { "add \(q($0))" })
    case .play(let pos): send([pos.map { "play \($0 - 1)" } ?? "play"], thenStatus: true)
    case .pause: send(["pause 1"], thenStatus: true)
    case .toggle: toggle()
    case .stop: send(["stop"], thenStatus: true)
    case .next(let wait): next(wait: wait)
    case .previous: send(["previous"], thenStatus: true)
    case .shuffle: send(["shuffle"])
    case .random(let on): send(["random \(on ? 1 : 0)"], thenStatus: true)
    case .repeat(let on): send(["repeat \(on ? 1 : 0)"], thenStatus: true)
    case .autoplay(let on): send(["autoplay \(on ? 1 : 0)"], thenStatus: true)
    case .queue: showQueue()
    case .clear: send(["clear"])
    case .delete(let pos): send(["delete \(pos - 1)"])
    case .volume(let change): volume(change)
    case .status: showStatus(json: jsonOutput)
    case .pauseIfPlaying:
        guard dictionary(connection.must(["status"]))["state"] == "play" else { exit(1) }
        send(["pause 1"])
    case .seek(let arg): seek(arg)
    case .insert(let uri): insert(uri)
    case .crop: crop()
    case .move(let from, let to): send(["move \(from - 1) \(to - 1)"])
    case .current(let format, let json): out(currentLine(format: format, json: json) + "\n")
    case .watch, .help, .version, .completions: break  // answered in main.swift, before any connection
    case .want(let action, let uri): want(action, uri)
    case .library(let action, let uri): library(action, uri)
    case .now(let pick, let json): listenNow(pick, json: json)
    case .playlists where jsonOutput: out(ControlJSON.playlists(connection.must(["listplaylists"])))
    case .playlists: for (k, v) in connection.must(["listplaylists"]) where k == "playlist" { out(v + "\n") }
    case .save(let name, let replace): send(["save \(q(name))" + (replace ? " replace" : "")])
    case .load(let name, let play): load(name, play: play)
    case .addToPlaylist(let name, let references): addToPlaylist(name, references)
    case .open(let n, let add, let play, let json): open(n, add: add, play: play, json: json)
    case .showPlaylist(let name): showPlaylist(name)
    case .editPlaylist(let name, let edit): send([edit.request(name)])
    case .removePlaylist(let name): send(["rm \(q(name))"])
    case .catalog(let cmd): catalog(cmd)
    }
}

/// Sends `requests` (exiting on a refusal), then shows the status when asked.
@MainActor func send(_ requests: [String], thenStatus: Bool = false) {
    _ = connection.must(requests)
    if thenStatus { showStatus() }
}

/// `toggle`: pause while playing, resume while paused, else play.
@MainActor func toggle() {
    let state = dictionary(connection.must(["status"]))["state"]
    send([state == "play" ? "pause 1" : state == "pause" ? "pause 0" : "play"], thenStatus: true)
}

/// `next [--wait]`.
@MainActor func next(wait: Bool) {
    _ = connection.must(["next"])
    if wait, dictionary(connection.must(["status"]))["state"] == "play" {
        // `play` while playing changes nothing and answers once the song is
        // audible; paused, there is no audio to wait for.
        _ = connection.must(["play"])
    }
    showStatus()
}

/// `volume [N|+N|-N]`: sets or changes it, then shows it.
@MainActor func volume(_ change: String?) {
    if let change {
        send([change.hasPrefix("+") || change.hasPrefix("-") ? "volume \(change)" : "setvol \(change)"])
    }
    let volume = dictionary(connection.must(["getvol"]))["volume"].map { $0 + "%" } ?? "n/a"
    out("volume: \(volume)\n")
}

/// `insert URI`: after the current song, or at the end when none is current.
@MainActor func insert(_ uri: String) {
    switch connection.request(["add \(q(uri)) +0"]) {
    case .ok: break
    case .ack(code: 55, _, _, _, _): send(["add \(q(uri))"])
    case .ack(_, _, let command, let message, _): failRefused(command: command, message: message)
    }
}

/// `crop`: every song but the current one removed.
@MainActor func crop() {
    let status = dictionary(connection.must(["status"]))
    guard let pos = status["song"].flatMap({ Int($0) }), let length = status["playlistlength"].flatMap({ Int($0) }) else {
        fail("crop: no current song", 1)
    }
    let commands = ControlFormat.cropCommands(position: pos, length: length)
    if !commands.isEmpty { send(commands) }
}

/// `playlist NAME`: its songs, numbered from 1.
@MainActor func showPlaylist(_ name: String) {
    let records = CatalogRecord.split(connection.must(["listplaylistinfo \(q(name))"]))
    for (i, r) in records.enumerated() {
        out("\(i + 1). \(ControlFormat.songLine(Dictionary(r.fields, uniquingKeysWith: { a, _ in a })))\n")
    }
}

/// Queues each of a listing's results on its own, so that one that does not
/// resolve does not stop the rest; each refusal goes to stderr. Exits 1 only
/// when nothing could be queued; with `play`, plays the first song queued,
/// and with `shuffle`, shuffles what was queued first (only those songs).
@MainActor func queueResults(_ uris: [String], play: Bool, shuffle: Bool = false) {
    let length = Int(dictionary(connection.must(["status"]))["playlistlength"] ?? "0") ?? 0
    var queued = 0
    for uri in uris {
        switch connection.request(["add \(q(uri))"]) {
        case .ok: queued += 1
        case .ack(_, _, _, let message, _): writeStandardError("previewctl: not queued: \(TerminalSafe.text(message))\n")
        }
    }
    guard queued > 0 else { fail("nothing could be queued", 1) }
    if shuffle {
        let end = Int(dictionary(connection.must(["status"]))["playlistlength"] ?? "0") ?? 0
        _ = connection.must(["shuffle \(length):\(end)"])
    }
    if play { _ = connection.must(["play \(length)"]) }
}

@MainActor func currentLine(format: String, json: Bool) -> String {
    let replies = connection.mustEach(["status", "currentsong"])
    let values = StatusFormat.values(status: dictionary(replies[0]), song: dictionary(replies[1]))
    return json ? StatusFormat.json(values) : StatusFormat.render(format, values)
}

@MainActor func showStatus(json: Bool = false) {
    let replies = connection.mustEach(["status", "currentsong"])
    let (status, song) = (dictionary(replies[0]), dictionary(replies[1]))
    out(json ? ControlJSON.status(status: status, song: song) : ControlFormat.status(status: status, song: song))
}

/// `want` and `library`: one line per record, newest first: what it is
/// (`Artist - Title`, an album's title, an artist's name), its kind, how
/// long ago it was added, its URI.
@MainActor func listSaved(_ fields: [(String, String)], empty: String) {
    let now = Int(SystemClock.unixSeconds())
    let records = CatalogRecord.split(fields)
    for r in records {
        let c = r.value("Title").map { t in r.value("Artist").map { "\($0) - \(t)" } ?? t } ?? r.value("Artist") ?? r.uri
        let when = r.value("added").flatMap(ControlFormat.unixTime(iso:)).map { ControlFormat.age(of: $0, now: now) } ?? "?"
        out("\(c)  (\(r.kind), added \(when))  \(r.uri)\n")
    }
    if records.isEmpty { out(empty + "\n") }
}

/// `queue`: the queue, the current song marked, numbers aligned (or JSON).
@MainActor func showQueue() {
    let status = dictionary(connection.must(["status"]))
    let current = status["state"] != "stop" ? status["song"].flatMap { Int($0) } : nil
    if jsonOutput {
        out(
            ControlJSON.queue(
                CatalogRecord.split(connection.must(["playlistinfo"])).map {
                    Dictionary($0.fields, uniquingKeysWith: { a, _ in a })
                }, current: current))
        return
    }
    var song: [String: String] = [:]
    var index = 0
    // Numbers right-aligned to the queue's length, so the titles line up.
    let width = String(Int(status["playlistlength"] ?? "0") ?? 0).count
    func flush() {
        guard !song.isEmpty else { return }
        let number = String(index + 1)
        let pad = String(repeating: " ", count: max(0, width - number.count))
        out("\(index == current ? ">" : " ")\(pad)\(number). \(ControlFormat.songLine(song))\n")
        index += 1
        song = [:]
    }
    for (k, v) in connection.must(["playlistinfo"]) {
        if k == "file" { flush() }
        song[k] = v
    }
    flush()
}

/// `want [add|rm|toggle URI | play [URI]]`.
@MainActor func want(_ action: String, _ uri: String?) {
    switch action {
    case "list" where jsonOutput: out(ControlJSON.saved(CatalogRecord.split(connection.must(["wantlist"]))))
    case "list": listSaved(connection.must(["wantlist"]), empty: "the want list is empty")
    case "play":
        _ = connection.must([uri.map { "wantplay \(q($0))" } ?? "wantplay"])
        showStatus()
    default:
        let command = ["add": "wantadd", "rm": "wantrm", "toggle": "wanttoggle"][action]!
        let reply = dictionary(connection.must(["\(command) \(q(uri!))"]))
        if let note = reply["unchanged"] { out(note + "\n") }
        if let wanted = reply["wanted"] { out(wanted == "1" ? "added \(uri!)\n" : "removed \(uri!)\n") }
    }
}

/// `library [add|rm URI]`.
@MainActor func library(_ action: String, _ uri: String?) {
    switch action {
    case "list" where jsonOutput: out(ControlJSON.saved(CatalogRecord.split(connection.must(["librarylist"]))))
    case "list": listSaved(connection.must(["librarylist"]), empty: "the library is empty")
    default:
        let reply = dictionary(connection.must(["\(action == "add" ? "libraryadd" : "libraryrm") \(q(uri!))"]))
        if let note = reply["unchanged"] { out(note + "\n") }
    }
}

/// `now [--play N | --add N] [--json]`.
@MainActor func listenNow(_ pick: ListenNowPick?, json: Bool) {
    let now = ListenNowSections(connection.must(["catalognow"]))
    guard let pick else {
        out(json ? now.json() : now.text())
        keepListing((1...max(1, now.count)).compactMap { now.entry($0)?.uri })
        return
    }
    guard let entry = now.entry(pick.number) else { fail("now lists \(now.count) entries, not \(pick.number)", 1) }
    refuseUnplayable(entry, number: pick.number)
    queueResults([entry.uri], play: pick.play)
    if pick.play { showStatus(json: json) }
}

/// `seek [+|-]S|P%`.
@MainActor func seek(_ arg: String) {
    let status = dictionary(connection.must(["status"]))
    guard status["state"] != "stop" else { fail("seek: nothing is playing", 1) }
    if arg.hasSuffix("%") {
        let duration = Double(status["duration"] ?? "") ?? 0
        let seconds = duration * (Double(arg.dropLast()) ?? 0) / 100
        _ = connection.must(["seekcur \(seconds)"])
    } else {
        _ = connection.must(["seekcur \(arg)"])
    }
    showStatus()
}
