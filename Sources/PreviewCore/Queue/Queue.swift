/// The play queue (MPD's "current playlist"): songs by position with stable
/// ids and a version number that changes on every modification.
///
/// Pure value type; positions are 0-based. Every mutating operation that
/// changes the queue increments `version`, as MPD's `playlist:` field does,
/// and stamps each song whose position or data changed with that version,
/// so `plchanges` can answer with only what a client has not seen.
public struct Queue: Sendable {
    /// The songs, in queue order.
    public private(set) var songs: [QueuedSong] = []
    /// MPD's playlist version: starts at 1 and increments on every change.
    public private(set) var version: UInt32 = 1
    /// Upper bound on the number of songs (MPD's `max_playlist_length`).
    public var maxLength: Int
    private var nextID: SongID = 1
    private var positionByID: [SongID: Int] = [:]
    /// What the songs' `addtagid` values hold in all (`Song.addedTagBytes`
    /// summed), kept as songs come, change and go.
    public private(set) var addedTagBytes = 0

    /// The most `addedTagBytes` may reach: 64 KiB a song alone let a client
    /// grow a 1,000,000-song queue by 61 GiB.
    public static let maxAddedTagBytes = 16 * 1024 * 1024

    /// An empty queue holding at most `maxLength` songs.
    public init(maxLength: Int = Queue.defaultMaxLength) { self.maxLength = maxLength }

    /// A queue restored from saved state: the same songs, ids and version;
    /// new ids continue after `nextID` (and after every restored id).
    public init(restoring entries: [QueuedSong], nextID: SongID, version: UInt32, maxLength: Int = Queue.defaultMaxLength) {
        self.maxLength = maxLength
        songs = entries
        addedTagBytes = entries.reduce(0) { $0 + $1.song.addedTagBytes }
        self.version = version
        self.nextID = max(nextID, (entries.map(\.id).max() ?? 0) &+ 1)
        reindex(from: 0)
        // Restored songs count as unchanged since `version`.
        for i in songs.indices {
            songs[i].version = min(songs[i].version, version)
            songs[i].edited = min(songs[i].edited, version)
        }
    }

    /// The id the next added song gets.
    public var upcomingID: SongID { nextID }

    /// Number of songs.
    public var count: Int { songs.count }

    /// The position of song `id`, or nil when it is not queued.
    public func position(of id: SongID) -> Int? { positionByID[id] }

    /// The song with id `id`, or nil.
    public func song(withID id: SongID) -> QueuedSong? {
        positionByID[id].map { songs[$0] }
    }

    /// Positions of the songs changed after version `since` (all songs when
    /// `since` is not a version this queue has had), in queue order.
    public func changes(since: UInt32) -> [Int] {
        guard since <= version else { return Array(songs.indices) }
        return songs.indices.filter { songs[$0].version > since }
    }

    /// Inserts `song` at `position` (default: the end) and returns its new id.
    /// - Throws: `.playlistMax` "Playlist is too large" when full; `.argument`
    ///   "Bad song index" when `position` > count.
    @discardableResult
    public mutating func add(_ song: consuming Song, at position: Int? = nil) throws(ProtocolError) -> SongID {
        guard songs.count < maxLength else { throw ProtocolError(.playlistMax, "Playlist is too large") }
        guard nextID <= Queue.maxID else { throw ProtocolError(.playlistMax, "No song ids left") }
        let pos = position ?? songs.count
        guard pos >= 0, pos <= songs.count else { throw ProtocolError(.argument, "Bad song index") }
        let id = nextID
        nextID &+= 1
        version &+= 1
        let entry = QueuedSong(id: id, song: song, version: version, edited: version)
        addedTagBytes += entry.song.addedTagBytes
        songs.insert(entry, at: pos)
        reindex(from: pos)
        return id
    }

    /// Songs a queue holds unless told otherwise (mpd's `max_playlist_length`
    /// is 16,384; previewd's songs are small).
    public static let defaultMaxLength = 1_000_000

    /// The largest song id: protocol arguments are at most `Int32.max`, so a
    /// larger id could be handed out but never named by a client.
    public static let maxID = SongID(Int32.max)

