import PreviewCore

extension Commands {
    /// MPD's database view, mapped onto the Deezer catalog: browsing,
    /// searching (a Deezer search, then MPD's filter on the results),
    /// listing tags, and album art.
    static func registerDatabase(_ t: inout CommandTable, _ s: Services) {
        let c = s.controller
        let store = s.playlists
        t.register("lsinfo", 0, 1) { call throws(ProtocolError) in
            let uri = call.args.first ?? ""
            if uri.isEmpty || uri == "/" {
                call.reply.field("directory", "deezer:chart")
                call.reply.field("directory", "deezer:wantlist")
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
            let item: CatalogURI
            do { item = try CatalogURI(parsing: uri) } catch { throw ProtocolError(.noExist, "No such directory") }
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
        for (name, fold) in [("find", false), ("search", true)] {
            t.register(name, 1, nil) { call throws(ProtocolError) in
                let q = try SearchArguments(call.args, foldCase: fold, allowPosition: false)
                c.catalog.search(q.filter) { result in
                    switch result {
                    case .failure(let e): call.finish(e)
                    case .success(let songs):
                        for song in q.window(songs) { call.reply.song(song, tags: call.session.tags) }
                        call.finish(nil)
                    }
                }
                return .pending
            }
        }
        for (name, fold) in [("findadd", false), ("searchadd", true)] {
            t.register(name, 1, nil) { call throws(ProtocolError) in
                let q = try SearchArguments(call.args, foldCase: fold, allowPosition: true)
                if let position = q.position { _ = try c.resolve(position) }
                c.catalog.search(q.filter) { result in
                    do throws(ProtocolError) {
                        _ = try c.insert(q.window(try result.get()), at: q.position)
                        call.finish(nil)
                    } catch {
                        call.finish(error)
                    }
                }
                return .pending
            }
        }
        t.register("searchaddpl", 2, nil) { call throws(ProtocolError) in
            let name = call.args[0]
            try M3U.checkName(name)
            let q = try SearchArguments(Array(call.args.dropFirst()), foldCase: true, allowPosition: false)
            c.catalog.search(q.filter) { result in
                do throws(ProtocolError) {
                    let found = q.window(try result.get())
                    let old = store.exists(name) ? try store.load(name) : []
                    try store.store(name, old + found)
                    c.changed(.storedPlaylist)
                    call.finish(nil)
                } catch {
                    call.finish(error)
                }
            }
            return .pending
        }
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
            let label = tag.rawValue.prefix(1).uppercased() + tag.rawValue.dropFirst()
            let finish = { (result: Result<[Song], ProtocolError>) in
                do throws(ProtocolError) {
                    let songs = try result.get().filter { filter?.matches($0) ?? true }
                    let values = Set(songs.compactMap { (song: Song) -> String? in
                        switch tag {
                        case .artist: return song.artist
                        case .album: return song.album
                        default: return song.title
                        }
                    })
                    for v in values.sorted() { call.reply.field(String(label), v) }
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
        for name in ["update", "rescan"] {
            // The catalog is Deezer's: there is nothing to scan. Clients still
            // get a job id, and `update` idlers hear about it.
            t.register(name, 0, 1) { call in
                call.reply.field("updating_db", c.startUpdateJob())
                return .done
            }
        }
        for name in ["albumart", "readpicture"] {
            t.register(name, 2, 2) { call throws(ProtocolError) in
                let offset = try Arguments.unsigned(call.args[1])
                let uri = call.args[0]
                c.catalog.cover(for: uri) { result in
                    switch result {
                    case .failure(let e):
                        // readpicture answers an empty OK when a song has no picture.
                        if name == "readpicture", e.code == .noExist { call.finish(nil) } else { call.finish(e) }
                    case .success(let picture):
                        let bytes = picture.bytes
                        guard offset <= bytes.count else {
                            call.finish(ProtocolError(.argument, name == "albumart" ? "Offset too large" : "Bad file offset"))
                            return
                        }
                        call.reply.field("size", bytes.count)
                        if name == "readpicture", let type = picture.type { call.reply.field("type", type) }
                        let start = min(offset, bytes.count)
                        let end = min(bytes.count, start + call.session.binaryLimit)
                        call.reply.binary(bytes[start..<end])
                        call.finish(nil)
                    }
                }
                return .pending
            }
        }
    }
}

/// `FILTER [sort TAG] [window START:END] [position POS]`.
private struct SearchArguments {
    let filter: SongFilter
    var window: Range<Int>?
    var position: Arguments.Position?

    init(_ args: [String], foldCase: Bool, allowPosition: Bool) throws(ProtocolError) {
        var rest = args
        var window: Range<Int>?
        var position: Arguments.Position?
        while rest.count >= 3 || (rest.count == 2 && rest[0].hasPrefix("(")) {
            let key = rest[rest.count - 2]
            let value = rest[rest.count - 1]
            switch key {
            case "sort": break  // Deezer's relevance order is kept
            case "window":
                do { window = try Arguments.range(value) } catch { throw error.protocolError }
            case "position" where allowPosition: position = try Arguments.position(value)
            default:
                filter = try SongFilter.parse(rest, foldCase: foldCase)
                self.window = window
                self.position = position
                return
            }
            rest.removeLast(2)
        }
        filter = try SongFilter.parse(rest, foldCase: foldCase)
        self.window = window
        self.position = position
    }

    func window(_ songs: [Song]) -> [Song] {
        guard let window else { return songs }
        let lo = min(window.lowerBound, songs.count)
        return Array(songs[lo..<min(window.upperBound, songs.count)])
    }
}
