/// MPD's player state (`state:` in `status`).
public enum PlaybackState: String, Sendable, Codable {
    case stop, play, pause
}

/// MPD's `single` mode.
public enum SingleMode: String, Sendable, Codable {
    /// Play on through the queue.
    case off = "0"
    /// Stop after the current song (or repeat it when `repeat` is on).
    case on = "1"
    /// Like `on`, then switch back to `off`.
    case oneshot
}

/// The modes shown in `status` and set by `repeat`, `random`, `single`, `consume`.
public struct PlaybackModes: Equatable, Sendable, Codable {
    public var `repeat` = false
    public var random = false
    public var single = SingleMode.off
    public var consume = false
    /// All modes off.
    public init() {}
}

/// What the player asks the I/O side to do after a state change.
public enum PlayerEffect: Equatable, Sendable {
    /// Resolve song `SongID` and start its audio from the beginning,
    /// replacing whatever plays now.
    case start(SongID)
    /// Pause (true) or resume (false) the output without losing position.
    case setPaused(Bool)
    /// Stop the output and discard buffered audio.
    case halt
    /// Remove song `SongID` from the queue (consume mode, or a song autoplay
    /// added, after it played).
    case remove(SongID)
}

/// The playback state machine: which song is current, whether it plays, and
/// which song comes next under the modes. Pure: each operation returns the
/// effects for the engine and never performs I/O.
public struct Player: Sendable {
    /// Play, pause or stop.
    public private(set) var state: PlaybackState = .stop
    /// The current song (MPD keeps one while stopped, to resume from).
    public private(set) var current: SongID?
    /// The modes.
    public private(set) var modes = PlaybackModes()
    /// Play order of song ids while `random` is on; empty otherwise.
    public private(set) var randomOrder: [SongID] = []
    private var rng: SplitMix64

    /// A stopped player whose random order comes from `seed`.
    public init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// Restores saved state: the current song, play state and modes; the
    /// random order is drawn anew.
    public mutating func restore(state: PlaybackState, current: SongID?, modes: PlaybackModes, in queue: Queue) {
        self.current = current.flatMap { queue.position(of: $0) != nil ? $0 : nil }
        self.state = self.current == nil ? .stop : state
        self.modes = modes
        randomOrder = []
        if modes.random { reshuffle(queue) }
    }

    // MARK: commands

    /// `play [POS]`: with a position, start that song; without, resume a pause,
    /// or start the current (else the first) song when stopped.
    /// - Throws: `.argument` "Bad song index" when POS is not in the queue.
    public mutating func play(position: Int?, in queue: Queue) throws(ProtocolError) -> [PlayerEffect] {
        if let position {
            guard position >= 0, position < queue.count else { throw ProtocolError(.argument, "Bad song index") }
            return start(queue.songs[position].id)
        }
        switch state {
        case .play: return []
        case .pause:
            state = .play
            return [.setPaused(false)]
        case .stop:
            if let current, queue.position(of: current) != nil { return start(current) }
            guard let first = firstInOrder(queue) else { return [] }
            return start(first)
        }
    }

    /// `playid [ID]`.
    /// - Throws: `.noExist` "No such song" for an unknown id.
    public mutating func play(id: SongID?, in queue: Queue) throws(ProtocolError) -> [PlayerEffect] {
        guard let id else { return try play(position: nil, in: queue) }
        guard queue.position(of: id) != nil else { throw ProtocolError(.noExist, "No such song") }
        return start(id)
    }

    /// `pause [0|1]`: nil toggles. Does nothing while stopped.
    public mutating func pause(_ paused: Bool?, in queue: Queue) -> [PlayerEffect] {
        switch state {
        case .stop: return []
        case .play where paused != false:
            state = .pause
            return [.setPaused(true)]
        case .pause where paused != true:
            state = .play
            return [.setPaused(false)]
        default: return []
        }
    }

    /// `stop`.
    public mutating func stop() -> [PlayerEffect] {
        guard state != .stop else { return [] }
        state = .stop
        return [.halt]
    }

