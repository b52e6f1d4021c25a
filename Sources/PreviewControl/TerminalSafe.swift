import PreviewCore

/// Text from the daemon on its way to a terminal or a pipe. A catalog
/// title is third-party input: an ESC, BEL or C1 CSI in it could clear the
/// screen or retitle the window, so previewctl prints no control character
/// that came with data.
public enum TerminalSafe {
    /// `text` without C0 controls (tab and newline stay: previewctl's own
    /// layout), DEL (U+007F), C1 controls (U+0080 ... U+009F), and the
    /// invisible format characters that change what a line seems to say
    /// (`isInvisibleFormat`); the text around them stays as it was.
    public static func text(_ text: String) -> String {
        // Most output has none: one pass over the bytes decides. 0xC2 leads
        // C1 and the soft hyphen; the others lead the format characters.
        guard
            text.utf8.contains(where: {
                $0 < 0x20 && $0 != 0x09 && $0 != 0x0A || $0 == 0x7F || $0 == 0xC2 || $0 == 0xCD || $0 == 0xD8 || $0 == 0xE1
                    || $0 == 0xE2 || $0 == 0xE3 || $0 == 0xEF || $0 == 0xF3
            })
        else {
            return text
        }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars where !isControl(u) && !isInvisibleFormat(u) { out.append(u) }
        return String(out)
    }

    /// Whether `u` is dropped by `text(_:)` as a control character.
    static func isControl(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x09, 0x0A: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        default: return false
        }
    }

    /// Whether `u` is a bidirectional control (embeddings and overrides
    /// U+202A ... U+202E, isolates U+2066 ... U+2069, the marks LRM, RLM
    /// and ALM), which reorder the rest of a line (U+202E shows
    /// "evil\u{202E}3pm.exe" as "evilexe.mp3"), or a zero-width character
    /// that hides inside a word (U+200B, U+2060 ... U+2064, U+FEFF,
    /// U+180E, the deprecated U+206A ... U+206F), or one that shows as
    /// nothing: the soft hyphen, the combining grapheme joiner, the Hangul
    /// fillers, Khmer's inherent vowels, and the tag characters U+E0000 ...
    /// U+E007F, which carry hidden ASCII ("ASCII smuggling"). ZWNJ and ZWJ
    /// (U+200C, U+200D) and the variation selectors stay: Persian and Indic
    /// words and emoji sequences need them.
    static func isInvisibleFormat(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x200B, 0x200E, 0x200F, 0x202A...0x202E,
            0x2060...0x2064, 0x2066...0x206F, 0x3164, 0xFEFF, 0xFFA0, 0xE0000...0xE007F:
            return true
        default: return false
        }
    }
}
