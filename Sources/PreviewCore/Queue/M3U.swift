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
    ///   `330e53`), and for a URI that is not `http(s)://` or `deezer:`.
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
                guard Song.isQueueable(line) else {
                    let shown = line.count > 80 ? line.prefix(80) + "…" : line[...]
                    throw ParseError(line: index + 1, reason: "only http(s):// and deezer: URIs can be queued, not \"\(shown)\"")
                }
                pending.uri = line
                songs.append(pending)
                pending = Song(uri: "")
            }
        }
        return songs
    }

    private static func clean(_ s: String) -> String { CatalogText.oneLine(s) }

    /// Whether `name` may name a stored playlist (`nameProblem`).
    /// - Throws: `.argument` with mpd's "Bad playlist name", or the reason
    ///   for a name mpd would take but no file here can hold.
    public static func checkName(_ name: String) throws(ProtocolError) {
        if let problem = nameProblem(name) { throw ProtocolError(.argument, problem) }
    }

    /// The most bytes (UTF-8) of a playlist name: its file `NAME.m3u` is
    /// written through `NAME.m3u.tmp-PID`, and a file name holds 255 bytes
    /// (NAME_MAX) with a PID of up to 7 digits.
    public static let maxNameBytes = 255 - ".m3u.tmp-".utf8.count - 7

    /// Whether `name` can name a playlist file (`nameProblem` is nil).
    public static func isValidName(_ name: String) -> Bool { nameProblem(name) == nil }

    /// Why `name` cannot name a playlist file, or nil: empty, `.`, `..`,
    /// `/` or a control character (a line break, NUL) give mpd's "Bad
    /// playlist name"; another
    /// leading `.` (a hidden file, never listed) and a name past
    /// `maxNameBytes` say so.
    public static func nameProblem(_ name: String) -> String? {
        if name.isEmpty || name == "." || name == ".." || name.contains("/") {
            return "Bad playlist name"
        }
        // Line breaks and NUL as mpd; the other controls would name a file
        // no terminal shows as it is.
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "Bad playlist name" }
        if name.hasPrefix(".") { return "Bad playlist name: it may not start with '.' (a hidden file)" }
        if name.utf8.count > maxNameBytes { return "Bad playlist name: longer than \(maxNameBytes) bytes" }
        return nil
    }
}
