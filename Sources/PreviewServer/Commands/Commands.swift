import PreviewCatalog
import PreviewCore
import PreviewPlayback
import PreviewStorage

/// What command handlers reach (built by `Instance`): the playback owner
/// (through its verbs), the catalog browser, client messaging, stored
/// playlists, Last.fm charts, the want list, the Library and the stickers. A class, so
/// that each command's handler is handed one reference, not ten.
package final class Services {
    let controller: PlayerController
    /// Looking around the Deezer catalog (models, not replies).
    let catalog: CatalogBrowser
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
    /// The stickers, or why `sticker.sqlite` could not be opened (each
    /// `sticker` command answers that then).
    let stickers: Result<StickerStore, StorageError>
    /// ISO 3166-1's countries, for `catalogchart KIND country NAME`, read
    /// on first use (a daemon that never shows a country chart never reads
    /// the file).
    var countries: CountryTable { CountryCodes.shared }
    /// The country of "your" chart (`country ""`): `--country`, else the
    /// locale's; nil when neither names one. Resolved on first use.
    lazy var defaultCountry: Country? = ownCountry(countries)
    /// How `defaultCountry` is found in the table (set by the instance).
    package var ownCountry: (CountryTable) -> Country? = { _ in nil }
    /// The `status` reply while nothing it shows changed.
    let statusCache = StatusCache()
    /// The names the catalog tree's listings gave (`CatalogTree`).
    var names = NameIndex()

    package init(
        controller: PlayerController, catalog: CatalogBrowser, hub: MessageHub, playlists: PlaylistStore,
        lastfm: LastfmClient, wants: WantList, library: Library, libraryUpdater: LibraryUpdater,
        stickers: Result<StickerStore, StorageError>
    ) {
        self.controller = controller
        self.catalog = catalog
        self.hub = hub
        self.playlists = playlists
        self.lastfm = lastfm
        self.wants = wants
        self.library = library
        self.libraryUpdater = libraryUpdater
        self.stickers = stickers
    }
}

/// The MPD commands previewd implements: the one list (`CommandList.swift`)
/// and the handlers, by concern (one file each). Replies follow MPD's
/// `doc/protocol.rst`; error texts match mpd 0.23's.
package enum Commands {
    /// The command table of one daemon: `list` bound to `services`.
    package static func table(_ services: Services) -> CommandTable {
        CommandTable(list, services: services)
    }

    /// `commands`: every command the connection may run (all of them; see
    /// `Permission`), as mpd lists them: not the `command_list_*` markers or
    /// `noidle`, which the session handles.
    static func handleCommands(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        for d in list { call.reply.field("command", d.name) }
        return .done
    }

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
        lines(capacity: Reply.roomGuess(song)) { $0.song(song, tags: tags, range: range) }
    }

    /// A queued song as `playlistinfo`/`currentsong` list it.
    mutating func song(_ entry: QueuedSong, position: Int, tags: TagSelection) {
        lines(capacity: Reply.roomGuess(entry.song) + 64) { $0.song(entry, position: position, tags: tags) }
    }

    /// Room that holds most songs' lines (`lines` makes more when not).
    private static func roomGuess(_ song: Song) -> Int { 384 + song.uri.utf8.count }
}

extension LineWriter {
    /// The lines of `Reply.song(_:tags:range:)`.
    mutating func song(_ song: Song, tags: TagSelection, range: SongRange? = nil) {
        field("file", song.uri)
        if let range { field("Range", formatSeconds(range.start) + "-" + (range.end.map(formatSeconds) ?? "")) }
        if let artist = song.artist, tags.contains(.artist) { field("Artist", artist) }
        if let title = song.title, tags.contains(.title) { field("Title", title) }
        if let album = song.album, tags.contains(.album) { field("Album", album) }
        if let a = song.albumTags {
            if let artist = a.artist, tags.contains(.albumArtist) { field("AlbumArtist", artist) }
        }
        if let track = song.track, tags.contains(.track) { field("Track", Int(track)) }
        if let disc = song.disc, tags.contains(.disc) { field("Disc", Int(disc)) }
        if let a = song.albumTags {
            if let date = a.date, tags.contains(.date) { field("Date", date) }
            if tags.contains(.genre) { for genre in a.genres { field("Genre", genre) } }
            if let label = a.label, tags.contains(.label) { field("Label", label) }
        }
        for extra in song.addedTags where tags.contains(name: extra.name) { field(extra.name, extra.value) }
        if let reason = song.unplayable { field("Unplayable", reason) }
        if var duration = song.duration {
            if let range { duration = max(0, (range.end ?? duration) - range.start) }
            field("Time", Int(clamping: duration))
            field("duration", seconds: duration)
        }
    }

    /// The lines of `Reply.song(_:position:tags:)`.
    mutating func song(_ entry: QueuedSong, position: Int, tags: TagSelection) {
        song(entry.song, tags: tags, range: entry.range)
        field("Pos", position)
        field("Id", Int(entry.id))
        if entry.priority > 0 { field("Prio", Int(entry.priority)) }
    }
}
