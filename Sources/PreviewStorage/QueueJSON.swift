import PreviewCore

/// The queue of `state.json` written as JSON straight from the songs, in
/// the shape `Codable` gives `[QueuedSong]` (the same keys, optional ones
/// left out when nil), so `JSONDecoder` reads it back as before.
///
/// Why by hand: `JSONEncoder` first builds a tree of every value, which for
/// a 100,000-song queue took 1.7 s of CPU and some 100 MB, every time the
/// state was saved (each 5 s while playing). Written directly it is one
/// pass into one buffer.
enum QueueJSON {
    /// Why a queue cannot be written: a number JSON has no way to say.
    struct Unwritable: Error, CustomStringConvertible {
        let description: String
    }

    /// Appends `queue` to `out` as a JSON array.
    /// - Throws: `Unwritable` for a duration or range that is not finite.
    static func write(_ queue: [QueuedSong], into out: inout [UInt8]) throws(Unwritable) {
        var w = Writer(out: out)
        out = []
        w.out.reserveCapacity(w.out.count + queue.count * 320)
        w.open("[")
        for entry in queue { try w.entry(entry) }
        w.close("]")
        out = w.out
    }

    /// JSON text appended to `out`, commas placed as values follow values.
    private struct Writer {
        var out: [UInt8]
        /// Whether the next key or array element needs a comma before it.
        private var afterValue = false

        init(out: [UInt8]) { self.out = out }

        mutating func open(_ bracket: Unicode.Scalar) {
            comma()
            out.append(UInt8(ascii: bracket))
            afterValue = false
        }

        mutating func close(_ bracket: Unicode.Scalar) {
            out.append(UInt8(ascii: bracket))
            afterValue = true
        }

        private mutating func comma() {
            if afterValue { out.append(UInt8(ascii: ",")) }
        }

        mutating func key(_ name: StaticString) {
            comma()
            out.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(contentsOf: "\":".utf8)
            afterValue = false
        }

        mutating func string(_ value: String) {
            comma()
            QueueJSON.string(value, into: &out)
            afterValue = true
        }

        mutating func number(_ value: Int) {
            comma()
            out.append(contentsOf: String(value).utf8)
            afterValue = true
        }

        /// The shortest text that reads back as the same `Double`.
        mutating func double(_ value: Double, _ what: StaticString) throws(Unwritable) {
            guard value.isFinite else { throw Unwritable(description: "\(what) is not a finite number: \(value)") }
            comma()
            out.append(contentsOf: value.description.utf8)
            afterValue = true
        }

        mutating func bool(_ value: Bool) {
            comma()
            out.append(contentsOf: (value ? "true" : "false").utf8)
            afterValue = true
        }

        mutating func entry(_ entry: QueuedSong) throws(Unwritable) {
            open("{")
            key("id"); number(Int(entry.id))
            key("song"); try song(entry.song)
            key("priority"); number(Int(entry.priority))
            key("version"); number(Int(entry.version))
            if let range = entry.range {
                key("range")
                open("{")
                key("start"); try double(range.start, "range start")
                if let end = range.end { key("end"); try double(end, "range end") }
                close("}")
            }
            close("}")
        }

        mutating func song(_ song: Song) throws(Unwritable) {
            open("{")
            key("uri"); string(song.uri)
            if let v = song.title { key("title"); string(v) }
            if let v = song.artist { key("artist"); string(v) }
            if let v = song.album { key("album"); string(v) }
            if let v = song.duration { key("duration"); try double(v, "duration") }
            key("addedTags")
            open("[")
            for tag in song.addedTags {
                open("{")
                key("name"); string(tag.name)
                key("value"); string(tag.value)
                close("}")
            }
            close("]")
            if let v = song.track { key("track"); number(Int(v)) }
            if let v = song.disc { key("disc"); number(Int(v)) }
            if let a = song.albumTags { key("albumTags"); albumTags(a) }
            if let v = song.unplayable { key("unplayable"); string(v) }
            close("}")
        }

        mutating func albumTags(_ a: AlbumTags) {
            open("{")
            if let v = a.id { key("id"); number(v) }
            if let v = a.artist { key("artist"); string(v) }
            if let v = a.date { key("date"); string(v) }
            key("genres")
            open("[")
            for genre in a.genres { string(genre) }
            close("]")
            if let v = a.label { key("label"); string(v) }
            if let v = a.trackCount { key("trackCount"); number(v) }
            key("complete"); bool(a.complete)
            close("}")
        }
    }

    /// `value` as a JSON string: quotes, backslashes and control
    /// characters escaped (RFC 8259 section 7), everything else as UTF-8.
    static func string(_ value: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        defer { out.append(UInt8(ascii: "\"")) }
        guard value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            out.append(contentsOf: value.utf8)
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
