import Testing
@testable import PreviewWeb
import PreviewCore

/// What previewweb relays to previewd (`WebCommands`) and its covers'
/// rules (`WebCovers`).
@Suite struct WebCommandsTests {
    @Test func readingCommandsPassInAGetAndAreQuotedAnew() throws {
        #expect(
            try WebCommands.check(["status", #"lsinfo "Charts/Top Albums""#], changing: false)
                == ["status", #"lsinfo "Charts/Top Albums""#])
        // A quote inside an argument stays inside it.
        #expect(try WebCommands.check([#"save "a\" b""#], changing: true) == [#"save "a\" b""#])
        #expect(
            try WebCommands.check(["catalogsearch tracks eminem limit 5"], changing: false)
                == [#"catalogsearch "tracks" "eminem" "limit" "5""#])
    }

    @Test func changesNeedAPost() throws {
        #expect(throws: WebCommands.Refusal(status: 405, reason: "clear changes state: send it with POST")) {
            try WebCommands.check(["status", "clear"], changing: false)
        }
        #expect(try WebCommands.check(["clear", "add deezer:album:302127", "play"], changing: true).count == 3)
    }

    @Test func whatIsNotRelayedIsRefused() {
        let cases: [([String], WebCommands.Refusal)] = [
            ([], .init(status: 400, reason: "no command (c=LINE)")),
            (["kill"], .init(status: 400, reason: "kill is not relayed by previewweb")),
            (["status\nkill"], .init(status: 400, reason: "a command holds a control character")),
            ([#"lsinfo "open"#], .init(status: 400, reason: #"Missing closing '"'"#)),
            (Array(repeating: "status", count: 129), .init(status: 400, reason: "at most 128 commands at once")),
            (["lsinfo " + String(repeating: "x", count: 4096)], .init(status: 400, reason: "a command is longer than 4096 bytes")),
            ([""], .init(status: 400, reason: "an empty command")),
        ]
        for (lines, refusal) in cases {
            #expect(throws: refusal) { try WebCommands.check(lines, changing: true) }
        }
    }

    @Test func repliesAsJSON() {
        #expect(
            WebCommands.json([[("file", "deezer:track:1"), ("Title", "A \"b\"\n<c>")], []])
                == #"[[["file","deezer:track:1"],["Title","A \"b\"\n<c>"]],[]]"# + "\n")
    }

    @Test func coverFilesAreNamedForTheirItem() {
        #expect(WebCovers.fileName(for: "deezer:album:302127") == "album-302127")
        #expect(WebCovers.fileName(for: "deezer:artist:27") == "artist-27")
        #expect(WebCovers.fileName(for: "deezer:radio:6") == "radio-6")
        #expect(WebCovers.fileName(for: "deezer:album:-1") == nil)
        #expect(WebCovers.fileName(for: "../etc/passwd") == nil)
        #expect(WebCovers.fileName(for: "https://example.com/a.mp3") == nil)
        #expect(WebCovers.isFileName("track-3135556"))
        #expect(!WebCovers.isFileName("track-"))
        #expect(!WebCovers.isFileName("album-1.tmp-42"))
        #expect(!WebCovers.isFileName("notes-1"))
    }

    @Test func onlyImagesAreServed() {
        #expect(WebCovers.contentType(of: [0xFF, 0xD8, 0xFF, 0xE0]) == "image/jpeg")
        #expect(WebCovers.contentType(of: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == "image/png")
        #expect(WebCovers.contentType(of: Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == "image/webp")
        #expect(WebCovers.contentType(of: Array("GIF89a".utf8)) == "image/gif")
        #expect(WebCovers.contentType(of: Array("<svg onload=alert(1)>".utf8)) == nil)
        #expect(WebCovers.contentType(of: []) == nil)
    }

    @Test func theLeastRecentlyUsedGoFirst() {
        let entries = (0..<5).map { WebCovers.Entry(name: "album-\($0)", size: 100, used: 10 - $0) }
        #expect(WebCovers.evictions(entries, maxFiles: 5, maxBytes: 500) == [])
        #expect(WebCovers.evictions(entries, maxFiles: 3, maxBytes: 500) == ["album-4", "album-3"])
        #expect(WebCovers.evictions(entries, maxFiles: 10, maxBytes: 250) == ["album-4", "album-3", "album-2"])
    }
}
