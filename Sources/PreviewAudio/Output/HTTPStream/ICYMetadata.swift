import PreviewCore

/// Shoutcast's in-band metadata ("ICY"), for a player that asked for it
/// with `Icy-MetaData: 1`: after every `interval` bytes of audio comes one
/// length byte N and N × 16 bytes of `StreamTitle='…';` padded with NULs
/// (N = 0: no change). The title goes out after the audio of the song
/// before it, when the first block boundary after its start comes.
struct ICYInserter {
    /// Audio bytes between two metadata blocks (`icy-metaint`).
    static let interval = 16000
    private var untilBlock = ICYInserter.interval
    private var title: String?
    private var sent: String?

    /// The song now reaching the listener (its first audio is what comes next).
    mutating func setTitle(_ title: String) { self.title = title }

    /// Appends `audio` to `out` with a metadata block at each boundary it crosses.
    mutating func insert(_ audio: [UInt8], into out: inout [UInt8]) {
        var offset = 0
        while offset < audio.count {
            let n = min(untilBlock, audio.count - offset)
            out.append(contentsOf: audio[offset..<offset + n])
            offset += n
            untilBlock -= n
            if untilBlock == 0 {
                if let title, title != sent {
                    out.append(contentsOf: ICYInserter.block(title))
                    sent = title
                } else {
                    out.append(0)
                }
                untilBlock = ICYInserter.interval
            }
        }
    }

    /// The block for `title` (already made safe by `streamTitle`): its
    /// length byte, the text, NULs to a multiple of 16.
    static func block(_ title: String) -> [UInt8] {
        var text = Array("StreamTitle='\(title)';".utf8)
        let sixteens = (text.count + 15) / 16
        text += [UInt8](repeating: 0, count: sixteens * 16 - text.count)
        return [UInt8(sixteens)] + text
    }

    /// The longest title kept, in bytes: the block's length byte allows
    /// 4,080 and players show a line.
    static let maxTitleBytes = 400

    /// `Artist - Title` (or whichever is known) as a StreamTitle may carry
    /// it. The names are the catalog's, third-party text: a `'` or `;`
    /// would end the value early for players that parse naively, so `'`
    /// becomes `’` and `;` becomes `,`; control characters become spaces;
    /// the text is cut at a character boundary to `maxTitleBytes`.
    static func streamTitle(artist: String?, title: String?) -> String {
        let parts = [artist, title].compactMap { $0 }.filter { !$0.isEmpty }
        var result = ""
        for character in parts.joined(separator: " - ") {
            let safe: Character
            switch character {
            case "'": safe = "’"
            case ";": safe = ","
            default: safe = character.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? " " : character
            }
            guard result.utf8.count + String(safe).utf8.count <= maxTitleBytes else { break }
            result.append(safe)
        }
        return result
    }
}
