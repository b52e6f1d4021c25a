/// Text from the daemon on its way to a terminal or a pipe. A catalog
/// title is third-party input: an ESC, BEL or C1 CSI in it could clear the
/// screen or retitle the window, so previewctl prints no control character
/// that came with data.
public enum TerminalSafe {
    /// `text` without C0 controls (tab and newline stay: previewctl's own
    /// layout), DEL (U+007F) and C1 controls (U+0080 ... U+009F); the text
    /// around them stays as it was.
    public static func text(_ text: String) -> String {
        // Most output has none: one pass over the bytes decides.
        guard text.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A || $0 == 0x7F || $0 == 0xC2 }) else {
            return text
        }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars where !isControl(u) { out.append(u) }
        return String(out)
    }

    /// Whether `u` is dropped by `text(_:)`.
    static func isControl(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x09, 0x0A: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        default: return false
        }
    }
}
