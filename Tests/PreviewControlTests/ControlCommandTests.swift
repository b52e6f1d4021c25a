import Testing
@testable import PreviewControl
@testable import PreviewCore

@Suite struct ControlCommandTests {
    @Test func parses() throws {
        #expect(try ControlCommand(arguments: ["add", "a", "b"]) == .add(["a", "b"]))
        #expect(try ControlCommand(arguments: ["play", "3"]) == .play(3))
        #expect(try ControlCommand(arguments: ["random", "on"]) == .random(true))
        #expect(try ControlCommand(arguments: ["volume", "+5"]) == .volume("+5"))
        #expect(try ControlCommand(arguments: ["prev"]) == .previous)
        #expect(try ControlCommand(arguments: ["library"]) == .library(action: "list", uri: nil))
        #expect(try ControlCommand(arguments: ["library", "add", "deezer:album:1"]) == .library(action: "add", uri: "deezer:album:1"))
        #expect(try ControlCommand(arguments: ["library", "rm", "deezer:artist:2"]) == .library(action: "rm", uri: "deezer:artist:2"))
    }

    @Test func usageErrors() {
        #expect(throws: ControlCommand.UsageError(message: "no command given")) { try ControlCommand(arguments: []) }
        #expect(throws: ControlCommand.UsageError(message: "unknown command \"dance\"", unknownCommand: "dance")) {
            try ControlCommand(arguments: ["dance"])
        }
        #expect(throws: ControlCommand.UsageError(message: "random takes on or off, not \"maybe\"")) {
            try ControlCommand(arguments: ["random", "maybe"])
        }
        #expect(throws: ControlCommand.UsageError(message: "del takes a queue position from 1, not \"0\"")) {
            try ControlCommand(arguments: ["del", "0"])
        }
        #expect(throws: ControlCommand.UsageError(message: "volume takes N, +N or -N (0 to 100), not \"abc\"")) {
            try ControlCommand(arguments: ["volume", "abc"])
        }
        #expect(throws: ControlCommand.UsageError(message: "library takes add or rm, not \"play\"")) {
            try ControlCommand(arguments: ["library", "play"])
        }
        #expect(throws: ControlCommand.UsageError(message: "library add takes one URI")) {
            try ControlCommand(arguments: ["library", "add"])
        }
    }

    @Test func statusLikeMpc() {
        let text = ControlFormat.status(
            status: [
                "state": "play", "song": "0", "playlistlength": "3", "elapsed": "15.0", "duration": "30.000",
                "volume": "50", "repeat": "1", "random": "0", "single": "0", "consume": "0",
            ],
            song: ["Artist": "Daft Punk", "Title": "One More Time", "file": "deezer:track:1"])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Daft Punk - One More Time")
        #expect(lines[1] == "[playing] #1/3   0:15/0:30 (50%)")
        #expect(lines[2] == "[===================>                    ]")
        #expect(lines[3] == "volume: 50%   repeat: on    random: off   single: off   consume: off   autoplay: off")
    }

    @Test func stoppedStatusIsOneLine() {
        #expect(
            ControlFormat.status(status: ["state": "stop", "volume": "100"], song: [:])
                == "volume:100%   repeat: off   random: off   single: off   consume: off   autoplay: off\n")
    }
}

@Suite struct CatalogCommandTests {
    @Test func searchRequest() throws {
        let c = try CatalogCommand(
            name: "search", arguments: ["albums", "king", "--artist", "Eminem", "--limit", "10", "--page", "3", "--json"])
        #expect(c.requests == [#"catalogsearch albums "king" artist "Eminem" limit 10 index 20"#])
        #expect(c.json && !c.add)
    }

    @Test func idsAndURIs() throws {
        #expect(
            try CatalogCommand(name: "album", arguments: ["deezer:album:5"]).requests
                == ["cataloginfo deezer:album:5", "lsinfo deezer:album:5"])
        #expect(
            try CatalogCommand(name: "artist", arguments: ["27"]).requests
                == ["lsinfo deezer:artist:27", "catalogalbums deezer:artist:27", "catalogrelated deezer:artist:27"])
        #expect(
            throws: ControlCommand.UsageError(
                message: "related takes an artist id or deezer:artist:ID, deezer:album:ID, deezer:track:ID, not \"deezer:playlist:5\"")
        ) {
            try CatalogCommand(name: "related", arguments: ["deezer:playlist:5"])
        }
    }

    @Test func recordsAndFormats() {
        let fields: [(String, String)] = [
            ("file", "deezer:track:1"), ("Artist", "A\tB"), ("Title", "T \"q\""), ("Time", "30"),
            ("album", "deezer:album:2"), ("Title", "Alb"), ("Type", "album"), ("total", "9"),
        ]
        let records = CatalogRecord.split(fields)
        #expect(records.map(\.uri) == ["deezer:track:1", "deezer:album:2"])
        #expect(CatalogFormat.plain(records) == "1\tT \"q\"\tA B\t\t0:30\tdeezer:track:1\n2\tAlb\t\talbum\t\tdeezer:album:2\n")
        #expect(
            CatalogFormat.json(records, total: 9)
                == #"{"results":[{"kind":"track","uri":"deezer:track:1","artist":"A\tB","title":"T \"q\"","duration":30},{"kind":"album","uri":"deezer:album:2","title":"Alb","type":"album"}],"total":9}"#
                + "\n")
    }

    @Test func widths() {
        #expect(CatalogFormat.displayWidth("abc") == 3)
        #expect(CatalogFormat.displayWidth("日本") == 4)
        #expect(CatalogFormat.displayWidth("e\u{301}") == 1)
        let table = CatalogFormat.table(
            CatalogRecord.split([("file", "deezer:track:1"), ("Title", String(repeating: "x", count: 200))]), width: 60)
        #expect(table.split(separator: "\n").allSatisfy { CatalogFormat.displayWidth(String($0)) <= 60 })
    }
}

@Suite struct CompletionTests {
    @Test func everyCompletedSubcommandIsKnownToTheParser() {
        for (name, _) in ControlCommand.subcommands {
            do {
                _ = try ControlCommand(arguments: [name])
            } catch {
                #expect(!error.message.hasPrefix("unknown command"), "\(name): \(error.message)")
            }
        }
    }

    @Test func scripts() {
        #expect(Completions.script(for: "bash")?.contains("complete -F _previewctl previewctl") == true)
        #expect(Completions.script(for: "fish")?.contains("-a want -d 'the Want to Listen list'") == true)
        #expect(Completions.script(for: "tcsh") == nil)
    }
}

@Suite struct StatusFormatTests {
    @Test func groupsDropWhenEmpty() {
        let playing = StatusFormat.values(
            status: ["state": "play", "song": "1", "playlistlength": "3", "elapsed": "15.0", "duration": "30.000", "volume": "80"],
            song: ["Title": "T", "Artist": "A", "file": "deezer:track:1"])
        #expect(StatusFormat.render(ControlCommand.defaultFormat, playing) == "playing: A - T 0:15/0:30")
        #expect(StatusFormat.render("[%album% / ]%title% \\[%position%/%length%\\] %percent%\\%", playing) == "T [2/3] 50%")
        let stopped = StatusFormat.values(status: ["state": "stop", "volume": "80"], song: [:])
        #expect(StatusFormat.render(ControlCommand.defaultFormat, stopped) == "stopped")
        #expect(StatusFormat.json(stopped) == #"{"state":"stopped","volume":80}"#)
    }
}
