import PreviewControl
import PreviewCore

/// Which MPD commands the web front end relays to previewd, and how (issue
/// 34). The page sends MPD command lines (`GET`/`POST /api/mpd?c=LINE`, up
/// to `maxCommands` of them, run as one command list); each is parsed as
/// the daemon parses it, checked against these lists and quoted anew, so
/// a line can hold one command only. A `GET` may only read; whatever
/// changes state is a `POST`, which `WebGuard` lets through with the
/// page's token only.
public enum WebCommands {
    /// Commands that only read, allowed in a `GET`.
    public static let reading: Set<String> = [
        "status", "currentsong", "stats", "playlistinfo", "playlistid", "plchanges", "lsinfo",
        "listplaylists", "listplaylist", "listplaylistinfo",
        "catalognow", "catalogsearch", "catalogchart", "cataloginfo", "cataloggenres", "catalogeditorial",
        "catalogradios", "catalogalbums", "catalogrelated", "catalogradio", "wantlist", "librarylist",
        "outputs",
    ]

    /// Commands that change state, allowed in a `POST` only.
    public static let changing: Set<String> = [
        "play", "playid", "pause", "stop", "next", "previous", "seekcur", "setvol", "volume",
        "add", "addid", "clear", "delete", "deleteid", "move", "moveid", "shuffle",
        "repeat", "random", "single", "consume", "autoplay",
        "load", "save", "playlistadd", "playlistdelete", "playlistclear", "playlistmove", "rm", "rename",
        "wantadd", "wantrm", "wanttoggle", "wantplay", "libraryadd", "libraryrm",
        "enableoutput", "disableoutput",
    ]

    /// Command lines in one request, at most: a tap on a song queues its
    /// list (the page sends at most 100 songs) between `clear` and `play`.
    public static let maxCommands = 128
    /// Bytes of one command line, at most.
    public static let maxLineBytes = 4096

    /// Why a request's commands are not relayed: an HTTP status and a line for the page.
    public struct Refusal: Error, Equatable, Sendable {
        public let status: Int
        public let reason: String
    }

    /// The lines to send the daemon for the request's `lines`.
    /// - Parameter changing: whether the request may change state (a `POST`).
    /// - Throws: `Refusal` 400 for no line, too many or too long ones, a
    ///   control character, a line the protocol cannot parse or a command
    ///   not relayed; 405 for a command that changes state in a `GET`.
    public static func check(_ lines: [String], changing allowed: Bool) throws(Refusal) -> [String] {
        guard !lines.isEmpty else { throw Refusal(status: 400, reason: "no command (c=LINE)") }
        guard lines.count <= maxCommands else { throw Refusal(status: 400, reason: "at most \(maxCommands) commands at once") }
        var checked: [String] = []
        for line in lines {
            guard line.utf8.count <= maxLineBytes else {
                throw Refusal(status: 400, reason: "a command is longer than \(maxLineBytes) bytes")
            }
            guard !line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw Refusal(status: 400, reason: "a command holds a control character")
            }
            let words: [String]
            do { words = try RequestParser.parse(line) } catch { throw Refusal(status: 400, reason: error.message) }
            guard let name = words.first else { throw Refusal(status: 400, reason: "an empty command") }
            if changing.contains(name) {
                guard allowed else { throw Refusal(status: 405, reason: "\(name) changes state: send it with POST") }
            } else if !reading.contains(name) {
                throw Refusal(status: 400, reason: "\(name) is not relayed by previewweb")
            }
            checked.append(([name] + words.dropFirst().map(RequestParser.quote)).joined(separator: " "))
        }
        return checked
    }

    /// The replies as JSON: an array with one array per command, of
    /// `[key, value]` pairs in the daemon's order.
    public static func json(_ replies: [[(String, String)]]) -> String {
        "["
            + replies.map { pairs in
                "["
                    + pairs.map { "[" + CatalogFormat.jsonString($0.0) + "," + CatalogFormat.jsonString($0.1) + "]" }
                    .joined(separator: ",") + "]"
            }.joined(separator: ",") + "]\n"
    }
}