    /// Inserts `newSongs` at `position` (default: the end) as one change
    /// (one version step, as mpd adds a directory) and returns their ids.
    /// - Throws: `.playlistMax` when they do not all fit; `.argument` "Bad
    ///   song index" when `position` > count.
    @discardableResult
    public mutating func add(contentsOf newSongs: [Song], at position: Int? = nil) throws(ProtocolError) -> [SongID] {
        guard songs.count + newSongs.count <= maxLength else { throw ProtocolError(.playlistMax, "Playlist is too large") }
        guard Int(nextID) + newSongs.count - 1 <= Int(Queue.maxID) else { throw ProtocolError(.playlistMax, "No song ids left") }
        let pos = position ?? songs.count
        guard pos >= 0, pos <= songs.count else { throw ProtocolError(.argument, "Bad song index") }
        version &+= 1
        var entries: [QueuedSong] = []
        entries.reserveCapacity(newSongs.count)
        for song in newSongs {
            entries.append(QueuedSong(id: nextID, song: song, version: version, edited: version))
            addedTagBytes += song.addedTagBytes
            nextID &+= 1
        }
        songs.insert(contentsOf: entries, at: pos)
        reindex(from: pos)
        return entries.map(\.id)
    }

    /// Removes the songs at `range` (END clamped, as MPD does for `START:`).
    /// - Returns: the removed songs' ids (none for an empty range at the end).
    /// - Throws: `.argument` "Bad song index" when START is past the end.
    @discardableResult
    public mutating func remove(positions range: Range<Int>) throws(ProtocolError) -> [SongID] {
        let r = try clamp(range)
        guard !r.isEmpty else { return [] }
        let ids = songs[r].map(\.id)
        for entry in songs[r] where !entry.song.addedTags.isEmpty { addedTagBytes -= entry.song.addedTagBytes }
        songs.removeSubrange(r)
        for id in ids { positionByID[id] = nil }
        version &+= 1
        reindex(from: r.lowerBound)
        return ids
    }

    /// Removes every song.
    public mutating func removeAll() {
        songs.removeAll()
        positionByID.removeAll()
        addedTagBytes = 0
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
        version &+= 1
        reindex(from: min(r.lowerBound, to), through: max(r.upperBound, to + r.count))
    }

    /// Exchanges the songs at two positions (`swap`).
    /// - Throws: `.argument` "Bad song index" when either is out of range.
    public mutating func swap(_ a: Int, _ b: Int) throws(ProtocolError) {
        guard songs.indices.contains(a), songs.indices.contains(b) else { throw ProtocolError(.argument, "Bad song index") }
        songs.swapAt(a, b)
        version &+= 1
        for p in [a, b] {
            songs[p].version = version
            positionByID[songs[p].id] = p
        }
    }

    /// Replaces song `id`'s data (tags learned late, priority, ...); stamps
    /// it when something changed.
    public mutating func update(id: SongID, _ change: (inout QueuedSong) -> Void) {
        guard let pos = positionByID[id] else { return }
        let before = songs[pos]
        change(&songs[pos])
        songs[pos].id = before.id
        if songs[pos] != before {
            if songs[pos].song.addedTags != before.song.addedTags {
                addedTagBytes += songs[pos].song.addedTagBytes - before.song.addedTagBytes
            }
            version &+= 1
            songs[pos].version = version
            songs[pos].edited = version
        }
    }

    /// Shuffles the songs in `range` (default: all) with `rng`.
    public mutating func shuffle<G: RandomNumberGenerator>(positions range: Range<Int>? = nil, using rng: inout G) throws(ProtocolError) {
        let r = try range.map { (r) throws(ProtocolError) in try clamp(r) } ?? 0..<songs.count
        songs[r].shuffle(using: &rng)
        version &+= 1
        reindex(from: r.lowerBound, through: r.upperBound)
    }

    /// Clamps END to the queue length and checks START, as MPD does: a range
    /// may start right at the end (and is then empty), not beyond it.
    /// - Throws: `.argument` "Bad song index" when START is past the end.
    public func clamp(_ range: Range<Int>) throws(ProtocolError) -> Range<Int> {
        guard range.lowerBound <= songs.count else { throw ProtocolError(.argument, "Bad song index") }
        return range.lowerBound..<min(range.upperBound, songs.count)
    }

    /// Re-reads positions from `start` up to `end` (default: the end) and
    /// stamps those songs with the current version: their positions changed.
    private mutating func reindex(from start: Int, through end: Int? = nil) {
        var i = start
        let stop = min(end ?? songs.count, songs.count)
        while i < stop {
            positionByID[songs[i].id] = i
            songs[i].version = version
            i += 1
        }
    }
}
