import Testing
@testable import PreviewCore

@Suite struct CatalogURITests {
    @Test func deezerURIs() throws {
        #expect(try CatalogURI(parsing: "deezer:track:3135556") == .track(3135556))
        #expect(try CatalogURI(parsing: "deezer:album:302127") == .album(302127))
        #expect(try CatalogURI(parsing: "deezer:playlist:908622995") == .playlist(908622995))
        #expect(try CatalogURI(parsing: "deezer:artist:27") == .artist(27))
        #expect(try CatalogURI(parsing: "deezer:chart") == .chart)
        #expect(try CatalogURI(parsing: "deezer:track:-1") == .track(-1))
    }

    @Test func webLinks() throws {
        #expect(try CatalogURI(parsing: "https://www.deezer.com/track/3135556") == .track(3135556))
        #expect(try CatalogURI(parsing: "https://www.deezer.com/fr/album/302127?utm_source=x") == .album(302127))
        #expect(try CatalogURI(parsing: "http://deezer.com/en/playlist/9") == .playlist(9))
    }

    @Test func streamsAndRefusals() throws {
        #expect(try CatalogURI(parsing: "http://127.0.0.1:8/a.mp3") == .stream("http://127.0.0.1:8/a.mp3"))
        #expect(throws: ProtocolError(.permission, "Access denied")) { try CatalogURI(parsing: "file:///etc/passwd") }
        #expect(throws: ProtocolError(.argument, "Unsupported URI scheme")) { try CatalogURI(parsing: "ftp://x/y.mp3") }
        #expect(throws: ProtocolError(.noExist, "No such directory")) { try CatalogURI(parsing: "music/a.mp3") }
        #expect(throws: ProtocolError(.argument, "Invalid Deezer id in deezer:track:abc")) { try CatalogURI(parsing: "deezer:track:abc") }
        // The byte-level track reader and the full parser give the same answers.
        #expect(try CatalogURI(parsing: "deezer:track:0123") == .track(123))
        #expect(try CatalogURI(parsing: "deezer:track:123456789012345678") == .track(123456789012345678))
        #expect(throws: ProtocolError(.argument, "Invalid Deezer id in deezer:track:0")) { try CatalogURI(parsing: "deezer:track:0") }
        #expect(throws: ProtocolError(.argument, "Invalid Deezer id in deezer:track:+5")) { try CatalogURI(parsing: "deezer:track:+5") }
        #expect(throws: ProtocolError(.argument, "Invalid Deezer id in deezer:track:99999999999999999999")) {
            try CatalogURI(parsing: "deezer:track:99999999999999999999")
        }
        #expect(throws: ProtocolError(.argument, "Invalid Deezer id in deezer:track:")) { try CatalogURI(parsing: "deezer:track:") }
        #expect(throws: ProtocolError(.argument, "Unsupported Deezer item kind: show")) { try CatalogURI(parsing: "deezer:show:1") }
        #expect(throws: ProtocolError(.argument, "Unsupported Deezer link: https://www.deezer.com/")) { try CatalogURI(parsing: "https://www.deezer.com/") }
    }

    @Test func expiry() {
        #expect(previewExpiry(of: "https://cdnt-preview.dzcdn.net/a.mp3?hdnea=exp=1737423433~acl=/x") == 1737423433)
        #expect(previewExpiry(of: "https://cdns-preview-d.dzcdn.net/stream/c-1.mp3") == nil)
    }

    @Test func trackSong() {
        let t = DeezerTrack(id: 5, title: "T", duration: 12, preview: "", readable: true,
                            artist: DeezerArtistRef(id: 1, name: "A"), album: nil)
        var expected = Song(uri: "deezer:track:5", title: "T", artist: "A", album: "Al", duration: 12)
        expected.unplayable = "deezer:track:5 has no preview"
        #expect(t.song(albumTitle: "Al") == expected)
        var unreadable = t
        unreadable.preview = "http://cdn/x.mp3"
        unreadable.readable = false
        #expect(unreadable.unplayableReason == "deezer:track:5 is not available in this country")
        unreadable.readable = nil
        #expect(unreadable.unplayableReason == nil)
    }
}

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
        #expect(throws: ControlCommand.UsageError(message: "unknown command \"dance\"", unknownCommand: "dance")) { try ControlCommand(arguments: ["dance"]) }
        #expect(throws: ControlCommand.UsageError(message: "random takes on or off, not \"maybe\"")) { try ControlCommand(arguments: ["random", "maybe"]) }
        #expect(throws: ControlCommand.UsageError(message: "del takes a queue position from 1, not \"0\"")) { try ControlCommand(arguments: ["del", "0"]) }
        #expect(throws: ControlCommand.UsageError(message: "volume takes N, +N or -N (0 to 100), not \"abc\"")) { try ControlCommand(arguments: ["volume", "abc"]) }
        #expect(throws: ControlCommand.UsageError(message: "library takes add or rm, not \"play\"")) { try ControlCommand(arguments: ["library", "play"]) }
        #expect(throws: ControlCommand.UsageError(message: "library add takes one URI")) { try ControlCommand(arguments: ["library", "add"]) }
    }

    @Test func statusLikeMpc() {
        let text = ControlFormat.status(
            status: ["state": "play", "song": "0", "playlistlength": "3", "elapsed": "15.0", "duration": "30.000",
                     "volume": "50", "repeat": "1", "random": "0", "single": "0", "consume": "0"],
            song: ["Artist": "Daft Punk", "Title": "One More Time", "file": "deezer:track:1"])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Daft Punk - One More Time")
        #expect(lines[1] == "[playing] #1/3   0:15/0:30 (50%)")
        #expect(lines[2] == "[===================>                    ]")
        #expect(lines[3] == "volume: 50%   repeat: on    random: off   single: off   consume: off   autoplay: off")
    }

    @Test func stoppedStatusIsOneLine() {
        #expect(ControlFormat.status(status: ["state": "stop", "volume": "100"], song: [:])
                == "volume:100%   repeat: off   random: off   single: off   consume: off   autoplay: off\n")
    }
}

