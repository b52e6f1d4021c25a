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
        if value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
            for b in value.utf8 { bytes.append(b == 0x0A || b == 0x0D ? 0x20 : b) }
        } else {
            bytes.append(contentsOf: value.utf8)
        }
        bytes.append(0x0A)
    }

    /// Appends `key: value\n` for an integer value (digits written in
    /// place: long listings are mostly numbers).
    public mutating func field(_ key: String, _ value: Int) {
        bytes.append(contentsOf: key.utf8)
        bytes.append(0x3A)
        bytes.append(0x20)
        var n = value.magnitude
        if value < 0 { bytes.append(0x2D) }
        let start = bytes.count
        repeat {
            bytes.append(UInt8(truncatingIfNeeded: 0x30 + n % 10))
            n /= 10
        } while n > 0
        bytes[start...].reverse()
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
