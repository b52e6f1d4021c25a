/// Builds the body of an MPD reply: `key: value` lines and, for `albumart`
/// and `readpicture`, one binary chunk. The terminating `OK` or `list_OK` is
/// added by the session, not here.
public struct Reply: Sendable {
    /// The reply bytes so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty reply.
    public init() {}

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
    private static let zeros = [UInt8](repeating: 0, count: 1024)

    /// Writes several lines at once into room made for them (at most
    /// `capacity` bytes; the rest is given back): one capacity check for a
    /// whole song's lines instead of one per byte run, for long listings.
    public mutating func lines(capacity: Int, _ write: (inout LineWriter) -> Void) {
        let start = bytes.count
        if capacity <= Reply.zeros.count {
            bytes.append(contentsOf: Reply.zeros[0..<capacity])  // a memcpy, not a loop
        } else {
            bytes.append(contentsOf: repeatElement(0, count: capacity))
        }
        let end = bytes.withUnsafeMutableBufferPointer { all -> Int in
            var writer = LineWriter(all, at: start)
            write(&writer)
            return writer.position
        }
        bytes.removeLast(start + capacity - end)
    }
}

/// Writes `key: value` lines into a reply's storage (see `Reply.lines`);
/// the caller sized it: each line needs its key, its value and 3 bytes,
/// with an integer value taking at most `integerBytes` and seconds at most
/// `secondsBytes`.
public struct LineWriter {
    /// Most bytes an integer value takes: 20 digits and a sign.
    public static let integerBytes = 21
    /// Most bytes a seconds value takes: 20 digits, a point and 3 decimals.
    public static let secondsBytes = 24

    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// Where the next byte goes.
    public private(set) var position: Int

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>, at position: Int) {
        self.buffer = buffer
        self.position = position
    }

    private mutating func put(_ text: String) {
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
        for i in start..<position where buffer[i] == 0x0A || buffer[i] == 0x0D { buffer[i] = 0x20 }
        put(0x0A)
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
