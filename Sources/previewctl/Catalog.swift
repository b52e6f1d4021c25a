// The catalog commands (search, chart, album, artist, info, ...), `open N`
// and the other users of the last listing: what previewctl asks, shows,
// queues, and keeps for the next command's numbers.
import PreviewControl
import PreviewCore
import PreviewPlatform

/// The catalog commands: their requests, the table (or JSON), the listing
/// kept for `open N`, and with `--add`/`--play` the results queued.
@MainActor func catalog(_ cmd: CatalogCommand) {
    if case .anyKind(let id) = cmd.query { return infoByID(id, cmd) }
    let replies = cmd.requests.map { connection.must([$0]) }
    let fields = replies.flatMap { $0 }
    out(cmd.render(replies: replies, terminal: FileDescriptor.standardOutput.isTerminal, width: terminalWidth()))
    writeStandardError(TerminalSafe.text(cmd.notices(fields)))
    let entries = cmd.entries(replies)
    keepListing(entries.map(\.uri))
    guard cmd.add || cmd.play else { return }
    guard !entries.isEmpty else { fail("nothing to \(cmd.play ? "play" : "queue"): no results", 1) }
    let records = CatalogRecord.split(fields)
    let uris: [String]
    do { uris = try cmd.urisToQueue(records) } catch { fail(error.message, 64) }
    if let picked = cmd.pickedRecord(records), let pick = cmd.pick { refuseUnplayable(picked, number: pick) }
    if case .album = cmd.query, cmd.play, let pick = cmd.pick {
        // An album page's `--play N`: the album goes in whole; its Nth track plays.
        queueResults(uris, play: false)
        let length = Int(dictionary(connection.must(["status"]))["playlistlength"] ?? "0") ?? 0
        _ = connection.must(["play \(length - entries.count + pick - 1)"])
    } else {
        queueResults(uris, play: cmd.play, shuffle: cmd.shuffle)
    }
    if cmd.play { showStatus() }
}

/// Exits 1 when `record` (entry `number`) is a song the catalog says cannot
/// be played here: queued, it would only be skipped.
@MainActor func refuseUnplayable(_ record: CatalogRecord, number: Int) {
    guard let why = record.unplayable else { return }
    fail(TerminalSafe.text("entry \(number), \(record.label), is not playable: \(why)"), 1)
}

/// `info ID`: `cataloginfo` of the id as each kind it could be; what is
/// found is shown (each under its URI when several are), and nothing found
/// exits 1 naming the kinds tried.
@MainActor func infoByID(_ id: Int, _ cmd: CatalogCommand) {
    var found: [(uri: String, fields: [(String, String)])] = []
    for kind in CatalogCommand.idKinds {
        let uri = "deezer:\(kind):\(id)"
        switch connection.request(["cataloginfo \(uri)"]) {
        case .ok(let fields): found.append((uri, fields))
        case .ack(code: 50, _, _, _, _): continue  // no such item of this kind
        case .ack(_, _, let command, let message, _): failRefused(command: command, message: message)
        }
    }
    guard !found.isEmpty else {
        let kinds = CatalogCommand.idKinds
        fail("info: no \(kinds.dropLast().joined(separator: ", ")) or \(kinds.last!) has id \(id)", 1)
    }
    out(CatalogFormat.infoByID(found, json: cmd.json))
    keepListing(found.map(\.uri))
    if cmd.add || cmd.play {
        queueResults(found.map(\.uri), play: cmd.play)
        if cmd.play { showStatus() }
    }
}

/// `open N`: entry N of the last listing, shown (and queued) as the catalog
/// command for its kind would.
@MainActor func open(_ number: Int, add: Bool, play: Bool, json: Bool) {
    let uri: String
    do { uri = try lastListing().uri(number) } catch { fail(CommandHelp.line(for: error, arguments: ["open"]), 64) }
    catalog(CatalogCommand(opening: uri, add: add, play: play, json: json))
}

/// `playlist NAME add URI|N...`: one `playlistadd` each, numbers taken from
/// the last listing; the first refusal stops (the ones before it stay added).
@MainActor func addToPlaylist(_ name: String, _ references: [ListingReference]) {
    let uris: [String]
    do {
        uris = try (ListingReference.needListing(references) ? lastListing() : LastListing(uris: [])).resolve(references)
    } catch {
        fail(CommandHelp.line(for: error, arguments: ["playlist"]), 64)
    }
    for uri in uris { _ = connection.must(["playlistadd \(q(name)) \(q(uri))"]) }
}

/// `load NAME [--play]`: with `play`, the playlist's first song plays.
@MainActor func load(_ name: String, play: Bool) {
    guard play else { return send(["load \(q(name))"]) }
    let length = Int(dictionary(connection.must(["status"]))["playlistlength"] ?? "0") ?? 0
    _ = connection.must(["load \(q(name))"])
    _ = connection.must(["play \(length)"])
    showStatus()
}

/// The listing's file: beside the socket when that directory is the
/// user's alone (`$XDG_RUNTIME_DIR/previewd`, a test's directory), else in
/// the runtime directory (or `/tmp/previewd-UID`): never in a directory
/// others may write, nor in the working directory.
@MainActor func listingPath() -> String? {
    let uid = ThisProcess.userID
    // Only a directory that is the user's alone (lstat: not a link, owned,
    // 0700): in a shared one another user could plant a listing, or a link
    // through which the write clobbers one of the user's files.
    if let dir = SocketPath.directory(of: path), (try? PrivateDirectory.check(dir, owner: uid, create: false)) == true {
        return LastListing.path(in: dir)
    }
    let fallback = SocketPath.runtimeDirectory(environment: Environment.value) ?? SocketPath.privateDirectory(uid: uid)
    guard (try? PrivateDirectory.check(fallback, owner: uid, create: true)) == true else { return nil }
    return LastListing.path(in: fallback)
}

/// The listing `keepListing` kept last.
/// - Throws: `LastListing.missing` when there is none (or it is unreadable).
@MainActor func lastListing() throws(ControlCommand.UsageError) -> LastListing {
    guard let file = listingPath(), let bytes = try? AtomicFile.read(file), let listing = LastListing(bytes: bytes) else {
        throw LastListing.missing
    }
    return listing
}

/// Keeps `uris` as the last listing, numbered as shown. Where it cannot be
/// written (no such directory) nothing is said: `open N` says there is no
/// listing.
@MainActor func keepListing(_ uris: [String]) {
    guard let file = listingPath() else { return }
    try? AtomicFile.write(LastListing(uris: uris).bytes, to: file)
}
