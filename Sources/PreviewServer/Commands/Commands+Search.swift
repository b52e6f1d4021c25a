import PreviewCore

extension Commands {
    // MPD's database search over the Deezer catalog: a Deezer search, then
    // MPD's filter on the results. `find`/`search` list the songs,
    // `findadd`/`searchadd` queue them, `searchaddpl` appends them to a
    // stored playlist. The `find` forms match case-sensitively, the
    // `search` forms fold case, as in mpd.

    /// `find`/`search FILTER [sort TAG] [window START:END]`: the catalog songs that
    /// match (`fold`: case folded).
    static func handleFind(_ call: CommandCall, _ s: Services, foldCase fold: Bool) throws -> CommandOutcome {
        let q = try SearchArguments(call.args, foldCase: fold, allowPosition: false)
        databaseSongs(q.filter, s, wanted: q.window?.upperBound).run { result in
            call.answer(result) { songs in
                for song in q.window(songs) { call.reply.song(song, tags: call.session.tags) }
            }
        }
        return .pending
    }

    /// `findadd`/`searchadd FILTER [sort TAG] [window START:END] [position POS]`:
    /// queues the catalog songs that match (`fold`: case folded).
    static func handleFindAdd(_ call: CommandCall, _ s: Services, foldCase fold: Bool) throws -> CommandOutcome {
        let c = s.controller
        let q = try SearchArguments(call.args, foldCase: fold, allowPosition: true)
        if let position = q.position { _ = try c.resolve(position) }
        databaseSongs(q.filter, s, wanted: q.window?.upperBound).run { result in
            call.finish { () throws in _ = try c.insert(q.window(try result.get()), at: q.position) }
        }
        return .pending
    }

    static func handleSearchaddpl(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let store = s.playlists
        let name = call.args[0]
        try M3U.checkName(name)
        let q = try SearchArguments(Array(call.args.dropFirst()), foldCase: true, allowPosition: false)
        databaseSongs(q.filter, s, wanted: q.window?.upperBound).run { result in
            call.finish { () throws in
                let found = q.window(try result.get())
                let old = store.exists(name) ? try store.load(name) : []
                try store.store(name, old + found)
                s.controller.changed(.storedPlaylist)
            }
        }
        return .pending
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
