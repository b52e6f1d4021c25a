/// The one rule for catalog text, applied where it comes in (the Deezer
/// and Last.fm clients, before decoding): no line or paragraph break
/// survives in any string, and no string is longer than `maxStringBytes`.
/// Every format previewd writes (MPD replies, stored playlists' M3U, hook
/// variables and standard input, `events`, JSON) is one line per field, and
/// a title that carried `\r\n` once wrote a URL of the catalog's choice
/// into a playlist. Cutting at the way in means no format has to remember.
public enum CatalogText {
    /// Bytes of UTF-8 one decoded string of a catalog answer keeps at most;
    /// a longer one is cut where a character (Unicode scalar) ends. The
    /// longest real titles are a few hundred bytes; preview and cover URLs
    /// under 400.
    public static let maxStringBytes = 1024

    /// Whether `scalar` ends a line in some reader: LF, VT, FF, CR, the
    /// file, group and record separators (C0; Python's `splitlines` breaks
    /// at them), NEL (C1), LINE SEPARATOR and PARAGRAPH SEPARATOR
    /// (Unicode's mandatory breaks); and NUL, which ends a C string (a
    /// hook's environment variable) where it stands.
    public static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00, 0x0A...0x0D, 0x1C...0x1E, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// `text` with each line break a space, CR LF one space. Works on
    /// scalars: Swift holds `"\r\n"` as one Character, so a test on
    /// Characters for `"\n"` never matches it.
    public static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isLineBreak) else { return text }
        var out = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            guard isLineBreak(scalar) else {
                out.append(scalar)
                continue
            }
            if scalar == "\n", afterCR { continue }
            out.append(" ")
        }
        return String(out)
    }

    /// A JSON document with the rule applied to every string in it: each
    /// line break, written raw (NEL, U+2028, U+2029 may be) or as an escape
    /// (`\n`, `\r`, `\f`, `\u000b`, `\u2028`, ...), becomes a space (CR LF
    /// one space), and a string whose decoded text passes `maxStringBytes`
    /// is cut there, between two characters. Bytes outside strings are
    /// copied as they are: a document that is not JSON stays one, for the
    /// decoder to refuse.
    public static func normalizeJSON(_ bytes: [UInt8]) -> [UInt8] {
        // Most answers have nothing to change: they come back as they are,
        // copied only from the first change on.
        bytes.withUnsafeBufferPointer { input in
            var scanner = JSONStringScanner(input)
            return scanner.run() ?? bytes
        }
    }
}

/// `CatalogText.normalizeJSON`'s single pass: outside strings bytes are
/// skipped over; inside, the string is taken one unit at a time (a raw
/// UTF-8 sequence, an escape, or an escaped surrogate pair), so a cut never
/// splits a character. The output is made only once something changes.
private struct JSONStringScanner {
    let input: UnsafeBufferPointer<UInt8>
    /// The changed document so far; nil while nothing changed.
    var out: [UInt8]?
    /// `input[..<copied]` is in `out` already (as it was, or changed).
    var copied = 0
    var i = 0

    init(_ input: UnsafeBufferPointer<UInt8>) { self.input = input }

    /// The changed document, or nil when nothing changed.
    mutating func run() -> [UInt8]? {
        while i < input.count {
            let b = input[i]
            i += 1
            if b == quote { string() }
        }
        guard out != nil else { return nil }
        out!.append(contentsOf: input[copied...])
        return out
    }

    private let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), space = UInt8(ascii: " ")

    /// Puts `bytes` in the place of `input[range]`.
    private mutating func replace(_ range: Range<Int>, with bytes: [UInt8]) {
        if out == nil { out = []; out!.reserveCapacity(input.count) }
        out!.append(contentsOf: input[copied..<range.lowerBound])
        out!.append(contentsOf: bytes)
        copied = range.upperBound
    }

    /// One string, from after its opening quote to after its closing one.
    private mutating func string() {
        var decoded = 0
        var afterCR = false
        while i < input.count {
            let start = i
            let b = input[i]
            if b == quote {
                i += 1
                return
            }
            let unit = self.unit(at: start, lead: b)
            i += unit.length
            if unit.isLineBreak {
                // CR LF is one break: its LF goes, the CR became the space.
                if unit.isLF, afterCR {
                    replace(start..<i, with: [])
                } else if decoded + 1 > CatalogText.maxStringBytes {
                    return cut(from: start)
                } else {
                    replace(start..<i, with: [space])
                    decoded += 1
                }
                afterCR = unit.isCR
                continue
            }
            afterCR = false
            if decoded + unit.decodedBytes > CatalogText.maxStringBytes { return cut(from: start) }
            decoded += unit.decodedBytes
        }
    }

    /// Drops the rest of the string from `start` to its closing quote.
    private mutating func cut(from start: Int) {
        i = start
        while i < input.count, input[i] != quote {
            i += input[i] == backslash ? 2 : 1
        }
        i = min(i, input.count)
        replace(start..<i, with: [])
        if i < input.count { i += 1 }
    }

    /// What one unit of a string is.
    private struct Unit {
        /// Its bytes in the document.
        var length: Int
        /// Its bytes once decoded as UTF-8.
        var decodedBytes: Int
        var isLineBreak = false
        var isCR = false
        var isLF = false
    }

    /// The unit starting at `start` (whose first byte is `lead`); a
    /// malformed escape is a unit of one byte, left for the decoder to refuse.
    private func unit(at start: Int, lead: UInt8) -> Unit {
        if lead < 0x80, lead != backslash { return Unit(length: 1, decodedBytes: 1) }
        if lead != backslash {
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            guard start + length <= input.count else { return Unit(length: 1, decodedBytes: 1) }
            let second = length > 1 ? input[start + 1] : 0
            let breaks =
                (lead == 0xC2 && second == 0x85)
                || (lead == 0xE2 && second == 0x80 && (input[start + 2] == 0xA8 || input[start + 2] == 0xA9))
            return Unit(length: length, decodedBytes: length, isLineBreak: breaks)
        }
        guard start + 1 < input.count else { return Unit(length: 1, decodedBytes: 1) }
        switch input[start + 1] {
        case UInt8(ascii: "n"): return Unit(length: 2, decodedBytes: 1, isLineBreak: true, isLF: true)
        case UInt8(ascii: "r"): return Unit(length: 2, decodedBytes: 1, isLineBreak: true, isCR: true)
        case UInt8(ascii: "f"): return Unit(length: 2, decodedBytes: 1, isLineBreak: true)
        case UInt8(ascii: "u"):
            guard let value = hex4(at: start + 2) else { return Unit(length: 1, decodedBytes: 1) }
            if (0xD800...0xDBFF).contains(value), start + 11 < input.count, input[start + 6] == backslash,
                input[start + 7] == UInt8(ascii: "u"), let low = hex4(at: start + 8), (0xDC00...0xDFFF).contains(low)
            {
                return Unit(length: 12, decodedBytes: 4)
            }
            let decoded = value < 0x80 ? 1 : value < 0x800 ? 2 : 3
            let breaks = Unicode.Scalar(value).map(CatalogText.isLineBreak) ?? false
            return Unit(length: 6, decodedBytes: decoded, isLineBreak: breaks, isCR: value == 0x0D, isLF: value == 0x0A)
        default: return Unit(length: 2, decodedBytes: 1)
        }
    }

    /// The four hex digits at `start` as a number, or nil.
    private func hex4(at start: Int) -> UInt32? {
        guard start + 4 <= input.count else { return nil }
        var value: UInt32 = 0
        for k in start..<(start + 4) {
            let b = input[k]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
