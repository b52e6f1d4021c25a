import PreviewCore

/// What command handlers reach (built by `Instance`): the one queue/player
/// owner (and through it the catalog), client messaging, stored playlists,
/// Last.fm charts, the want list and the Library.
struct Services {
    let controller: PlayerController
    let hub: MessageHub
    let playlists: PlaylistStore
    /// Country and tag charts; a client without a key answers why.
    let lastfm: LastfmClient
    /// The Want to Listen list.
    let wants: WantList
    /// The saved albums, tracks and artists: MPD's database view.
    let library: Library
    /// Resolves Library items and runs `update` jobs.
    let libraryUpdater: LibraryUpdater
}

/// The MPD commands previewd implements, by concern (one file each).
/// Replies follow MPD's `doc/protocol.rst`; error texts match mpd 0.23's.
enum Commands {
    /// Builds the command table.
    static func table(_ services: Services) -> CommandTable {
        var t = CommandTable()
        // The connection (Commands+Connection.swift).
        registerConnection(&t, services)
        registerCapabilities(&t, services)
        registerConnectionSettings(&t, services)
        registerMessages(&t, services)
        // What plays (Commands+Status, +Queue, +Playback).
        registerStatus(&t, services)
        registerQueueEdits(&t, services)
        registerQueueListing(&t, services)
        registerQueueSongSettings(&t, services)
        registerPlayControl(&t, services)
        registerSeeking(&t, services)
        registerPlaybackModes(&t, services)
        registerVolume(&t, services)
        // Stored playlists (Commands+StoredPlaylists.swift).
        registerPlaylistReading(&t, services)
        registerPlaylistWriting(&t, services)
        registerPlaylistEditing(&t, services)
        // MPD's database view of the catalog (+Database, +Search, +Covers).
        registerDatabaseBrowsing(&t, services)
        registerDatabaseSearch(&t, services)
        registerTagLists(&t, services)
        registerDatabaseUpdate(&t, services)
        registerCovers(&t, services)
        // previewd's own catalog commands (Commands+Catalog.swift).
        registerCatalogSearch(&t, services)
        registerCatalogCharts(&t, services)
        registerCatalogItems(&t, services)
        registerCatalogStats(&t, services)
        registerDiscovery(&t, services)
        registerListenNow(&t, services)
        registerWantList(&t, services)
        // The Library (Commands+Library.swift).
        registerLibrary(&t, services)
        registerLibraryListing(&t, services)
        let commandsTable = t
        // Sorted when asked for, not per table: the fuzzer builds a table per input.
        t.register("commands", 0, 0) { call in
            for name in (commandNames(commandsTable) + ["commands"]).sorted() { call.reply.field("command", name) }
            return .done
        }
        return t
    }

    /// Names listed by `commands`: the table's (like mpd, not the
    /// `command_list_*` markers or `noidle`, which the session handles).
    static func commandNames(_ table: CommandTable) -> [String] { table.names }

    static func songID(_ text: String) throws(ProtocolError) -> SongID {
        let n = try Arguments.unsigned(text)
        return SongID(n)
    }

    /// A `START:END` (or single position) argument checked against `count`.
    /// - Throws: mpd's words, naming the whole argument: `.argument`
    ///   "Malformed range: X" for END < START, "Integer or range expected: X"
    ///   for a bound that is no unsigned number, but the bound's own
    ///   "Number too large: B" when it has too many digits; "Bad song index"
    ///   when START is past `count`.
    static func range(_ text: String, count: Int) throws(ProtocolError) -> Range<Int> {
        let range: Range<Int>
        do { range = try Arguments.range(text) } catch {
            switch error {
            case .endBeforeStart: throw ProtocolError(.argument, "Malformed range: \(text)")
            case .bound(.tooLarge): throw error.protocolError
            case .bound(.notInteger), .bound(.negative):
                throw ProtocolError(.argument, "Integer or range expected: \(text)")
            }
        }
        guard range.lowerBound <= count else { throw ProtocolError(.argument, "Bad song index") }
        return range.lowerBound..<min(range.upperBound, count)
    }