    /// `next`: the following song in play order (wrapping when `repeat` is on);
    /// stops at the end of the queue.
    public mutating func next(in queue: Queue) -> [PlayerEffect] {
        guard state != .stop, let current else { return [] }
        if let following = successor(of: current, in: queue, wrap: modes.repeat) { return start(following) }
        state = .stop
        self.current = nil
        return [.halt]
    }

    /// `previous`: the preceding song in play order; at the first song without
    /// `repeat`, that song starts again. Like a CD player's back button, more
    /// than `restartAfter` seconds into a song (when > 0) it restarts that song.
    public mutating func previous(in queue: Queue, elapsed: Double = 0, restartAfter: Double = 0) -> [PlayerEffect] {
        guard state != .stop, let current else { return [] }
        if restartAfter > 0, elapsed > restartAfter { return start(current) }
        return start(predecessor(of: current, in: queue) ?? current)
    }

    /// The song `songFinished` would go on to from the current one (nil:
    /// playback stops there, or nothing plays), by the `single` and
    /// `repeat` modes and the play order.
    public func songAfterCurrent(in queue: Queue) -> SongID? {
        guard state != .stop, let current else { return nil }
        switch modes.single {
        case .off: return successor(of: current, in: queue, wrap: modes.repeat)
        case .on: return modes.repeat ? current : nil
        case .oneshot: return nil
        }
    }

    /// The current song's audio reached its end.
    public mutating func songFinished(in queue: Queue) -> [PlayerEffect] {
        guard state != .stop, let current else { return [] }
        var effects: [PlayerEffect] = []
        let following = songAfterCurrent(in: queue)
        if modes.single == .oneshot { modes.single = .off }
        // A song autoplay added leaves once played, so autoplay never grows the queue without end.
        let autoplayed = queue.song(withID: current).map { AutoplayRule.added($0.song) } ?? false
        let leaves = (modes.consume || autoplayed) && following != current
        if leaves {
            effects.append(.remove(current))
            // The random order must not lead to a song that is gone.
            if modes.random { randomOrder.removeAll { $0 == current } }
        }
        if let following {
            effects += start(following)
        } else {
            state = .stop
            self.current = leaves ? nil : (queue.position(of: current) != nil && modes.single != .off ? current : nil)
            effects.append(.halt)
        }
        return effects
    }

    /// The current song could not be played: go on with the next one in
    /// order, ignoring `single` (a failed song must not loop); stop at the end.
    public mutating func songFailed(in queue: Queue) -> [PlayerEffect] {
        guard state != .stop, let current else { return [] }
        if let following = successor(of: current, in: queue, wrap: modes.repeat), following != current {
            return start(following)
        }
        state = .stop
        return [.halt]
    }

    // MARK: modes

    /// `repeat 0|1`.
    public mutating func setRepeat(_ on: Bool) { modes.repeat = on }
    /// `single 0|1|oneshot`.
    public mutating func setSingle(_ mode: SingleMode) { modes.single = mode }
    /// `consume 0|1`.
    public mutating func setConsume(_ on: Bool) { modes.consume = on }

    /// `random 0|1`: a new random order starts at the current song.
    public mutating func setRandom(_ on: Bool, in queue: Queue) {
        guard on != modes.random else { return }
        modes.random = on
        randomOrder = []
        if on { reshuffle(queue) }
    }

    // MARK: queue changes

