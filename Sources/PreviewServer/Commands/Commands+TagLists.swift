import PreviewCore

extension Commands {
    // `list TAG [FILTER] [group TAG]...` and `count FILTER [group TAG]`:
    // tag values and totals over the database (the Library) or, with a
    // filter, over what `find` finds.

    static func handleList(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let request = try TagList(call.args)
        databaseSongs(request.filter, s).run { result in
            call.answer(result) { songs in
                for line in request.lines(for: songs) { call.reply.field(line.key, line.value) }
            }
        }
        return .pending
    }

    static func handleCount(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        var args = call.args
        var group: TagType?
        if args.count >= 2, args[args.count - 2] == "group" {
            guard let tag = TagType(name: args[args.count - 1]) else {
                throw ProtocolError(.argument, "Unknown tag type: \(args[args.count - 1])")
            }
            group = tag
            args.removeLast(2)
        }
        let filter = args.isEmpty && group != nil ? nil : try SongFilter.parse(args, foldCase: false)
        databaseSongs(filter, s).run { result in
            call.answer(result) { songs in
                guard let group else { return call.reply.totals(songs) }
                for (value, inside) in TagList.grouped(songs, by: group) {
                    call.reply.field(group.mpdName, value)
                    call.reply.totals(inside)
                }
            }
        }
        return .pending
    }

    /// The songs of the database `filter` selects: the Library's matches,
    /// then the catalog's (a Deezer search) not already among them. Without
    /// a filter: the whole Library. When the catalog cannot answer, the
    /// Library's matches still do; with none, its error is the answer.
    /// - Parameter wanted: results needed (a `window`'s end), so that the
    ///   catalog reads as many pages; nil for one page.
    static func databaseSongs(_ filter: SongFilter?, _ s: Services, wanted: Int? = nil) -> Later<Result<[Song], ProtocolError>> {
        let saved = s.library.songs
        guard let filter else { return .now(.success(saved)) }
        // `(base 'Top Picks/03 Discovery - Daft Punk')`: that entry's songs.
        if let base = filter.requirements.first(where: { $0.0 == .base })?.1, let songs = treePathSongs(base, s) {
            return songs.map { $0.map { $0.filter { filter.matches($0, baseHolds: true, added: s.library.added) } } }
        }
        let mine = saved.filter { filter.matches($0, added: s.library.added) }
        if filter.needsLibrary { return .now(.success(mine)) }
        return s.catalog.search(filter, wanted: wanted.map { max(0, $0 - mine.count) }).map { result in
            switch result {
            case .failure(let e): return mine.isEmpty ? .failure(e) : .success(mine)
            case .success(let found):
                let known = Set(mine.map(\.uri))
                return .success(mine + found.filter { !known.contains($0.uri) })
            }
        }
    }
}

extension Reply {
    /// `count`'s totals: `songs` and `playtime` (whole seconds).
    fileprivate mutating func totals(_ songs: [Song]) {
        field("songs", songs.count)
        field("playtime", Int(clamping: songs.compactMap(\.duration).reduce(0, +)))
    }
}
