import PreviewCore
import PreviewTestSupport
import Testing
@testable import PreviewServer

/// The discovery commands (`catalogchart` with a window and a genre,
/// `catalogeditorial`, `catalogradios`, `catalogrelated` of albums and
/// tracks) and the discovery directories of `lsinfo`, on the recorded
/// Deezer bodies (the harness answers by path; the query is not used).
@Suite struct DiscoveryTests {
    /// The lines of a reply whose key is `key`, values only.
    func values(_ reply: String, _ key: String) -> [String] {
        reply.split(separator: "\n").compactMap { line in
            line.hasPrefix(key + ": ") ? String(line.dropFirst(key.count + 2)) : nil
        }
    }

    @Test func aChartPageOfAKindWithItsTotal() {
        let h = Harness()
        let c = h.connect()
        let reply = h.send(c, "catalogchart albums limit 3 index 3\n")
        // The stand-in ignores the window: three of what it answered, and Deezer's total (9).
        #expect(values(reply, "album").count == 3)
        #expect(values(reply, "total") == ["9"])
        #expect(h.requested == ["http://api.test/chart/0/albums?index=3&limit=3"])
    }

    @Test func aGenreNameIsLookedUpOnceAndAnUnknownOneListsCloseNames() {
        let h = Harness()
        let c = h.connect()
        // /chart/2 was recorded, /chart/2/artists was not: Deezer's "no data", naming the list.
        #expect(
            h.send(c, "catalogchart artists genre \"african music\"\n")
                == "ACK [50@0] {catalogchart} /chart/2/artists (genre \"african music\"): not found (Deezer: no data, error 800)\n")
        #expect(h.send(c, "catalogchart tracks genre rok\n") == "ACK [2@0] {catalogchart} unknown genre \"rok\"; close matches: Rock\n")
        #expect(h.requested.filter { $0.hasSuffix("/genre") }.count == 1)
        #expect(h.send(c, "catalogchart tracks genre 0 limit 0\n") == "ACK [2@0] {catalogchart} limit is 1 to 100\n")
        #expect(
            h.send(c, "catalogchart tracks colour red\n")
                == "ACK [2@0] {catalogchart} unknown word \"colour\" (genre, limit, index)\n")
    }

    @Test func editorialPicksAndReleases() {
        let h = Harness()
        let c = h.connect()
        let picks = h.send(c, "catalogeditorial picks limit 4 index 8\n")
        let selection = Fixtures.ids("editorial-0-selection.json")
        // The selection is one unpaged `{data}`: cut here, its length the total.
        #expect(values(picks, "album") == selection[8...].map { "deezer:album:\($0)" })
        #expect(values(picks, "total") == ["\(selection.count)"])
        let releases = h.send(c, "catalogeditorial releases genre 0 limit 2\n")
        #expect(values(releases, "album").count == 2 && values(releases, "total") == ["58"])
        #expect(h.requested == ["http://api.test/editorial/0/selection", "http://api.test/editorial/0/releases?index=0&limit=2"])
        #expect(
            h.send(c, "catalogeditorial charts\n")
                == "ACK [2@0] {catalogeditorial} editorial lists are picks and releases, not \"charts\"\n")
    }

    @Test func radiosAllTopAndByGenre() {
        let h = Harness()
        let c = h.connect()
        let top = h.send(c, "catalogradios top\n")
        // " Café Louge" comes with a leading space: the title is trimmed.
        #expect(top.contains("radio: deezer:radio:37675\nTitle: Café Louge\n"))
        #expect(values(top, "total") == ["9"])
        let electro = h.send(c, "catalogradios genre electro limit 5 index 30\n")
        #expect(values(electro, "radio") == ["deezer:radio:35255", "deezer:radio:20205"])
        #expect(values(electro, "total") == ["32"])
        #expect(values(h.send(c, "catalogradios limit 100\n"), "radio").count == 100)
        #expect(h.send(c, "catalogradios top genre 106\n") == "ACK [2@0] {catalogradios} give a genre or top, not both\n")
    }

    @Test func relatedToATrackIsItsArtistsRadio() {
        let h = Harness()
        let c = h.connect()
        let reply = h.send(c, "catalogrelated deezer:track:3135556\n")
        #expect(values(reply, "file") == Fixtures.ids("artist-27-radio.json").map { "deezer:track:\($0)" })
        #expect(h.requested == ["http://api.test/track/3135556", "http://api.test/artist/27/radio"])
    }

    @Test func relatedToAnAlbumAsksForAFewArtistsAlbums() {
        let h = Harness()
        let c = h.connect()
        // No album list of Daft Punk's related artists was recorded: each is
        // Deezer's "no data", counted, and the answer is still OK.
        #expect(h.send(c, "catalogrelated deezer:album:302127\n") == "unresolved: 5\nOK\n")
        #expect(h.requested.count == 2 + Commands.relatedAlbumArtists)
        #expect(h.requested.last == "http://api.test/artist/11703/albums?limit=1")
        #expect(
            h.send(c, "catalogrelated deezer:playlist:1\n")
                == "ACK [2@0] {catalogrelated} catalogrelated takes a deezer:artist, album or track URI\n")
    }

    @Test func discoveryDirectories() {
        let h = Harness()
        let c = h.connect()
        let root = h.send(c, "lsinfo\n")
        #expect(values(root, "directory") == CatalogTree.root.map(\.0))
        #expect(values(h.send(c, "lsinfo \"Top Picks\"\n"), "playlist").count == Fixtures.ids("editorial-0-selection.json").count)
        // The URI forms answer as before, for scripts.
        #expect(values(h.send(c, "lsinfo deezer:genres\n"), "directory") == Fixtures.ids("genre.json").map { "deezer:genre:\($0)" })
        #expect(
            values(h.send(c, "lsinfo deezer:picks\n"), "directory")
                == Fixtures.ids("editorial-0-selection.json").map { "deezer:album:\($0)" })
        #expect(values(h.send(c, "lsinfo deezer:radios\n"), "directory") == Fixtures.ids("radio.json").map { "deezer:radio:\($0)" })
        #expect(values(h.send(c, "lsinfo deezer:genre:0\n"), "file") == Fixtures.ids("chart-0-tracks.json").map { "deezer:track:\($0)" })
        #expect(h.send(c, "lsinfo deezer:genre:x\n") == "ACK [50@0] {lsinfo} No such directory\n")
    }

    @Test func anAlbumsDetailsNameItsGenres() {
        let h = Harness()
        let c = h.connect()
        #expect(h.send(c, "cataloginfo deezer:album:302128\n").contains("Type: album\nGenre: Pop\nLabel: Parlophone Spain\n"))
    }
}

extension Fixtures {
    /// The `id` of each item of a recorded body's `data`, in order.
    static func ids(_ name: String) -> [Int] {
        guard let text = read("fixtures/deezer/" + name) else { return [] }
        // The bodies are 2-space JSON (SOURCES.md): an item's own `"id"` is
        // the only one at 6 spaces; nested objects' ids are deeper.
        var out: [Int] = []
        for line in text.split(separator: "\n") where line.hasPrefix("      \"id\": ") {
            out.append(Int(line.dropFirst("      \"id\": ".count).prefix(while: \.isNumber)) ?? -1)
        }
        return out
    }
}
