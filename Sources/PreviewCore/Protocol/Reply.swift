/// Builds the body of an MPD reply: `key: value` lines and, for `albumart`
/// and `readpicture`, one binary chunk. The terminating `OK` or `list_OK` is
/// added by the session, not here.
public struct Reply: Sendable {
    /// The reply bytes so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty reply.
    public init() {}

    /// An empty reply that writes into `storage`'s memory (its capacity
    /// kept, its bytes dropped): a buffer reused for the next chunk.
    public init(reusing storage: [UInt8]) {
        bytes = storage
        bytes.removeAll(keepingCapacity: true)
    }

    /// The bytes, leaving the reply empty (the storage moves, no copy).
    public mutating func takeBytes() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    /// The reply as text (binary chunks decoded lossily; for tests and logs).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `key: value\n`. Newlines inside `value` are replaced by spaces,
    /// since one would end the field early for every client.
    public mutating func field(_ key: String, _ value: String) {
        lines(capacity: key.utf8.count + value.utf8.count + 3) { $0.field(key, value) }
    }

    /// Appends `key: S.mmm\n` for seconds, as `formatSeconds` writes them.
    public mutating func field(_ key: String, seconds: Double) {
        lines(capacity: key.utf8.count + LineWriter.secondsBytes + 3) { $0.field(key, seconds: seconds) }
    }

    /// Appends `key: value\n` for an integer value (digits written in
    /// place: long listings are mostly numbers).
    public mutating func field(_ key: String, _ value: Int) {
        lines(capacity: key.utf8.count + LineWriter.integerBytes + 3) { $0.field(key, value) }
    }

    /// Makes room for `count` more bytes (a long listing about to be built).
    public mutating func reserve(_ count: Int) { bytes.reserveCapacity(bytes.count + count) }

    /// Appends bytes already formatted as reply lines (a cached reply).
    public mutating func append(bytes more: [UInt8]) {
        // Into an empty reply the array is shared, not copied.
        if bytes.isEmpty { bytes = more } else { bytes.append(contentsOf: more) }
    }

    /// Appends raw, already formatted lines.
    public mutating func append(raw: String) { bytes.append(contentsOf: raw.utf8) }

    /// Appends MPD's binary chunk: `binary: N\n`, the N bytes, `\n`.
    public mutating func binary<C: Collection>(_ data: C) where C.Element == UInt8 {
        field("binary", data.count)
        bytes.append(contentsOf: data)
        bytes.append(0x0A)
    }
}

/// Formats seconds as MPD does for `elapsed`/`duration`: three decimals.
public func formatSeconds(_ seconds: Double) -> String {
    let millis = Int(clamping: max(0, seconds) * 1000)
    let frac = millis % 1000
    let fracText = frac < 10 ? "00\(frac)" : frac < 100 ? "0\(frac)" : "\(frac)"
    return "\(millis / 1000).\(fracText)"
}

extension Reply {
    private static let zeros = [UInt8](repeating: 0, count: 4096)

    /// Writes several lines at once into room made for them: one capacity
    /// check for a whole song's lines instead of one per byte run, for long
    /// listings. `capacity` bytes are made first; when `write` needs more
    /// (its writer overflowed), it runs again with twice the room, so a
    /// guess will do. What is not used is given back.
    public mutating func lines(capacity: Int, _ write: (inout LineWriter) -> Void) {
        let start = bytes.count
        var room = max(capacity, 1)
        while true {
            var left = room
            while left > 0 {  // memcpys, not a loop per byte
                let n = min(left, Reply.zeros.count)
                bytes.append(contentsOf: Reply.zeros[0..<n])
                left -= n
            }
            let end = bytes.withUnsafeMutableBufferPointer { all -> Int? in
                var writer = LineWriter(all, at: start)
                write(&writer)
                return writer.overflowed ? nil : writer.position
            }
            if let end {
                bytes.removeLast(start + room - end)
                return
            }
            bytes.removeLast(room)
            room *= 2
        }
    }
}

