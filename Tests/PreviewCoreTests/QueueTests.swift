import Testing
@testable import PreviewCore

@Suite struct QueueTests {
    func queue(_ n: Int) throws -> Queue {
        var q = Queue()
        for i in 0..<n { try q.add(Song(uri: "u\(i)")) }
        return q
    }

    @Test func idsAreStableAndNeverReused() throws {
        var q = try queue(3)
        #expect(q.songs.map(\.id) == [1, 2, 3])
        try q.remove(positions: 0..<1)
        let id = try q.add(Song(uri: "x"))
        #expect(id == 4)
        #expect(q.position(of: 2) == 0)
        #expect(q.position(of: 4) == 2)
    }

    @Test func versionCountsEveryChange() throws {
        var q = try queue(2)
        #expect(q.version == 3)
        q.removeAll()
        #expect(q.version == 4)
        q.removeAll()
        #expect(q.version == 5)
    }

    @Test func insertAtPosition() throws {
        var q = try queue(3)
        let id = try q.add(Song(uri: "new"), at: 1)
        #expect(q.songs.map(\.song.uri) == ["u0", "new", "u1", "u2"])
        #expect(q.position(of: id) == 1)
        #expect(q.position(of: 3) == 3)
        #expect(throws: ProtocolError(.argument, "Bad song index")) { try q.add(Song(uri: "y"), at: 9) }
    }

    @Test func moveFollowsMPD() throws {
        var q = try queue(5)
        try q.move(positions: 0..<2, to: 3)
        #expect(q.songs.map(\.song.uri) == ["u2", "u3", "u4", "u0", "u1"])
        #expect(q.position(of: 1) == 3)
        #expect(throws: ProtocolError(.argument, "Number too large: 5")) { try q.move(positions: 0..<1, to: 5) }
        #expect(throws: ProtocolError(.argument, "Bad song index")) { try q.move(positions: 5..<6, to: 0) }
    }

    @Test func removeRangeClampsEnd() throws {
        var q = try queue(4)
        let removed = try q.remove(positions: 2..<Int.max)
        #expect(removed == [3, 4])
        #expect(throws: ProtocolError(.argument, "Bad song index")) { try q.remove(positions: 5..<6) }
    }

    @Test func shuffleIsAPermutation() throws {
        var q = try queue(50)
        var rng = SplitMix64(seed: 42)
        try q.shuffle(using: &rng)
        #expect(Set(q.songs.map(\.id)) == Set(1...50))
        #expect(q.songs.map(\.id) != Array(1...50))
        for (pos, s) in q.songs.enumerated() { #expect(q.position(of: s.id) == pos) }
    }

    @Test func maxLength() throws {
        var q = Queue(maxLength: 2)
        try q.add(Song(uri: "a"))
        try q.add(Song(uri: "b"))
        #expect(throws: ProtocolError(.playlistMax, "Playlist is too large")) { try q.add(Song(uri: "c")) }
    }
}