    /// Seconds as `seek` takes them: a non-negative decimal number, at most
    /// `Seconds.maximum`.
    static func seconds(_ text: String) throws(ProtocolError) -> Double {
        guard let v = Seconds.parse(text) else {
            if Double(text) != nil {
                throw ProtocolError(.argument, "Number out of range: \(text) (0 to \(Int(Seconds.maximum)) seconds)")
            }
            throw ProtocolError(.argument, "Float expected: \(text)")
        }
        return v
    }
}

extension Reply {
    /// A song's `file` line and tags (those enabled in `tags`), and its
    /// length (of its `range` when it has one, as mpd shows it).
    mutating func song(_ song: Song, tags: TagSelection, range: SongRange? = nil) {
        let artist = tags.contains(.artist) ? song.artist : nil
        let title = tags.contains(.title) ? song.title : nil
        let album = tags.contains(.album) ? song.album : nil
        let track = tags.contains(.track) ? song.track : nil
        let disc = tags.contains(.disc) ? song.disc : nil
        let a = song.albumTags
        let albumArtist = tags.contains(.albumArtist) ? a?.artist : nil
        let date = tags.contains(.date) ? a?.date : nil
        let genres = tags.contains(.genre) ? a?.genres ?? [] : []
        let label = tags.contains(.label) ? a?.label : nil
        let extras = song.addedTags.isEmpty ? [] : song.addedTags.filter { tags.contains(name: $0.name) }
        let rangeText = range.map { formatSeconds($0.start) + "-" + ($0.end.map(formatSeconds) ?? "") }
        // Room for every line: key, ": ", value, "\n" (written in one go,
        // see `Reply.lines`: listings of 100,000 songs go through here).
        func room(_ key: String, _ value: String?) -> Int { value.map { key.utf8.count + 3 + $0.utf8.count } ?? 0 }
        let numbers = (track == nil ? 0 : 8 + LineWriter.integerBytes) + (disc == nil ? 0 : 7 + LineWriter.integerBytes)
        let capacity = room("file", song.uri) + room("Range", rangeText) + room("Artist", artist)
            + room("Title", title) + room("Album", album) + room("AlbumArtist", albumArtist) + room("Date", date)
            + genres.reduce(0) { $0 + room("Genre", $1) } + room("Label", label) + numbers
            + extras.reduce(0) { $0 + room($1.name, $1.value) }
            + room("Unplayable", song.unplayable) + 7 + LineWriter.integerBytes + 11 + LineWriter.secondsBytes
        lines(capacity: capacity) { w in
            w.field("file", song.uri)
            if let rangeText { w.field("Range", rangeText) }
            if let artist { w.field("Artist", artist) }
            if let title { w.field("Title", title) }
            if let album { w.field("Album", album) }
            if let albumArtist { w.field("AlbumArtist", albumArtist) }
            if let track { w.field("Track", Int(track)) }
            if let disc { w.field("Disc", Int(disc)) }
            if let date { w.field("Date", date) }
            for genre in genres { w.field("Genre", genre) }
            if let label { w.field("Label", label) }
            for extra in extras { w.field(extra.name, extra.value) }
            if let reason = song.unplayable { w.field("Unplayable", reason) }
            if var duration = song.duration {
                if let range { duration = max(0, (range.end ?? duration) - range.start) }
                w.field("Time", Int(clamping: duration))
                w.field("duration", seconds: duration)
            }
        }
    }

    /// A queued song as `playlistinfo`/`currentsong` list it.
    mutating func song(_ entry: QueuedSong, position: Int, tags: TagSelection) {
        song(entry.song, tags: tags, range: entry.range)
        lines(capacity: 3 * (7 + LineWriter.integerBytes)) { w in
            w.field("Pos", position)
            w.field("Id", Int(entry.id))
            if entry.priority > 0 { w.field("Prio", Int(entry.priority)) }
        }
    }
}
