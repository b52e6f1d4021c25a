import PreviewCore
import PreviewPlatform
import PreviewStorage

// MPD's database view, mapped onto the Deezer catalog. Searching lives in
// Commands+Search.swift, album art in Commands+Covers.swift.
extension Commands {
    // `lsinfo`: the root lists the catalog tree's sections by name
    // (`CatalogTree`, `Commands+Tree.swift`) and the stored playlists; a
    // section lists its entries, an entry of the tree its songs. The URI
    // forms (`deezer:library`, `deezer:genres`, `deezer:album:ID`, ...)
    // answer as before, for scripts: the Library opens as its saved songs,
    // any catalog URI as its songs, the discovery lists as in
    // `discoveryListing`.

    static func handleLsinfo(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let uri = call.args.first ?? ""
        if uri.isEmpty || uri == "/" {
            treeRoot(call, s)
            return .done
        }
        if let section = CatalogTree.section(uri) {
            treeListing(uri, section, call, s)
            return .pending
        }
        if let songs = treePathSongs(uri, s) {
            songs.run { result in call.answer(result) { for song in $0 { call.reply.song(song, tags: call.session.tags) } } }
            return .pending
        }
        if uri == "deezer:wantlist" {
            wantListing(call, s)
            return .pending
        }
        if uri == Library.directory {
            try s.library.checkReadable()
            for song in s.library.songs { call.reply.song(song, tags: call.session.tags) }
            return .done
        }
        if discoveryListing(uri, call, s) || listenNowListing(uri, call, s) { return .pending }
        let item: CatalogURI
        do { item = try CatalogURI(parsing: uri) } catch {
            // As mpd: a URI of a scheme nobody serves (Cantata probes
            // `mpd-client://`) is an argument error, not a missing directory.
            if let scheme = uri.firstRange(of: "://"), !["http", "https"].contains(uri[..<scheme.lowerBound].lowercased()) {
                throw ProtocolError(.argument, "Unsupported URI scheme")
            }
            throw ProtocolError(.noExist, "No such directory")
        }
        if case .stream = item { throw ProtocolError(.noExist, "No such directory") }
        s.catalog.songs(for: item) { result in
            switch result {
            case .failure(let e): call.finish(e)
            case .success(let songs):
                for song in songs { call.reply.song(song, tags: call.session.tags) }
                call.finish(nil)
            }
        }
        return .pending
    }

    /// `listfiles [URI]`: the entries `lsinfo URI` lists, as mpd lists a
    /// directory's files: `directory:` and `file:` lines with the last
    /// component of each name, without tags (previewd has no files of its
    /// own, so no `size:`). A catalog tree's playlist entry is a `file:`,
    /// as a playlist file is in mpd's music directory; stored playlists are
    /// not files of the tree, so the root lists its directories alone.
    static func handleListfiles(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let isRoot = (call.args.first ?? "").isEmpty || call.args.first == "/"
        call.replyFilter = { bytes in
            var out: [UInt8] = []
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                for (key, shown) in [("directory: ", "directory: "), ("file: ", "file: "), ("playlist: ", "file: ")]
                where line.starts(with: key.utf8) && !(isRoot && key == "playlist: ") {
                    var value = line.dropFirst(key.utf8.count)
                    // A URL stays whole; a path keeps its last component.
                    if value.firstRange(of: Array("://".utf8)) == nil, let slash = value.lastIndex(of: UInt8(ascii: "/")) {
                        value = value[(slash + 1)...]
                    }
                    out += shown.utf8
                    out += value
                    out.append(UInt8(ascii: "\n"))
                }
            }
            return out
        }
        return try handleLsinfo(call, s)
    }

    /// `readcomments URI`: a song's comments beyond its tags. A catalog
    /// song has none (Deezer gives none and previewd does not read the
    /// preview's ID3 frames); a song previewd could not queue is "No such
    /// song", as in mpd.
    static func handleReadcomments(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let uri = call.args[0]
        if case .track? = try? CatalogURI(parsing: uri) { return .done }
        if let scheme = uri.firstRange(of: "://"), ["http", "https"].contains(uri[..<scheme.lowerBound].lowercased()) {
            return .done
        }
        throw ProtocolError(.noExist, "No such song")
    }

    // `update [URI]` and `rescan`: a job that resolves every Library item
    // anew (`LibraryUpdater`; the URI is not used: the Library is small
    // next to a music directory). The reply is the job id.

    /// `update`/`rescan` (the same job here: every Library item is resolved
    /// again): the job id, as `updating_db:`.
    static func handleUpdate(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        call.reply.field("updating_db", s.libraryUpdater.start())
        return .done
    }

    /// `lsinfo deezer:wantlist`: albums are directories to open, tracks are
    /// songs with their tags (from the catalog, cached), newest first.
    private static func wantListing(_ call: CommandCall, _ s: Services) {
        let entries = s.wants.entries
        s.catalog.describe(entries.map(\.uri)) { details in
            for (entry, description) in zip(entries, details) {
                if case .track(let song) = description {
                    call.reply.song(song, tags: call.session.tags)
                } else {
                    call.reply.field(entry.uri.hasPrefix("deezer:album:") ? "directory" : "file", entry.uri)
                }
                call.reply.field("Last-Modified", SystemClock.iso8601(entry.added))
            }
            call.finish(nil)
        }
    }
}
