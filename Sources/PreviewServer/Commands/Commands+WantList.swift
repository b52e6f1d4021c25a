import PreviewCore
import PreviewPlatform
import PreviewStorage

extension Commands {
    // The Want to Listen list: albums and tracks to hear later, newest first.

    /// wantadd URI: the album or track is looked up first (as `libraryadd`
    /// does), so that an id Deezer does not know is refused with the
    /// catalog's ACK instead of sitting in the list (where Listen Now would
    /// take it for the newest album); adding one already there changes
    /// nothing and says so.
    static func handleWantadd(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let uri = try WantList.item(call.args[0])
        guard !s.wants.contains(uri) else {
            call.reply.field("unchanged", "\(uri) is already in the want list")
            return .done
        }
        whenKnown(uri, s, call) {
            if try s.wants.add(uri, at: Int(s.controller.clock.wall())) {
                s.controller.changed(.storedPlaylist)
            } else {
                call.reply.field("unchanged", "\(uri) is already in the want list")
            }
        }
        return .pending
    }

    /// Runs `add` once the catalog knows `uri`, then finishes `call`; the
    /// catalog's refusal (`.noExist` "…: not found", a busy Deezer) or an
    /// error `add` throws finishes it instead.
    private static func whenKnown(_ uri: String, _ s: Services, _ call: CommandCall, add: @escaping () throws -> Void) {
        let item: CatalogURI
        do { item = try CatalogURI(parsing: uri) } catch {
            call.finish(error)
            return
        }
        s.libraryUpdater.resolve(item).run { result in
            do {
                _ = try result.get()
                try add()
                call.finish(nil)
            } catch {
                call.finish(error)
            }
        }
    }

    static func handleWantrm(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let wants = s.wants
        let uri = try WantList.item(call.args[0])
        guard try wants.remove(uri) else { throw ProtocolError(.noExist, "\(uri) is not in the want list") }
        s.controller.changed(.storedPlaylist)
        return .done
    }

    /// wanttoggle URI: removes it when there, else adds it once the
    /// catalog knows it (as `wantadd`); `wanted: 1|0` says which.
    static func handleWanttoggle(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        let wants = s.wants
        let uri = try WantList.item(call.args[0])
        guard !wants.contains(uri) else {
            _ = try wants.remove(uri)
            call.reply.field("wanted", 0)
            c.changed(.storedPlaylist)
            return .done
        }
        whenKnown(uri, s, call) {
            _ = try wants.add(uri, at: Int(c.clock.wall()))
            call.reply.field("wanted", 1)
            c.changed(.storedPlaylist)
        }
        return .pending
    }

    /// wantlist: newest first, each with its tags (from the catalog, cached).
    static func handleWantlist(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let wants = s.wants
        let entries = wants.entries
        s.catalog.describe(entries.map(\.uri)) { details in
            for (entry, description) in zip(entries, details) {
                switch description {
                case .track(let song): call.reply.song(song, tags: .all)
                case .album(let album): call.reply.album(album)
                case .unknownAlbum(let uri): call.reply.field("album", uri)
                case .unknown(let uri): call.reply.field("file", uri)
                }
                call.reply.field("added", SystemClock.iso8601(entry.added))
            }
            call.finish(nil)
        }
        return .pending
    }

    /// wantplay [URI]: queue the whole list (or one entry) and play it.
    static func handleWantplay(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        let wants = s.wants
        var uris = wants.entries.map(\.uri)
        if let one = call.args.first {
            let uri = try WantList.item(one)
            guard wants.contains(uri) else { throw ProtocolError(.noExist, "\(uri) is not in the want list") }
            uris = [uri]
        }
        guard !uris.isEmpty else { throw ProtocolError(.noExist, "the want list is empty") }
        let first = c.queueLength
        c.addAll(uris) { result in
            switch result {
            case .failure(let e): call.finish(e)
            case .success:
                do {
                    try c.play(position: first)
                    c.whenAudible { call.finish(nil) }
                } catch {
                    call.finish(error)
                }
            }
        }
        return .pending
    }
}
