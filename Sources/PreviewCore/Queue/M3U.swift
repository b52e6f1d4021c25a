/// Stored playlists as extended M3U text: `#EXTM3U`, then for each song an
/// `#EXTINF:SECONDS,ARTIST - TITLE` line, an optional `#EXTALB:ALBUM` line,
/// and its URI (`deezer:track:ID` or a URL). Parsing keeps going past
/// anything it does not understand, but refuses a duration that is a number
/// previewd cannot hold (`M3U.ParseError`): users edit and copy these files.
public enum M3U {
    /// A line of a stored playlist that cannot be read.
    public struct ParseError: Error, Equatable, Sendable {
        /// The line's number, from 1.
        public var line: Int
        /// What is wrong with it, e.g. `duration out of range: 330e53`.
        public var reason: String

        /// - Parameters: as the properties.
        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    /// The file text for `songs`.
    public static func format(_ songs: [Song]) -> String {
        var out = "#EXTM3U\n"
        for song in songs {
            let seconds = song.duration.map { Int(clamping: $0) } ?? -1
            let label: String
            switch (song.artist, song.title) {
            case (let a?, let t?): label = "\(a) - \(t)"
            case (nil, let t?): label = t
            default: label = ""
            }
            out += "#EXTINF:\(seconds),\(clean(label))\n"
            if let album = song.album { out += "#EXTALB:\(clean(album))\n" }
            out += clean(song.uri) + "\n"
        }
        return out
    }

    /// The songs in `text`; tags come from the `#EXT` lines before each URI.
    /// An `#EXTINF` duration that is not a number is ignored, and a negative
    /// one means "unknown" (`-1`, as players write it).
    /// - Throws: `ParseError` for a duration that reads as a number but is
    ///   not finite or not below `Seconds.maximum` (`inf`, `nan`, `1e400`,
    ///   `330e53`).
    public static func parse(_ text: String) throws(ParseError) -> [Song] {
        var songs: [Song] = []
        var pending = Song(uri: "")
        // Split on the bytes, not on Characters (grapheme breaking is most of
        // the time of a long playlist); CRLF files lose their CR.
        let lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, bytes) in lines.enumerated() where !bytes.isEmpty {
            let line = String(Substring(bytes.last == 0x0D ? bytes.dropLast() : bytes))
            if line.hasPrefix("#EXTINF:") {
                let body = line.dropFirst("#EXTINF:".count)
                let comma = body.firstIndex(of: ",") ?? body.endIndex
                if let seconds = Double(body[..<comma]) {
                    if Seconds.isValid(seconds) {
                        pending.duration = seconds
                    } else if !(seconds.isFinite && seconds < 0) {
                        throw ParseError(line: index + 1, reason: "duration out of range: \(body[..<comma])")
                    }
                }
                let label = comma < body.endIndex ? String(body[body.index(after: comma)...]) : ""
                if let dash = label.firstRange(of: " - ") {
                    pending.artist = String(label[..<dash.lowerBound])
                    pending.title = String(label[dash.upperBound...])
                } else if !label.isEmpty {
                    pending.title = label
                }
            } else if line.hasPrefix("#EXTALB:") {
                pending.album = String(line.dropFirst("#EXTALB:".count))
            } else if line.hasPrefix("#") || line.allSatisfy({ $0 == " " }) {
                continue
            } else {
                pending.uri = line
                songs.append(pending)
                pending = Song(uri: "")
            }
        }
        return songs
    }

    private static func clean(_ s: String) -> String {
        String(s.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }

    /// Whether `name` may name a stored playlist: not empty, no `/`, no
    /// newline, not `.` or `..`.
    /// - Throws: `.argument` "Bad playlist name" otherwise.
    public static func checkName(_ name: String) throws(ProtocolError) {
        guard isValidName(name) else { throw ProtocolError(.argument, "Bad playlist name") }
    }

    /// Whether `name` can name a playlist file: not empty, `.` or `..`, and
    /// without `/`, a line break or NUL.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".."
            && !name.contains("/") && !name.contains("\n") && !name.contains("\r") && !name.contains("\0")
    }
}