@Suite struct CatalogCommandTests {
    @Test func searchRequest() throws {
        let c = try CatalogCommand(name: "search", arguments: ["albums", "king", "--artist", "Eminem", "--limit", "10", "--page", "3", "--json"])
        #expect(c.requests == [#"catalogsearch albums "king" artist "Eminem" limit 10 index 20"#])
        #expect(c.json && !c.add)
    }

    @Test func idsAndURIs() throws {
        #expect(try CatalogCommand(name: "album", arguments: ["deezer:album:5"]).requests
                == ["cataloginfo deezer:album:5", "lsinfo deezer:album:5"])
        #expect(try CatalogCommand(name: "artist", arguments: ["27"]).requests
                == ["lsinfo deezer:artist:27", "catalogalbums deezer:artist:27", "catalogrelated deezer:artist:27"])
        #expect(throws: ControlCommand.UsageError(
            message: "related takes an artist id or deezer:artist:ID, deezer:album:ID, deezer:track:ID, not \"deezer:playlist:5\"")) {
            try CatalogCommand(name: "related", arguments: ["deezer:playlist:5"])
        }
    }

    @Test func recordsAndFormats() {
        let fields: [(String, String)] = [("file", "deezer:track:1"), ("Artist", "A\tB"), ("Title", "T \"q\""), ("Time", "30"),
                                          ("album", "deezer:album:2"), ("Title", "Alb"), ("Type", "album"), ("total", "9")]
        let records = CatalogRecord.split(fields)
        #expect(records.map(\.uri) == ["deezer:track:1", "deezer:album:2"])
        #expect(CatalogFormat.plain(records) == "1\tT \"q\"\tA B\t\t0:30\tdeezer:track:1\n2\tAlb\t\talbum\t\tdeezer:album:2\n")
        #expect(CatalogFormat.json(records, total: 9)
                == #"{"results":[{"kind":"track","uri":"deezer:track:1","artist":"A\tB","title":"T \"q\"","duration":30},{"kind":"album","uri":"deezer:album:2","title":"Alb","type":"album"}],"total":9}"# + "\n")
    }

    @Test func widths() {
        #expect(CatalogFormat.displayWidth("abc") == 3)
        #expect(CatalogFormat.displayWidth("日本") == 4)
        #expect(CatalogFormat.displayWidth("e\u{301}") == 1)
        let table = CatalogFormat.table(CatalogRecord.split([("file", "deezer:track:1"), ("Title", String(repeating: "x", count: 200))]), width: 60)
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
