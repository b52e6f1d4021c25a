/// The play queue (MPD's "current playlist"): songs by position with stable
/// ids and a version number that changes on every modification.
///
/// Pure value type; positions are 0-based. Every mutating operation that
/// changes the queue increments `version`, as MPD's `playlist:` field does.
public struct Queue: Sendable {
    /// The songs, in queue order.
    public private(set) var songs: [QueuedSong] = []
    /// MPD's playlist version: starts at 1 and increments on every change.
    public private(set) var version: UInt32 = 1
    /// Upper bound on the number of songs (MPD's `max_playlist_length`).
    public var maxLength: Int
    private var nextID: SongID = 1
    private var positionByID: [SongID: Int] = [:]

    /// An empty queue holding at most `maxLength` songs.
    public init(maxLength: Int = 1_000_000) { self.maxLength = maxLength }

    /// Number of songs.
    public var count: Int { songs.count }

    /// The position of song `id`, or nil when it is not queued.
    public func position(of id: SongID) -> Int? { positionByID[id] }

    /// The song with id `id`, or nil.
    public func song(withID id: SongID) -> QueuedSong? {
        positionByID[id].map { songs[$0] }
    }

    /// Inserts `song` at `position` (default: the end) and returns its new id.
    /// - Throws: `.playlistMax` "Playlist is too large" when full; `.argument`
    ///   "Bad song index" when `position` > count.
    @discardableResult
    public mutating func add(_ song: Song, at position: Int? = nil) throws(ProtocolError) -> SongID {
        guard songs.count < maxLength else { throw ProtocolError(.playlistMax, "Playlist is too large") }
        let pos = position ?? songs.count
        guard pos >= 0, pos <= songs.count else { throw ProtocolError(.argument, "Bad song index") }
        let id = nextID
        nextID &+= 1
        songs.insert(QueuedSong(id: id, song: song), at: pos)
        if pos == songs.count - 1 {
            positionByID[id] = pos
        } else {
            reindex(from: pos)
        }
        version &+= 1
        return id
    }

    /// Removes the songs at `range` (clamped END, as MPD does for `START:`).
    /// - Returns: the removed songs' ids.
    /// - Throws: `.argument` "Bad song index" when START is past the end.
    @discardableResult
    public mutating func remove(positions range: Range<Int>) throws(ProtocolError) -> [SongID] {
        let r = try clamp(range)
        guard !r.isEmpty else { return [] }
        let ids = songs[r].map(\.id)
        songs.removeSubrange(r)
        for id in ids { positionByID[id] = nil }
        reindex(from: r.lowerBound)
        version &+= 1
        return ids
    }

    /// Removes every song.
    public mutating func removeAll() {
        songs.removeAll()
        positionByID.removeAll()
        version &+= 1
    }

    /// Moves the songs at `range` so that the first of them ends at `to`
    /// (a position in the queue after the removal, as MPD's `move`).
    /// - Throws: `.argument` "Bad song index" for a source past the end,
    ///   "Number too large: TO" for a target past the end (mpd's texts).
    public mutating func move(positions range: Range<Int>, to: Int) throws(ProtocolError) {
        let r = try clamp(range)
        guard !r.isEmpty else { throw ProtocolError(.argument, "Bad song index") }
        guard to >= 0, to + r.count <= songs.count else { throw ProtocolError(.argument, "Number too large: \(to)") }
        let moving = Array(songs[r])
        songs.removeSubrange(r)
        songs.insert(contentsOf: moving, at: to)
        reindex(from: min(r.lowerBound, to))
        version &+= 1
    }

    /// Replaces the tags of song `id` (used when metadata arrives late).
    public mutating func update(id: SongID, _ change: (inout Song) -> Void) {
        guard let pos = positionByID[id] else { return }
        let before = songs[pos].song
        change(&songs[pos].song)
        if songs[pos].song != before { version &+= 1 }
    }

    /// Shuffles the songs in `range` (default: all) with `rng`.
    public mutating func shuffle<G: RandomNumberGenerator>(positions range: Range<Int>? = nil, using rng: inout G) throws(ProtocolError) {
        let r = try range.map { (r) throws(ProtocolError) in try clamp(r) } ?? 0..<songs.count
        songs[r].shuffle(using: &rng)
        reindex(from: r.lowerBound)
        version &+= 1
    }

    /// Clamps END to the queue length and checks START, as MPD does: a range
    /// may start right at the end (and is then empty), not beyond it.
    /// - Throws: `.argument` "Bad song index" when START is past the end.
    public func clamp(_ range: Range<Int>) throws(ProtocolError) -> Range<Int> {
        guard range.lowerBound <= songs.count else { throw ProtocolError(.argument, "Bad song index") }
        return range.lowerBound..<min(range.upperBound, songs.count)
    }

    private mutating func reindex(from start: Int) {
        var i = start
        while i < songs.count {
            positionByID[songs[i].id] = i
            i += 1
        }
    }
}
