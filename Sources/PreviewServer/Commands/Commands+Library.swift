import PreviewCore
import PreviewPlatform
import PreviewStorage

extension Commands {
    // The Library's own commands: `libraryadd URI`, `libraryrm URI`,
    // `librarylist`. Each change tells idle clients `database`: the
    // Library is what MPD clients see as the database.

    static func handleLibraryadd(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        return try libraryAdd(call, s)
    }

    static func handleLibraryrm(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        try s.library.remove(try Library.item(call.args[0]).text, at: Int(s.controller.clock.wall()))
        s.controller.changed(.database)
        return .done
    }

    /// librarylist: newest first; tracks as songs, albums and artists as
    /// records opened by their URI (as wantlist and the catalog commands).
    static func handleLibrarylist(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        try s.library.checkReadable()
        for entry in s.library.entries { call.reply.libraryEntry(entry) }
        return .done
    }

    /// `libraryadd URI`: resolved once now, so that listing it needs no
    /// catalog request later; one already there changes nothing and says so.
    private static func libraryAdd(_ call: CommandCall, _ s: Services) throws(StorageError) -> CommandOutcome {
        let item = try Library.item(call.args[0])
        let uri = item.text
        let unchanged = "\(uri) is already in the library"
        guard !s.library.contains(uri) else {
            call.reply.field("unchanged", unchanged)
            return .done
        }
        s.libraryUpdater.resolve(item).run { result in
            do {
                // Another client may have added it while the catalog answered.
                if try s.library.add(uri, try result.get(), at: Int(s.controller.clock.wall())) {
                    s.controller.changed(.database)
                } else {
                    call.reply.field("unchanged", unchanged)
                }
                call.finish(nil)
            } catch {
                call.finish(error)
            }
        }
        return .pending
    }

    // `listall [URI]` (`file:` lines) and `listallinfo [URI]` (song
    // records): without a URI, `/` or `deezer:library`, the Library's songs;
    // a catalog URI lists that item's songs, as `lsinfo` does.

    /// `listall [URI]` (file names) and `listallinfo [URI]` (`records`: songs
    /// with their tags) of the Library, or of a catalog item.
    static func handleListAll(_ call: CommandCall, _ s: Services, records: Bool) throws -> CommandOutcome {
        let write = { (songs: [Song]) in
            for song in songs {
                if records { call.reply.song(song, tags: call.session.tags) } else { call.reply.field("file", song.uri) }
            }
        }
        let uri = call.args.first ?? ""
        if uri.isEmpty || uri == "/" || uri == Library.directory || CatalogTree.section(uri) == .library {
            write(s.library.songs)
            return .done
        }
        // A section of the tree lists its entries (a walk stops at them, as
        // at the root); an entry its songs.
        if let section = CatalogTree.section(uri) {
            treeListing(uri, section, call, s)
            return .pending
        }
        if let songs = treePathSongs(uri, s) {
            songs.run { result in call.answer(result, fill: write) }
            return .pending
        }
        let item = try CatalogURI(parsing: uri)
        if case .stream = item { throw ProtocolError(.noExist, "No such directory") }
        s.catalog.songs(for: item) { result in call.answer(result, fill: write) }
        return .pending
    }
}

extension Reply {
    /// One `librarylist` record, ending in `added:` (ISO 8601 UTC).
    fileprivate mutating func libraryEntry(_ entry: Library.Entry) {
        switch try? Library.item(entry.uri) {
        case .album?:
            field("album", entry.uri)
            if let name = entry.name { field("Title", name) }
            if let artist = entry.artist { field("Artist", artist) }
            field("Tracks", entry.songs.count)
        case .artist?:
            field("artist", entry.uri)
            if let name = entry.name { field("Artist", name) }
        default:
            // Checked on load and on add: a track entry holds its one song.
            if let first = entry.songs.first { song(first, tags: .all) } else { field("file", entry.uri) }
        }
        field("added", SystemClock.iso8601(entry.added))
    }
}
