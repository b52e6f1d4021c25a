import PreviewCore

/// A connection's reply bytes waiting for the socket, in order: bytes
/// ready to write, then what follows them, where a song listing is
/// formatted only once the bytes before it are written (`SongListing`).
struct ReplyOutput {
    /// Bytes ready; those from `head` on are not written yet.
    private var ready: [UInt8] = []
    private var head = 0
    /// What comes after `ready`, in order.
    private var later: [Part] = []

    private enum Part {
        case bytes([UInt8])
        case listing(SongListing)
    }

    /// Bytes to write now (more may follow once they are taken).
    var pending: ArraySlice<UInt8> { ready[head...] }

    /// Whether a listing or bytes after one still wait to be formatted or
    /// queued: the client has a reply coming, so its next requests can wait.
    var hasMore: Bool { !later.isEmpty }

    /// The socket took `n` more bytes. Storage is compacted only now and
    /// then, so a large reply drains in linear time; once `ready` is
    /// written, the next part is made ready.
    /// - Returns: true when storage of 1 MiB or more was let go, so that
    ///   the caller can give the memory back.
    mutating func consume(_ n: Int) -> Bool {
        head += n
        if head == ready.count {
            let large = ready.capacity >= 1 << 20
            ready.removeAll(keepingCapacity: !large)
            head = 0
            prepareNext()
            return large
        } else if head > 1 << 16, head > ready.count / 2 {
            ready.removeSubrange(0..<head)
            head = 0
        }
        return false
    }

    /// Queues `bytes` after everything already queued.
    mutating func append(_ bytes: [UInt8]) {
        if later.isEmpty {
            // A reply longer than the empty buffer's room is taken over, not
            // copied; a short one goes into that room, which stays allocated.
            if ready.isEmpty && bytes.count > ready.capacity { ready = bytes } else { ready.append(contentsOf: bytes) }
        } else {
            guard case .bytes(var last) = later.removeLast() else { preconditionFailure("a listing is always followed by bytes") }
            last.append(contentsOf: bytes)
            later.append(.bytes(last))
        }
    }

    /// Queues `text`'s UTF-8 after everything already queued.
    mutating func append(_ text: String) {
        if later.isEmpty {
            ready.append(contentsOf: text.utf8)
        } else {
            append(Array(text.utf8))
        }
    }

    /// Queues `listing`, formatted as the socket takes what is before it.
    mutating func append(_ listing: SongListing) {
        guard !listing.isDone else { return }
        later.append(.listing(listing))
        // Bytes queued after the listing go into a part of their own.
        later.append(.bytes([]))
        if pending.isEmpty { prepareNext() }
    }

    /// Moves the next part into the empty `ready`: bytes as they are, or
    /// the next chunk of a listing.
    private mutating func prepareNext() {
        while ready.isEmpty, let part = later.first {
            switch part {
            case .bytes(let bytes):
                later.removeFirst()
                ready = bytes
            case .listing(var listing):
                var reply = Reply(reusing: ready)
                ready = []
                reply.reserve(SongListing.chunkBytes + 4096)
                listing.write(into: &reply)
                ready = reply.takeBytes()
                if listing.isDone { later.removeFirst() } else { later[0] = .listing(listing) }
            }
        }
    }
}
