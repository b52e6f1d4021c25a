import PreviewCore
import PreviewPlayback

extension Commands {
    // Changing what is queued: adding (catalog URIs resolve first, so
    // `add` and `addid` answer later), deleting, clearing, moving, swapping
    // and shuffling, by position or by song id.

    static func handleAdd(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let position = try call.args.count > 1 ? Arguments.position(call.args[1]) : nil
        add(call.args[0], at: position, s) { result in
            if case .failure(let e) = result { call.finish(e) } else { call.finish(nil) }
        }
        return .pending
    }

    /// Queues what `text` names: a URI through the controller, a path of
    /// the catalog tree (`Top Picks/03 Discovery - Daft Punk`) as its songs.
    static func add(
        _ text: String, at position: Arguments.Position?, _ s: Services,
        _ done: @escaping (Result<[SongID], ProtocolError>) -> Void
    ) {
        guard let songs = treePathSongs(text, s) else { return s.controller.add(uri: text, position: position, completion: done) }
        songs.run { result in
            done(result.flatMap { songs in Result { () throws(ProtocolError) in try s.controller.insert(songs, at: position) } })
        }
    }

    static func handleAddid(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let position = try call.args.count > 1 ? Arguments.position(call.args[1]) : nil
        add(call.args[0], at: position, s) { result in
            switch result {
            case .failure(let e): call.finish(e)
            case .success(let ids):
                for id in ids { call.reply.field("Id", Int(id)) }
                call.finish(nil)
            }
        }
        return .pending
    }

    static func handleDelete(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        try c.delete(positions: try range(call.args[0], count: c.queueLength))
        return .done
    }

    static func handleDeleteid(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        try s.controller.delete(id: try songID(call.args[0]))
        return .done
    }

    static func handleClear(_: CommandCall, _ s: Services) throws -> CommandOutcome {
        s.controller.clear()
        return .done
    }

    static func handleMove(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        let from = try range(call.args[0], count: c.queueLength)
        try c.move(positions: from, to: try moveTarget(c, call.args[1]))
        return .done
    }

    static func handleMoveid(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        guard let from = c.position(of: try songID(call.args[0])) else { throw ProtocolError(.noExist, "No such song") }
        try c.move(positions: from..<(from + 1), to: try moveTarget(c, call.args[1]))
        return .done
    }

    static func handleSwap(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        try s.controller.swap(try Arguments.unsigned(call.args[0]), try Arguments.unsigned(call.args[1]))
        return .done
    }

    static func handleSwapid(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        guard let a = c.position(of: try songID(call.args[0])),
            let b = c.position(of: try songID(call.args[1]))
        else { throw ProtocolError(.noExist, "No such song") }
        try c.swap(a, b)
        return .done
    }

    static func handleShuffle(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        try c.shuffle(positions: call.args.isEmpty ? nil : try range(call.args[0], count: c.queueLength))
        return .done
    }

    // Reading the queue: whole or by position/id window, the changes since
    // a queue version (`plchanges`), and MPD's filter over queued songs.

    static func handlePlaylistinfo(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        var positions = 0..<c.queueLength
        if let arg = call.args.first, arg != "-1" {
            positions = try range(arg, count: c.queueLength)
        }
        call.listing = SongListing(songs: c.queuedSongs, positions: positions, tags: call.session.tags)
        return .done
    }

    static func handlePlaylistid(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        if let arg = call.args.first {
            guard let pos = c.position(of: try songID(arg)) else { throw ProtocolError(.noExist, "No such song") }
            call.reply.song(c.queuedSongs[pos], position: pos, tags: call.session.tags)
        } else {
            call.listing = SongListing(songs: c.queuedSongs, positions: 0..<c.queueLength, tags: call.session.tags)
        }
        return .done
    }

    static func handlePlaylist(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        for (pos, entry) in s.controller.queuedSongs.enumerated() { call.reply.append(raw: "\(pos):file: \(entry.song.uri)\n") }
        return .done
    }

    static func handlePlchanges(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        let since = try Arguments.version(call.args[0])
        let window = call.args.count > 1 ? try range(call.args[1], count: c.queueLength) : 0..<c.queueLength
        for pos in c.queueChanges(since: since) where window.contains(pos) {
            call.reply.song(c.queuedSongs[pos], position: pos, tags: call.session.tags)
        }
        return .done
    }

