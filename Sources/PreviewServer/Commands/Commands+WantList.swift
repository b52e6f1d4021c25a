import PreviewCore
import PreviewPlatform
import PreviewStorage

extension Commands {
    // The Want to Listen list: albums and tracks to hear later, newest first.

    /// wantadd URI: adding one already there changes nothing and says so.
    static func handleWantadd(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        let wants = s.wants
        let uri = try WantList.item(call.args[0])
        if try wants.add(uri, at: Int(c.clock.wall())) {
            c.changed(.storedPlaylist)
        } else {
            call.reply.field("unchanged", "\(uri) is already in the want list")
        }
        return .done
    }

    static func handleWantrm(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let wants = s.wants
        let uri = try WantList.item(call.args[0])
        guard try wants.remove(uri) else { throw ProtocolError(.noExist, "\(uri) is not in the want list") }
        s.controller.changed(.storedPlaylist)
        return .done
    }

    static func handleWanttoggle(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        let wants = s.wants
        let uri = try WantList.item(call.args[0])
        if wants.contains(uri) {
            _ = try wants.remove(uri)
            call.reply.field("wanted", 0)
        } else {
            _ = try wants.add(uri, at: Int(c.clock.wall()))
            call.reply.field("wanted", 1)
        }
        c.changed(.storedPlaylist)
        return .done
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
