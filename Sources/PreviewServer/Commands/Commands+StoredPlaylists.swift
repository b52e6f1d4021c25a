import PreviewCore
import PreviewPlatform

// Stored playlists: M3U files in the state directory. Every change notifies
// `stored_playlist` idlers.
extension Commands {
    // Reading stored playlists: the list of them, one's songs (URIs or
    // full records, optionally a window of them), and `load` into the queue.

    static func handleListplaylists(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let store = s.playlists
        for entry in store.list() {
            call.reply.field("playlist", entry.name)
            call.reply.field("Last-Modified", SystemClock.iso8601(entry.modified))
        }
        return .done
    }

    static func handleListplaylist(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        try withPlaylistSongs(call, s) { songs, window in
            for i in window { call.reply.field("file", songs[i].uri) }
        }
    }

    static func handleListplaylistinfo(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        try withPlaylistSongs(call, s) { songs, window in
            for i in window { call.reply.song(songs[i], tags: call.session.tags) }
        }
    }

    static func handleLoad(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let position = call.args.count > 2 ? try Arguments.position(call.args[2]) : nil
        return try withPlaylistSongs(call, s) { songs, window in
            _ = try s.controller.insert(Array(songs[window]), at: position)
        }
    }

    /// Runs `body` with the songs of the playlist `call.args[0]` names and
    /// the window `call.args[1]` picks: a stored playlist's at once, an
    /// entry of the catalog tree's (`Top Picks/03 Discovery - Daft Punk`,
    /// as mpd lists a playlist file of its music directory) once fetched.
    private static func withPlaylistSongs(
        _ call: CommandCall, _ s: Services,
        _ body: @escaping ([Song], Range<Int>) throws -> Void
    ) throws -> CommandOutcome {
        let apply = { (songs: [Song]) throws in
            try body(songs, call.args.count > 1 ? try range(call.args[1], count: songs.count) : songs.indices)
        }
        guard let later = treePathSongs(call.args[0], s) else {
            try apply(try s.playlists.load(call.args[0]))
            return .done
        }
        later.run { result in
            switch result {
            case .failure(let e): call.finish(e)
            case .success(let songs): call.finish { try apply(songs) }
            }
        }
        return .pending
    }

    // Filling stored playlists: `save` from the queue (create, replace or
    // append), `playlistadd` from the catalog (resolved first, so it
    // answers later).

    static func handleSave(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        let store = s.playlists
        let name = call.args[0]
        try M3U.checkName(name)
        let current = c.queuedSongs.map(\.song)
        switch call.args.count > 1 ? call.args[1] : "create" {
        case "create":
            guard !store.exists(name) else { throw ProtocolError(.exist, "Playlist already exists") }
            try store.store(name, current)
        case "replace":
            try store.store(name, current)
        case "append":
            let old = store.exists(name) ? try store.load(name) : []
            try store.store(name, old + current)
        default:
            throw ProtocolError(.argument, "Unrecognized save mode, expected one of create, append, replace")
        }
        c.changed(.storedPlaylist)
        return .done
    }

    static func handlePlaylistadd(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let store = s.playlists
        let name = call.args[0]
        try M3U.checkName(name)
        let position = call.args.count > 2 ? try Arguments.unsigned(call.args[2]) : nil
        let songs: Later<Result<[Song], ProtocolError>>
        if let tree = treePathSongs(call.args[1], s) {
            songs = tree
        } else {
            let uri = try CatalogURI(parsing: call.args[1])
            songs = Later { done in s.catalog.songs(for: uri, completion: done) }
        }
        songs.run { result in
            do {
                let added = try result.get()
                var songs = store.exists(name) ? try store.load(name) : []
                let at = position ?? songs.count
                guard at <= songs.count else { throw ProtocolError(.argument, "Bad position") }
                songs.insert(contentsOf: added, at: at)
                try store.store(name, songs)
                s.controller.changed(.storedPlaylist)
                call.finish(nil)
            } catch {
                call.finish(error)
            }
        }
        return .pending
    }

    // Changing stored playlists in place: clearing, deleting and moving
    // songs, renaming and removing the playlist.

    static func handlePlaylistclear(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let store = s.playlists
        _ = try store.load(call.args[0])  // mpd refuses to clear a missing playlist
        try store.store(call.args[0], [])
        s.controller.changed(.storedPlaylist)
        return .done
    }

    static func handlePlaylistdelete(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let store = s.playlists
        var songs = try store.load(call.args[0])
        let window = try range(call.args[1], count: songs.count)
        guard !window.isEmpty else { throw ProtocolError(.argument, "Bad song index") }
        songs.removeSubrange(window)
        try store.store(call.args[0], songs)
        s.controller.changed(.storedPlaylist)
        return .done
    }

    static func handlePlaylistmove(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let store = s.playlists
        var songs = try store.load(call.args[0])
        let from = try Arguments.unsigned(call.args[1])
        let to = try Arguments.unsigned(call.args[2])
        guard from < songs.count, to < songs.count else { throw ProtocolError(.argument, "Bad range") }
        songs.insert(songs.remove(at: from), at: to)
        try store.store(call.args[0], songs)
        s.controller.changed(.storedPlaylist)
        return .done
    }

    static func handleRename(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let store = s.playlists
        try store.rename(call.args[0], to: call.args[1])
        s.controller.changed(.storedPlaylist)
        return .done
    }

    static func handleRm(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let store = s.playlists
        try store.remove(call.args[0])
        s.controller.changed(.storedPlaylist)
        return .done
    }
}