    static func handlePlchangesposid(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        let since = try Arguments.version(call.args[0])
        let window = call.args.count > 1 ? try range(call.args[1], count: c.queueLength) : 0..<c.queueLength
        for pos in c.queueChanges(since: since) where window.contains(pos) {
            call.reply.field("cpos", pos)
            call.reply.field("Id", Int(c.queuedSongs[pos].id))
        }
        return .done
    }

    /// `playlistfind FILTER` and `playlistsearch FILTER` (`fold`: case folded):
    /// the queued songs that match.
    static func handlePlaylistFind(_ call: CommandCall, _ s: Services, foldCase fold: Bool) throws -> CommandOutcome {
        let filter = try SongFilter.parse(call.args, foldCase: fold)
        for (pos, entry) in s.controller.queuedSongs.enumerated() where filter.matches(entry.song, added: s.library.added) {
            call.reply.song(entry, position: pos, tags: call.session.tags)
        }
        return .done
    }

    // What belongs to one queued song rather than the song: its priority
    // (for random play), the part of it that plays (`rangeid`), and tags
    // set by the client.

    static func handlePrio(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        let priority = try priorityArgument(call.args[0])
        let ranges = try call.args.dropFirst().map { (a) throws(ProtocolError) in try range(a, count: c.queueLength) }
        for r in ranges { for pos in r { c.setPriority(priority, id: c.queuedSongs[pos].id) } }
        return .done
    }

    static func handlePrioid(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        let priority = try priorityArgument(call.args[0])
        let ids = try call.args.dropFirst().map { (a) throws(ProtocolError) in try songID(a) }
        guard ids.allSatisfy({ c.position(of: $0) != nil }) else { throw ProtocolError(.noExist, "No such song") }
        for id in ids { c.setPriority(priority, id: id) }
        return .done
    }

    static func handleRangeid(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let id = try songID(call.args[0])
        try s.controller.setRange(try songRange(call.args[1]), id: id)
        return .done
    }

    static func handleAddtagid(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        try s.controller.setTag(try tagArgument(call.args[1]), value: call.args[2], id: try songID(call.args[0]))
        return .done
    }

    static func handleCleartagid(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        let id = try songID(call.args[0])
        if call.args.count > 1 {
            try c.setTag(try tagArgument(call.args[1]), value: nil, id: id)
        } else {
            for tag in TagType.allCases { try c.setTag(tag, value: nil, id: id) }
        }
        return .done
    }

    private static func moveTarget(_ c: PlayerController, _ text: String) throws(ProtocolError) -> Int {
        switch try Arguments.position(text) {
        case .absolute(let p): return p
        case let relative:
            guard let to = try c.resolve(relative) else { throw ProtocolError(.argument, "Bad song index") }
            return min(to, max(c.queueLength - 1, 0))
        }
    }

    private static func priorityArgument(_ text: String) throws(ProtocolError) -> UInt8 {
        let n = try Arguments.unsigned(text)
        guard n <= 255 else { throw ProtocolError(.argument, "Number too large: \(text)") }
        return UInt8(n)
    }

    /// `START:END` in seconds (either side may be empty); `:` alone clears.
    private static func songRange(_ text: String) throws(ProtocolError) -> SongRange? {
        guard let colon = text.firstIndex(of: ":") else { throw ProtocolError(.argument, "Bad range") }
        let a = String(text[..<colon]), b = String(text[text.index(after: colon)...])
        if a.isEmpty && b.isEmpty { return nil }
        guard a.isEmpty || Double(a) != nil, b.isEmpty || Double(b) != nil else { throw ProtocolError(.argument, "Bad range") }
        let start = a.isEmpty ? 0 : try seconds(a)
        let end = b.isEmpty ? nil : try seconds(b)
        if let end, end <= start { throw ProtocolError(.argument, "Bad range") }
        return SongRange(start: start, end: end)
    }

    private static func tagArgument(_ name: String) throws(ProtocolError) -> TagType {
        guard let tag = TagType(name: name) else {
            throw ProtocolError(.argument, "Unknown tag type: \(name)")
        }
        return tag
    }
}
