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

    /// Whether `scalar` ends a line in some reader: LF, VT, FF, CR (C0),
    /// NEL (C1), LINE SEPARATOR and PARAGRAPH SEPARATOR (Unicode's
    /// mandatory breaks).
    public static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
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
        var scanner = JSONStringScanner(bytes)
        return scanner.run()
    }
}

/// `CatalogText.normalizeJSON`'s single pass: outside strings bytes are
/// copied; inside, the string is taken one unit at a time (a raw UTF-8
/// sequence, an escape, or an escaped surrogate pair), so a cut never
/// splits a character.
private struct JSONStringScanner {
    let input: [UInt8]
    var out: [UInt8] = []
    var i = 0

    init(_ input: [UInt8]) {
        self.input = input
        out.reserveCapacity(input.count)
    }

    mutating func run() -> [UInt8] {
        while i < input.count {
            let b = input[i]
            out.append(b)
            i += 1
            if b == UInt8(ascii: "\"") { string() }
        }
        return out
    }

    /// One string, from after its opening quote to after its closing one.
    private mutating func string() {
        var decoded = 0
        var cut = false
        var afterCR = false
        while i < input.count {
            let b = input[i]
            if b == UInt8(ascii: "\"") {
                out.append(b)
                i += 1
                return
            }
            guard let unit = self.unit(at: i) else {
                // A malformed escape: copied, for the decoder to refuse.
                out.append(b)
                i += 1
                continue
            }
            defer { i += unit.length }
            if cut { continue }
            if unit.isLineBreak {
                defer { afterCR = unit.isCR }
                if unit.isLF, afterCR { continue }
                if decoded + 1 > CatalogText.maxStringBytes { cut = true; continue }
                out.append(UInt8(ascii: " "))
                decoded += 1
                continue
            }
            afterCR = false
            if decoded + unit.decodedBytes > CatalogText.maxStringBytes { cut = true; continue }
            out.append(contentsOf: input[i..<(i + unit.length)])
            decoded += unit.decodedBytes
        }
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

    /// The unit starting at `start`, or nil for an escape that is not one.
    private func unit(at start: Int) -> Unit? {
        let b = input[start]
        if b != UInt8(ascii: "\\") {
            let length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
            guard start + length <= input.count else { return Unit(length: 1, decodedBytes: 1) }
            let raw = input[start..<(start + length)]
            let breaks = raw.elementsEqual([0xC2, 0x85]) || raw.elementsEqual([0xE2, 0x80, 0xA8])
                || raw.elementsEqual([0xE2, 0x80, 0xA9])
            return Unit(length: length, decodedBytes: length, isLineBreak: breaks)
        }
        guard start + 1 < input.count else { return nil }
        switch input[start + 1] {
        case UInt8(ascii: "n"): return Unit(length: 2, decodedBytes: 1, isLineBreak: true, isLF: true)
        case UInt8(ascii: "r"): return Unit(length: 2, decodedBytes: 1, isLineBreak: true, isCR: true)
        case UInt8(ascii: "f"): return Unit(length: 2, decodedBytes: 1, isLineBreak: true)
        case UInt8(ascii: "u"):
            guard let value = hex4(at: start + 2) else { return nil }
            if (0xD800...0xDBFF).contains(value), start + 11 < input.count, input[start + 6] == UInt8(ascii: "\\"),
               input[start + 7] == UInt8(ascii: "u"), let low = hex4(at: start + 8), (0xDC00...0xDFFF).contains(low) {
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
        for b in input[start..<(start + 4)] {
            guard let digit = hexDigit(b) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
