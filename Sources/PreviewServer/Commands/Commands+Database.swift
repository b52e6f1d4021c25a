import PreviewCore

// MPD's database view, mapped onto the Deezer catalog. Searching lives in
// Commands+Search.swift, album art in Commands+Covers.swift.
extension Commands {
    /// `lsinfo`: the root lists Deezer's chart, the Want to Listen list, the
    /// Library and the stored playlists as directories and playlists; the
    /// Library opens as its saved songs, any catalog URI as its songs.
    static func registerDatabaseBrowsing(_ t: inout CommandTable, _ s: Services) {
        let c = s.controller
        let store = s.playlists
        t.register("lsinfo", 0, 1) { call throws(ProtocolError) in
            let uri = call.args.first ?? ""
            if uri.isEmpty || uri == "/" {
                call.reply.field("directory", "deezer:chart")
                call.reply.field("directory", "deezer:wantlist")
                call.reply.field("directory", Library.directory)
                for entry in store.list() {
                    call.reply.field("playlist", entry.name)
                    call.reply.field("Last-Modified", isoTime(entry.modified))
                }
                return .done
            }
            if uri == "deezer:wantlist" {
                // Albums are directories to open, tracks are songs.
                for entry in s.wants.entries {
                    call.reply.field(entry.uri.hasPrefix("deezer:album:") ? "directory" : "file", entry.uri)
                    call.reply.field("Last-Modified", isoTime(entry.added))
                }
                return .done
            }
            if uri == Library.directory {
                for song in s.library.songs { call.reply.song(song, tags: call.session.tags) }
                return .done
            }
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
            c.catalog.songs(for: item) { result in
                switch result {
                case .failure(let e): call.finish(e)
                case .success(let songs):
                    for song in songs { call.reply.song(song, tags: call.session.tags) }
                    call.finish(nil)
                }
            }
            return .pending
        }
    }

    /// `list TAG [FILTER]` and `count FILTER`: tag values and totals over the
    /// songs a Deezer search finds (`list` without a filter: over the chart).
    /// Grouping is refused: Deezer's answers are too small to group.
    static func registerTagLists(_ t: inout CommandTable, _ s: Services) {
        let c = s.controller
        t.register("list", 1, nil) { call throws(ProtocolError) in
            guard let tag = SongFilter.Tag(rawValue: call.args[0].lowercased()), [.artist, .album, .title].contains(tag) else {
                throw ProtocolError(.argument, "Unknown tag type: \(call.args[0])")
            }
            var rest = Array(call.args.dropFirst())
            if rest.count >= 2, rest[rest.count - 2] == "group" {
                throw ProtocolError(.argument, "Grouping is not supported")
            }
            // mpd 0.23 still takes `list album ARTIST` (one bare value).
            if tag == .album, rest.count == 1, !rest[0].hasPrefix("(") { rest = ["artist", rest[0]] }
            let filter = rest.isEmpty ? nil : try SongFilter.parse(rest, foldCase: false)
            let finish = { (result: Result<[Song], ProtocolError>) in
                do throws(ProtocolError) {
                    let songs = try result.get().filter { filter?.matches($0) ?? true }
                    call.reply.tagValues(tag, of: songs)
                    call.finish(nil)
                } catch {
                    call.finish(error)
                }
            }
            if let filter { c.catalog.search(filter, completion: finish) } else { c.catalog.songs(for: .chart, completion: finish) }
            return .pending
        }
        t.register("count", 1, nil) { call throws(ProtocolError) in
            if call.args.contains("group") { throw ProtocolError(.argument, "Grouping is not supported") }
            let filter = try SongFilter.parse(call.args, foldCase: false)
            c.catalog.search(filter) { result in
                switch result {
                case .failure(let e): call.finish(e)
                case .success(let songs):
                    call.reply.field("songs", songs.count)
                    call.reply.field("playtime", Int(clamping: songs.compactMap(\.duration).reduce(0, +)))
                    call.finish(nil)
                }
            }
            return .pending
        }
    }

    /// `update [URI]` and `rescan`: a job that resolves every Library item
    /// anew (`LibraryUpdater`; the URI is not used: the Library is small
    /// next to a music directory). The reply is the job id.
    static func registerDatabaseUpdate(_ t: inout CommandTable, _ s: Services) {
        for name in ["update", "rescan"] {
            t.register(name, 0, 1) { call in
                call.reply.field("updating_db", s.libraryUpdater.start())
                return .done
            }
        }
    }
}

extension Reply {
    /// `list`'s reply: each distinct value of `tag` (artist, album or
    /// title) once, sorted, under the tag's capitalised name as mpd sends it.
    fileprivate mutating func tagValues(_ tag: SongFilter.Tag, of songs: [Song]) {
        let label = tag.rawValue.prefix(1).uppercased() + tag.rawValue.dropFirst()
        let values = Set(songs.compactMap { (song: Song) -> String? in
            switch tag {
            case .artist: return song.artist
            case .album: return song.album
            default: return song.title
            }
        })
        for v in values.sorted() { field(String(label), v) }
    }
}
