import Testing
@testable import PreviewCore

@Suite struct PlayerTests {
    func setup(_ n: Int) throws -> (Player, Queue) {
        var q = Queue()
        for i in 0..<n { try q.add(Song(uri: "u\(i)")) }
        return (Player(seed: 1), q)
    }

    @Test func playNextToTheEndThenStop() throws {
        var (p, q) = try setup(2)
        #expect(try p.play(position: nil, in: q) == [.start(1)])
        #expect(p.nextSong(in: q) == 2)
        #expect(p.songFinished(in: q) == [.start(2)])
        #expect(p.nextSong(in: q) == nil)
        #expect(p.songFinished(in: q) == [.halt])
        #expect(p.state == .stop)
    }

    @Test func repeatWraps() throws {
        var (p, q) = try setup(2)
        p.setRepeat(true)
        _ = try p.play(position: 1, in: q)
        #expect(p.next(in: q) == [.start(1)])
    }

    @Test func previousAtFirstRestarts() throws {
        var (p, q) = try setup(2)
        _ = try p.play(position: 0, in: q)
        #expect(p.previous(in: q) == [.start(1)])
    }

    @Test func pauseToggleAndStop() throws {
        var (p, q) = try setup(1)
        #expect(p.pause(nil, in: q) == [])
        _ = try p.play(position: 0, in: q)
        #expect(p.pause(nil, in: q) == [.setPaused(true)])
        #expect(p.pause(true, in: q) == [])
        #expect(try p.play(position: nil, in: q) == [.setPaused(false)])
        #expect(p.stop() == [.halt])
        #expect(p.current == 1)
    }

    @Test func badIndexes() throws {
        var (p, q) = try setup(1)
        #expect(throws: ProtocolError(.argument, "Bad song index")) { try p.play(position: 3, in: q) }
        #expect(throws: ProtocolError(.noExist, "No such song")) { try p.play(id: 9, in: q) }
    }

    @Test func songAfterCurrentIsWhereSongFinishedGoes() throws {
        var (p, q) = try setup(2)
        #expect(p.songAfterCurrent(in: q) == nil, "stopped")
        _ = try p.play(position: 0, in: q)
        #expect(p.songAfterCurrent(in: q) == 2)
        p.setSingle(.on)
        #expect(p.songAfterCurrent(in: q) == nil, "single: playback stops, though nextsong names 2")
        #expect(p.nextSong(in: q) == 2)
        p.setRepeat(true)
        #expect(p.songAfterCurrent(in: q) == 1)
        p.setSingle(.oneshot)
        #expect(p.songAfterCurrent(in: q) == nil)
        #expect(p.modes.single == .oneshot, "asking changes nothing")
        p.setSingle(.off)
        _ = try p.play(position: 1, in: q)
        #expect(p.songAfterCurrent(in: q) == 1, "repeat wraps")
        p.setRepeat(false)
        #expect(p.songAfterCurrent(in: q) == nil)
        #expect(p.songFinished(in: q) == [.halt])
    }

    @Test func singleStopsAndOneshotResets() throws {
        var (p, q) = try setup(3)
        p.setSingle(.oneshot)
        _ = try p.play(position: 0, in: q)
        #expect(p.songFinished(in: q) == [.halt])
        #expect(p.modes.single == .off)
        p.setSingle(.on)
        p.setRepeat(true)
        _ = try p.play(position: 1, in: q)
        #expect(p.songFinished(in: q) == [.start(2)])
    }

    @Test func failureSkipsEvenInSingleRepeat() throws {
        var (p, q) = try setup(2)
        p.setSingle(.on)
        p.setRepeat(true)
        _ = try p.play(position: 0, in: q)
        #expect(p.songFailed(in: q) == [.start(2)])
    }

    @Test func consumeRemovesPlayedSong() throws {
        var (p, q) = try setup(2)
        p.setConsume(true)
        _ = try p.play(position: 0, in: q)
        #expect(p.songFinished(in: q) == [.remove(1), .start(2)])
    }

    @Test func randomOrderVisitsEverySongOnce() throws {
        var (p, q) = try setup(20)
        _ = try p.play(position: 5, in: q)
        p.setRandom(true, in: q)
        #expect(p.randomOrder.first == 6)
        var seen: [SongID] = [6]
        while case .start(let id)? = p.songFinished(in: q).first { seen.append(id) }
        #expect(Set(seen) == Set(1...20))
        #expect(seen.count == 20)
    }

    @Test func deletingCurrentPlaysTheSongInItsPlace() throws {
        var (p, q) = try setup(3)
        _ = try p.play(position: 1, in: q)
        let removed = try q.remove(positions: 1..<2)
        #expect(p.songsRemoved(removed, formerPosition: 1, in: q) == [.start(3)])
        let last = try q.remove(positions: 1..<2)
        #expect(p.songsRemoved(last, formerPosition: 1, in: q) == [.halt])
    }
}

@Suite struct PriorityTests {
    @Test func higherPrioritiesPlayFirstInRandomMode() throws {
        var q = Queue()
        for i in 0..<10 { try q.add(Song(uri: "u\(i)")) }
        var p = Player(seed: 3)
        _ = try p.play(position: 0, in: q)
        p.setRandom(true, in: q)
        q.update(id: 7) { $0.priority = 200 }
        q.update(id: 4) { $0.priority = 100 }
        p.prioritiesChanged(in: q)
        #expect(p.randomOrder.first == 1)
        #expect(Array(p.randomOrder[1...2]) == [7, 4])
        #expect(Set(p.randomOrder) == Set(1...10))
        #expect(p.songFinished(in: q) == [.start(7)])
    }
}

@Suite struct PreviousRestartTests {
    @Test func previousRestartsAfterThreshold() throws {
        var q = Queue()
        for i in 0..<3 { try q.add(Song(uri: "u\(i)")) }
        var p = Player(seed: 1)
        _ = try p.play(position: 1, in: q)
        #expect(p.previous(in: q, elapsed: 5, restartAfter: 3) == [.start(2)])
        #expect(p.previous(in: q, elapsed: 1, restartAfter: 3) == [.start(1)])
        _ = try p.play(position: 1, in: q)
        #expect(p.previous(in: q, elapsed: 5, restartAfter: 0) == [.start(1)])
    }
}

extension PlayerTests {
    @Test func upcomingFollowsPlayOrderAndWrapsOnlyWithRepeat() throws {
        var (p, q) = try setup(4)
        #expect(p.upcoming(2, in: q) == [], "stopped")
        _ = try p.play(position: 2, in: q)
        #expect(p.upcoming(2, in: q) == [4])
        p.setRepeat(true)
        #expect(p.upcoming(2, in: q) == [4, 1])
        #expect(p.upcoming(9, in: q) == [4, 1, 2], "each song once, never the current one")
        p.setSingle(.on)
        #expect(p.upcoming(2, in: q) == [])
    }

    @Test func upcomingInRandomModeIsTheShuffledOrder() throws {
        var (p, q) = try setup(6)
        p.setRandom(true, in: q)
        _ = try p.play(position: nil, in: q)
        let order = p.randomOrder
        #expect(p.upcoming(3, in: q) == Array(order[1...3]))
        #expect(p.songFinished(in: q) == [.start(order[1])])
    }
}
