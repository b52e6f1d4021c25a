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
        let store = s.playlists
        let songs = try store.load(call.args[0])
        let window = call.args.count > 1 ? try range(call.args[1], count: songs.count) : songs.indices
        for i in window { call.reply.field("file", songs[i].uri) }
        return .done
    }

    static func handleListplaylistinfo(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let store = s.playlists
        let songs = try store.load(call.args[0])
        let window = call.args.count > 1 ? try range(call.args[1], count: songs.count) : songs.indices
        for i in window { call.reply.song(songs[i], tags: call.session.tags) }
        return .done
    }

    static func handleLoad(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let store = s.playlists
        let songs = try store.load(call.args[0])
        let window = call.args.count > 1 ? try range(call.args[1], count: songs.count) : songs.indices
        let position = call.args.count > 2 ? try Arguments.position(call.args[2]) : nil
        _ = try s.controller.insert(Array(songs[window]), at: position)
        return .done
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
        let uri = try CatalogURI(parsing: call.args[1])
        s.catalog.songs(for: uri) { result in
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
