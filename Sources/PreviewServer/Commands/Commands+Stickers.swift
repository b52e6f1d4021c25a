import PreviewCore
import PreviewStorage

extension Commands {
    // `sticker`: name and value pairs on songs, kept in `sticker.sqlite`
    // (`StickerStore`). A song is named by any form of a Deezer track URI
    // and stored under its canonical one, so a rating given to
    // `https://www.deezer.com/track/3135556` is found as
    // `deezer:track:3135556`. Catalog songs need no lookup: a track id is
    // a song as mpd's database song is one.

    static func handleSticker(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let request = try StickerRequest.parse(call.args)
        let store: StickerStore
        switch s.stickers {
        case .success(let opened): store = opened
        case .failure(let why): throw ProtocolError(.unknown, "sticker database is disabled: \(why)")
        }
        switch request {
        case .get(let uri, let name):
            // As mpd: an empty value reads as no sticker.
            guard let value = try store.value(uri: try stickerSong(uri), name: name), !value.isEmpty else {
                throw ProtocolError(.noExist, "no such sticker")
            }
            call.reply.field("sticker", name + "=" + value)
        case .set(let uri, let name, let value):
            try store.set(uri: try stickerSong(uri), name: name, value: value)
            s.controller.changed(.sticker)
        case .add(let uri, let name, let delta):
            try store.add(uri: try stickerSong(uri), name: name, delta: delta)
            s.controller.changed(.sticker)
        case .delete(let uri, let name):
            guard try store.delete(uri: try stickerSong(uri), name: name) else { throw ProtocolError(.noExist, "no such sticker") }
            s.controller.changed(.sticker)
        case .list(let uri):
            for sticker in try store.list(uri: try stickerSong(uri)) { call.reply.field("sticker", sticker.name + "=" + sticker.value) }
        case .find(let base, let name, let comparison):
            return try stickerFind(call, s, store, base: base, name: name, comparison: comparison)
        }
        return .done
    }

    /// `sticker find song BASE NAME [OP VALUE]`: "" (or "/") searches every
    /// song; the Library, an entry of the catalog tree or a catalog item
    /// (an album, a playlist) its songs, in their order; any other base the
    /// songs stored under it.
    private static func stickerFind(
        _ call: CommandCall, _ s: Services, _ store: StickerStore, base: String, name: String,
        comparison: StickerRequest.Comparison?
    ) throws -> CommandOutcome {
        func write(_ found: [(uri: String, value: String)]) {
            for (uri, value) in found {
                call.reply.field("file", uri)
                call.reply.field("sticker", name + "=" + value)
            }
        }
        let all = { () throws(StorageError) in try store.find(base: "", name: name, comparison: comparison) }
        if base.isEmpty || base == "/" {
            write(try all())
            return .done
        }
        if base == Library.directory {
            write(inOrder(of: s.library.songs, try all()))
            return .done
        }
        if let songs = treePathSongs(base, s) {
            let found = try all()
            songs.run { result in call.answer(result) { write(inOrder(of: $0, found)) } }
            return .pending
        }
        let item: CatalogURI
        switch try? CatalogURI(parsing: base) {
        case .track(let id)?:
            write(try store.find(base: CatalogURI.track(id).text, name: name, comparison: comparison))
            return .done
        case nil, .stream?:
            write(try store.find(base: base, name: name, comparison: comparison))
            return .done
        case let other?: item = other
        }
        let found = try all()
        s.catalog.songs(for: item) { result in
            switch result {
            case .failure(let e): call.finish(e)
            case .success(let songs):
                write(inOrder(of: songs, found))
                call.finish(nil)
            }
        }
        return .pending
    }

    /// The stickers of `found` whose songs are in `songs`, in `songs`' order.
    private static func inOrder(of songs: [Song], _ found: [(uri: String, value: String)]) -> [(uri: String, value: String)] {
        let values = Dictionary(found.map { ($0.uri, $0.value) }, uniquingKeysWith: { a, _ in a })
        var seen = Set<String>()
        return songs.compactMap { song in
            guard seen.insert(song.uri).inserted, let value = values[song.uri] else { return nil }
            return (song.uri, value)
        }
    }

    /// The canonical URI of the song a sticker command names.
    /// - Throws: `.noExist` "No such song" (mpd's words) for anything but a
    ///   Deezer track: a URL or a path is no song of the database.
    private static func stickerSong(_ uri: String) throws(ProtocolError) -> String {
        guard case .track(let id)? = try? CatalogURI(parsing: uri) else { throw ProtocolError(.noExist, "No such song") }
        return CatalogURI.track(id).text
    }
}
