/// Stored playlists as extended M3U text: `#EXTM3U`, then for each song an
/// `#EXTINF:SECONDS,ARTIST - TITLE` line, an optional `#EXTALB:ALBUM` line,
/// and its URI (`deezer:track:ID` or a URL). Parsing keeps going past
/// anything it does not understand.
public enum M3U {
    /// The file text for `songs`.
    public static func format(_ songs: [Song]) -> String {
        var out = "#EXTM3U\n"
        for song in songs {
            let seconds = song.duration.map { Int($0.rounded()) } ?? -1
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
    public static func parse(_ text: String) -> [Song] {
        var songs: [Song] = []
        var pending = Song(uri: "")
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : String(rawLine)
            if line.hasPrefix("#EXTINF:") {
                let body = line.dropFirst("#EXTINF:".count)
                let comma = body.firstIndex(of: ",") ?? body.endIndex
                if let seconds = Double(body[..<comma]), seconds >= 0 { pending.duration = seconds }
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
        guard !name.isEmpty, name != ".", name != "..",
              !name.contains("/"), !name.contains("\n"), !name.contains("\r"), !name.contains("\0") else {
            throw ProtocolError(.argument, "Bad playlist name")
        }
    }
}
