import PreviewCatalog
import PreviewCore

extension Commands {
    // `catalognow`: Listen Now's sections, each opened by `section: TITLE`
    // and holding album records (`album: deezer:album:ID`) or songs
    // (`file: deezer:track:ID`); a want-list entry the catalog cannot
    // describe is `file:` or `album:` with its URI alone.

    static func handleCatalognow(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        ListenNow.build(s.catalog, library: Array(s.library.entries), wants: s.wants.entries).run { sections in
            for section in sections {
                call.reply.field("section", section.title)
                for entry in section.entries { call.reply.listenNowEntry(entry, tags: call.session.tags) }
            }
            call.finish(nil)
        }
        return .pending
    }

    /// `lsinfo deezer:now`: the sections as directories (`deezer:picks`,
    /// `deezer:releases`, `deezer:morelike`, `deezer:wantlist`);
    /// `lsinfo deezer:morelike`: the "More like" albums as directories.
    /// Answers false for any other URI.
    static func listenNowListing(_ uri: String, _ call: CommandCall, _ s: Services) -> Bool {
        let seed = ListenNow.seed(library: Array(s.library.entries), wants: s.wants.entries)
        switch uri {
        case "deezer:now":
            // Fixed names: listing them asks the catalog nothing.
            for d in ["deezer:picks", "deezer:releases"] + (seed == nil ? [] : ["deezer:morelike"]) + ["deezer:wantlist"] {
                call.reply.field("directory", d)
            }
            call.finish(nil)
        case "deezer:morelike":
            ListenNow.moreLike(s.catalog, seed).run { section in
                for case .album(let album) in section?.entries ?? [] { call.reply.field("directory", "deezer:album:\(album.id)") }
                call.finish(nil)
            }
        default: return false
        }
        return true
    }
}

extension Reply {
    fileprivate mutating func listenNowEntry(_ entry: ListenNow.Entry, tags: TagSelection) {
        switch entry {
        case .album(let album): self.album(album)
        case .song(let song): self.song(song, tags: tags)
        case .unknown(let uri): field(uri.hasPrefix("deezer:album:") ? "album" : "file", uri)
        }
    }
}
