import PreviewCore

extension Commands {
    // `albumart URI OFFSET` and `readpicture URI OFFSET`: the cover Deezer
    // has for a song's album, sent in chunks of the connection's
    // `binarylimit` bytes from OFFSET. The two differ as in mpd:
    // `readpicture` also sends the picture's `type`, and answers an empty OK
    // (not an ACK) for a song without a picture; the offset errors are worded
    // differently.

    /// `albumart URI OFFSET` and `readpicture URI OFFSET`: the cover of a catalog
    /// item, `binarylimit` bytes from OFFSET at a time; `name` is the command.
    static func handleCover(_ call: CommandCall, _ s: Services, name: String) throws -> CommandOutcome {
        let offset = try Arguments.unsigned(call.args[1])
        let uri = call.args[0]
        // An entry of the catalog tree: its item's cover (a genre chart and
        // the wanted tracks have none of their own).
        if CatalogTree.isTreePath(uri), CatalogTree.section(uri) == nil {
            resolveTreeItem(uri, s) { result in
                switch result {
                case .success(.catalog(let item)): sendCover(of: item.text, call, s, offset: offset, name: name)
                case .success: call.finish(name == "readpicture" ? nil : ProtocolError(.noExist, "No cover"))
                case .failure(let e): call.finish(e)
                }
            }
            return .pending
        }
        sendCover(of: uri, call, s, offset: offset, name: name)
        return .pending
    }

    private static func sendCover(of uri: String, _ call: CommandCall, _ s: Services, offset: Int, name: String) {
        s.catalog.cover(for: uri) { result in
            switch result {
            case .failure(let e):
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
    }
}