    /// Songs were added to the queue: in random mode they take random places
    /// after the current song in play order.
    public mutating func songsAdded(_ ids: [SongID]) {
        guard modes.random else { return }
        let floor = current.flatMap { randomOrder.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        for id in ids {
            let slot = Int.random(in: floor...randomOrder.count, using: &rng)
            randomOrder.insert(id, at: slot)
        }
    }

    /// Priorities changed: in random mode, the songs still to come are
    /// ordered by priority, highest first (mpd's rule), keeping the random
    /// order among equal priorities.
    public mutating func prioritiesChanged(in queue: Queue) {
        guard modes.random else { return }
        let start = current.flatMap { randomOrder.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        let priority = { (id: SongID) in Int(queue.song(withID: id)?.priority ?? 0) }
        let upcoming = randomOrder[start...].enumerated().sorted {
            let (a, b) = (priority($0.element), priority($1.element))
            return a != b ? a > b : $0.offset < $1.offset
        }.map(\.element)
        randomOrder.replaceSubrange(start..., with: upcoming)
    }

    /// Songs left the queue. When the current song is among them, playback
    /// goes on with the song that took its position (MPD's behaviour), or
    /// stops when there is none.
    /// - Parameters: removed: ids no longer queued; formerPosition: where the
    ///   current song stood before the removal; queue: the queue after it.
    public mutating func songsRemoved(_ removed: [SongID], formerPosition: Int?, in queue: Queue) -> [PlayerEffect] {
        if modes.random { randomOrder.removeAll { removed.contains($0) } }
        guard let current, removed.contains(current) else { return [] }
        self.current = nil
        guard state != .stop else { return [] }
        if let formerPosition, formerPosition < queue.count {
            let id = queue.songs[formerPosition].id
            let wasPaused = state == .pause
            var effects = start(id)
            if wasPaused {
                state = .pause
                effects.append(.setPaused(true))
            }
            return effects
        }
        state = .stop
        return [.halt]
    }

    /// The queue was cleared.
    public mutating func queueCleared() -> [PlayerEffect] {
        randomOrder = []
        current = nil
        guard state != .stop else { return [] }
        state = .stop
        return [.halt]
    }

    /// The song `status` names as `nextsong`, by mpd's rule: with `single`
    /// and `repeat` (and no `consume`) the current song again; otherwise the
    /// following one, wrapping with `repeat`. (`single` alone still names the
    /// following song, though playback stops before it.)
    public func nextSong(in queue: Queue) -> SongID? {
        guard let current else { return nil }
        if modes.single != .off && modes.repeat && !modes.consume { return current }
        return successor(of: current, in: queue, wrap: modes.repeat)
    }

    /// Up to `count` songs that will play after the current one if nothing
    /// changes, in order: what is worth downloading ahead. Empty when
    /// stopped or in `single` mode (play stops, or repeats the current song).
    public func upcoming(_ count: Int, in queue: Queue) -> [SongID] {
        guard state != .stop, let current, modes.single == .off else { return [] }
        var out: [SongID] = []
        var id = current
        while out.count < count, let following = successor(of: id, in: queue, wrap: modes.repeat),
            following != current, !out.contains(following)
        {
            out.append(following)
            id = following
        }
        return out
    }

    // MARK: order

    private mutating func start(_ id: SongID) -> [PlayerEffect] {
        current = id
        state = .play
        return [.start(id)]
    }

    private mutating func reshuffle(_ queue: Queue) {
        var ids = queue.songs.map(\.id)
        ids.shuffle(using: &rng)
        if let current, let i = ids.firstIndex(of: current) {
            ids.swapAt(0, i)
        }
        randomOrder = ids
    }

    private func firstInOrder(_ queue: Queue) -> SongID? {
        modes.random ? randomOrder.first : queue.songs.first?.id
    }

    private func successor(of id: SongID, in queue: Queue, wrap: Bool) -> SongID? {
        if modes.random {
            guard let i = randomOrder.firstIndex(of: id) else { return randomOrder.first }
            if i + 1 < randomOrder.count { return randomOrder[i + 1] }
            return wrap ? randomOrder.first : nil
        }
        guard let pos = queue.position(of: id) else { return nil }
        if pos + 1 < queue.count { return queue.songs[pos + 1].id }
        return wrap ? queue.songs.first?.id : nil
    }

    private func predecessor(of id: SongID, in queue: Queue) -> SongID? {
        if modes.random {
            guard let i = randomOrder.firstIndex(of: id) else { return nil }
            if i > 0 { return randomOrder[i - 1] }
            return modes.repeat ? randomOrder.last : nil
        }
        guard let pos = queue.position(of: id) else { return nil }
        if pos > 0 { return queue.songs[pos - 1].id }
        return modes.repeat ? queue.songs.last?.id : nil
    }
}
