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
        bytes.append(contentsOf: key.utf8)
        bytes.append(0x3A)
        bytes.append(0x20)
        let start = bytes.count
        bytes.append(contentsOf: value.utf8)
        // Replaced where copied: one pass over bytes already in cache.
        bytes.withUnsafeMutableBufferPointer { all in
            for i in start..<all.count where all[i] == 0x0A || all[i] == 0x0D { all[i] = 0x20 }
        }
        bytes.append(0x0A)
    }

    /// Appends `key: S.mmm\n` for seconds, as `formatSeconds` writes them.
    public mutating func field(_ key: String, seconds: Double) {
        bytes.append(contentsOf: key.utf8)
        bytes.append(0x3A)
        bytes.append(0x20)
        let millis = Int((max(0, seconds) * 1000).rounded())
        appendDigits(millis / 1000)
        let frac = millis % 1000
        bytes.append(0x2E)
        bytes.append(UInt8(truncatingIfNeeded: 0x30 + frac / 100))
        bytes.append(UInt8(truncatingIfNeeded: 0x30 + frac / 10 % 10))
        bytes.append(UInt8(truncatingIfNeeded: 0x30 + frac % 10))
        bytes.append(0x0A)
    }

    /// Makes room for `count` more bytes (a long listing about to be built).
    public mutating func reserve(_ count: Int) { bytes.reserveCapacity(bytes.count + count) }

    /// Writes the decimal digits in place, last digit first (no slice, no
    /// reversal: listings are mostly numbers).
    private mutating func appendDigits(_ value: UInt) {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        let end = bytes.count + count
        bytes.append(contentsOf: repeatElement(0x30, count: count))
        bytes.withUnsafeMutableBufferPointer { all in
            var n = value
            var i = end - 1
            repeat {
                all[i] = UInt8(truncatingIfNeeded: 0x30 + n % 10)
                n /= 10
                i -= 1
            } while n > 0
        }
    }

    private mutating func appendDigits(_ value: Int) { appendDigits(value.magnitude) }

    /// Appends `key: value\n` for an integer value (digits written in
    /// place: long listings are mostly numbers).
    public mutating func field(_ key: String, _ value: Int) {
        bytes.append(contentsOf: key.utf8)
        bytes.append(0x3A)
        bytes.append(0x20)
        if value < 0 { bytes.append(0x2D) }
        appendDigits(value.magnitude)
        bytes.append(0x0A)
    }

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
    let millis = Int((max(0, seconds) * 1000).rounded())
    let frac = millis % 1000
    let fracText = frac < 10 ? "00\(frac)" : frac < 100 ? "0\(frac)" : "\(frac)"
    return "\(millis / 1000).\(fracText)"
}
