import FoundationEssentials
@testable import PreviewCore
import Testing
@testable import PreviewStorage

/// `state.json`'s queue is written by hand (`QueueJSON`); `JSONDecoder`
/// must read it back as the very value, as it reads `JSONEncoder`'s.
@Suite struct QueueJSONTests {
    /// Every field set somewhere, the optional ones unset elsewhere, and
    /// strings that need escaping.
    private static let queue: [QueuedSong] = {
        var full = Song(
            uri: "deezer:track:3135556", title: "Quote \" back\\slash\ttab\nline \u{01} é ♫",
            artist: "Daft Punk", album: "Discovery", duration: 29.987_5)
        full.addedTags = [TagValue(name: "Comment", value: "a/b"), TagValue(name: "Genre", value: "")]
        full.track = 4
        full.disc = 1
        full.albumTags = AlbumTags(
            id: 302127, artist: "Daft Punk", date: "2001-03-07", genres: ["Dance", "Électro"],
            label: "Daft Life", trackCount: 14, complete: true)
        full.unplayable = "deezer:track:3135556 has no preview"
        var entry = QueuedSong(id: 7, song: full, priority: 255, version: 4_000_000_000)
        entry.range = SongRange(start: 1.5, end: 1e-5)
        var open = QueuedSong(id: 8, song: Song(uri: "http://cdn.test/a.mp3"), version: 2)
        open.range = SongRange(start: 0.1, end: nil)
        var partial = Song(uri: "deezer:track:1", duration: 30)
        partial.albumTags = AlbumTags(id: nil, complete: false)
        return [entry, open, QueuedSong(id: 9, song: partial)]
    }()

    private static let state = SavedState(
        queue: queue, queueVersion: 12, nextID: 10, current: 8, state: .pause,
        elapsed: 3.25, modes: PlaybackModes(), volume: 40, outputEnabled: true,
        replayGainMode: "track", crossfade: 3)

    @Test func readsBackAsTheSameState() throws {
        let read = try JSONDecoder().decode(SavedState.self, from: Data(try QueueJSONTests.state.json()))
        #expect(read == QueueJSONTests.state)
    }

    @Test func readsBackAsJSONEncodersDoes() throws {
        var bytes: [UInt8] = []
        try QueueJSON.write(QueueJSONTests.queue, into: &bytes)
        let byHand = try JSONDecoder().decode([QueuedSong].self, from: Data(bytes))
        let byEncoder = try JSONDecoder().decode([QueuedSong].self, from: JSONEncoder().encode(QueueJSONTests.queue))
        #expect(byHand == byEncoder)
        #expect(byHand == QueueJSONTests.queue)
    }

    @Test func anEmptyQueueIsAnEmptyArray() throws {
        var bytes: [UInt8] = []
        try QueueJSON.write([], into: &bytes)
        #expect(bytes == Array("[]".utf8))
    }

    @Test func aNumberJSONCannotSayIsRefused() {
        let song = QueuedSong(id: 1, song: Song(uri: "x", duration: .infinity))
        var bytes: [UInt8] = []
        #expect(throws: QueueJSON.Unwritable.self) { try QueueJSON.write([song], into: &bytes) }
    }
}