/// Writes `key: value` lines into a reply's storage (see `Reply.lines`);
/// the caller sized it: each line needs its key, its value and 3 bytes,
/// with an integer value taking at most `integerBytes` and seconds at most
/// `secondsBytes`. A writer that runs out of room writes nothing more and
/// says so (`overflowed`); `rewind` takes it back to a line it had reached,
/// so a caller filling a fixed chunk can stop before the song that did not fit.
public struct LineWriter {
    /// Most bytes an integer value takes: 20 digits and a sign.
    public static let integerBytes = 21
    /// Most bytes a seconds value takes: 20 digits, a point and 3 decimals.
    public static let secondsBytes = 24

    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// Where the next byte goes.
    public private(set) var position: Int
    /// Whether a write found no room (from then on nothing is written).
    public private(set) var overflowed = false

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>, at position: Int) {
        self.buffer = buffer
        self.position = position
    }

    /// Goes back to `mark`, a position this writer had reached, with room again.
    public mutating func rewind(to mark: Int) {
        position = mark
        overflowed = false
    }

    /// Whether `count` more bytes fit; marks the writer full when not.
    private mutating func room(_ count: Int) -> Bool {
        guard !overflowed, count <= buffer.count - position else {
            overflowed = true
            return false
        }
        return true
    }

    private mutating func put(_ text: String) {
        guard room(text.utf8.count) else { return }
        let copied: Int? = text.utf8.withContiguousStorageIfAvailable { [buffer, position] utf8 in
            UnsafeMutableRawPointer(buffer.baseAddress! + position).copyMemory(from: utf8.baseAddress!, byteCount: utf8.count)
            return utf8.count
        }
        if let copied {
            position += copied
        } else {
            for b in text.utf8 { put(b) }
        }
    }

    private mutating func put(_ byte: UInt8) {
        guard room(1) else { return }
        buffer[position] = byte
        position += 1
    }

    private mutating func key(_ key: String) {
        put(key)
        put(0x3A)
        put(0x20)
    }

    private mutating func digits(_ value: UInt) {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        guard room(count) else { return }
        var n = value
        var i = position + count - 1
        repeat {
            buffer[i] = UInt8(truncatingIfNeeded: 0x30 + n % 10)
            n /= 10
            i -= 1
        } while n > 0
        position += count
    }

    /// `key: value\n`, newlines and carriage returns in `value` as spaces (as `Reply.field`).
    public mutating func field(_ key: String, _ value: String) {
        self.key(key)
        let start = position
        put(value)
        blankLineBreaks(from: start)
        put(0x0A)
    }

    /// Replaces newlines and carriage returns written since `start` by
    /// spaces. Eight bytes are checked at once for any byte below 0x0E (a
    /// word trick exact for "some byte below"); listings are mostly words
    /// without one, and only a word that has one is looked at byte by byte.
    private func blankLineBreaks(from start: Int) {
        func anyBelow0E(_ w: UInt64) -> Bool { (w &- 0x0E0E_0E0E_0E0E_0E0E) & ~w & 0x8080_8080_8080_8080 != 0 }
        let base = UnsafeMutableRawPointer(buffer.baseAddress!)
        var i = start
        while position - i >= 8 {
            if anyBelow0E(base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { break }
            i += 8
        }
        // The last 1 to 7 bytes as one word too, the bytes past them set to 0xFF.
        let tail = position - i
        if tail > 0, tail < 8, i + 8 <= buffer.count {
            let w = base.loadUnaligned(fromByteOffset: i, as: UInt64.self) | ~UInt64(0) << UInt64(8 * tail)
            if !anyBelow0E(w) { return }
        }
        while i < position {
            if buffer[i] == 0x0A || buffer[i] == 0x0D { buffer[i] = 0x20 }
            i += 1
        }
    }

    /// `key: N\n`.
    public mutating func field(_ key: String, _ value: Int) {
        self.key(key)
        if value < 0 { put(0x2D) }
        digits(value.magnitude)
        put(0x0A)
    }

    /// `key: S.mmm\n` (as `formatSeconds`).
    public mutating func field(_ key: String, seconds: Double) {
        self.key(key)
        let millis = Int(clamping: max(0, seconds) * 1000)
        digits(UInt(millis / 1000))
        let frac = millis % 1000
        put(0x2E)
        put(UInt8(truncatingIfNeeded: 0x30 + frac / 100))
        put(UInt8(truncatingIfNeeded: 0x30 + frac / 10 % 10))
        put(UInt8(truncatingIfNeeded: 0x30 + frac % 10))
        put(0x0A)
    }
}
