import PreviewCore

/// Queued songs listed as the client reads them (`playlistinfo`,
/// `playlistid` of the whole queue): the session formats the next
/// `chunkBytes` of reply lines only once the socket has taken the last, so
/// a 100,000-song listing never sits in memory whole (23 MB with tags) and
/// the bytes being written stay in the cache.
///
/// It lists the queue as it was when the command ran: `songs` is the
/// queue's own storage, shared; an edit meanwhile copies the queue's side
/// (copy on write) and leaves this one as it was, as mpd's reply is.
struct SongListing {
    /// The queue's songs at the command.
    let songs: [QueuedSong]
    /// The positions still to list.
    private(set) var positions: Range<Int>
    /// The connection's `tagtypes` at the command.
    let tags: TagSelection

    /// Reply bytes formatted per step: about what a Unix socket's buffer
    /// takes at once, and well within the CPU's second-level cache.
    static let chunkBytes = 128 << 10

    init(songs: [QueuedSong], positions: Range<Int>, tags: TagSelection) {
        self.songs = songs
        self.positions = positions
        self.tags = tags
    }

    /// Whether every song has been written.
    var isDone: Bool { positions.isEmpty }

    /// Appends the next songs to `reply`, about `bytes` of them (whole
    /// songs only; at least one), until the listing is done.
    mutating func write(into reply: inout Reply, upTo bytes: Int = SongListing.chunkBytes) {
        var next = positions.lowerBound
        let end = positions.upperBound
        let tags = tags
        songs.withUnsafeBufferPointer { songs in
            reply.lines(capacity: bytes) { w in
                while next < end {
                    let mark = w.position
                    w.song(songs[next], position: next, tags: tags)
                    if w.overflowed {
                        w.rewind(to: mark)
                        return
                    }
                    next += 1
                }
            }
            // A song longer than a whole chunk goes alone.
            if next == positions.lowerBound, next < end {
                reply.song(songs[next], position: next, tags: tags)
                next += 1
            }
        }
        positions = next..<end
    }
}
