import PreviewCore

// The entries of `ControlCommand.commands`, by man page group. Each names
// its synopsis, its help (usage text and man page) and how its words parse.
extension ControlCommand {
    /// A command that takes no words.
    private static func bare(_ command: ControlCommand) -> @Sendable (Subcommand) throws(UsageError) -> ControlCommand {
        { s throws(UsageError) in
            try s.count(0...0)
            return command
        }
    }

    static let playbackCommands: [CLICommand] = [
        CLICommand(
            "add", ["URI..."], .playback, summary: "queue URIs",
            help: [
                "queue deezer:track:ID, deezer:album:ID, deezer:playlist:ID,",
                "deezer:artist:ID, deezer:chart, Deezer links or MP3 URLs",
            ]
        ) { s throws(UsageError) in
            guard !s.args.isEmpty else { throw UsageError(message: "add needs at least one URI") }
            return .add(s.args)
        },
        CLICommand(
            "play", ["[POS]"], .playback, summary: "start playing",
            help: ["start playing (at queue position POS, from 1)"]
        ) { s throws(UsageError) in .play(try s.playPosition()) },
        CLICommand("pause", [], .playback, summary: "pause", help: ["pause"], parse: bare(.pause)),
        CLICommand("toggle", [], .playback, summary: "play or pause", help: ["toggle between play and pause"], parse: bare(.toggle)),
        CLICommand(
            "pause-if-playing", [], .playback, summary: "pause when playing",
            help: ["pause, exit 1 when nothing was playing (for scripts)"], parse: bare(.pauseIfPlaying)),
        CLICommand("stop", [], .playback, summary: "stop", help: ["stop"], parse: bare(.stop)),
        CLICommand(
            "next", ["[--wait]"], .playback, summary: "next song",
            help: ["the next song (--wait: until it is heard)"]
        ) { s throws(UsageError) in
            // next answers at once (a held key must not wait for each song);
            // --wait waits for the new song's audio, as play does.
            guard s.args.allSatisfy({ $0 == "--wait" }) else { throw UsageError(message: "wrong number of arguments for \"next\"") }
            return .next(wait: !s.args.isEmpty)
        },
        CLICommand(
            "prev", aliases: ["previous"], [], .playback, summary: "previous song",
            help: ["the previous song, or this one from its start once it", "played past previewd's --previous-restart (3 s)"],
            parse: bare(.previous)),
        CLICommand(
            "seek", ["[+|-]S|P%"], .playback, summary: "jump within the song",
            help: ["jump to S seconds (or P percent), or S seconds on or back"]
        ) { s throws(UsageError) in
            .seek(try s.seekTarget())
        },
        CLICommand(
            "insert", ["URI"], .playback, summary: "queue after the current song",
            help: ["queue URI right after the current song"]
        ) { s throws(UsageError) in
            try s.count(1...1)
            return .insert(s.args[0])
        },
        CLICommand("shuffle", [], .playback, summary: "shuffle the queue", help: ["shuffle the queue"], parse: bare(.shuffle)),
        CLICommand(
            "random", ["on|off"], .playback, summary: "random order on or off",
            help: ["play in random order"]
        ) { s throws(UsageError) in .random(try s.onOff()) },
        CLICommand(
            "repeat", ["on|off"], .playback, summary: "repeat on or off",
            help: ["start over at the end of the queue"]
        ) { s throws(UsageError) in .repeat(try s.onOff()) },
        CLICommand(
            "autoplay", ["on|off"], .playback, summary: "autoplay on or off",
            help: [
                "when the queue's last song plays, add songs like the ones played lately",
                "(each leaves the queue once played); kept across restarts",
            ]
        ) { s throws(UsageError) in
            .autoplay(try s.onOff())
        },
        CLICommand("queue", [], .playback, summary: "list the queue", help: ["list the queue"], parse: bare(.queue)),
        CLICommand("clear", [], .playback, summary: "empty the queue", help: ["empty the queue"], parse: bare(.clear)),
        CLICommand(
            "del", aliases: ["delete"], ["POS"], .playback, summary: "remove a song",
            help: ["remove the song at position POS (from 1)"]
        ) { s throws(UsageError) in
            try s.count(1...1)
            return .delete(try s.position())
        },
        CLICommand(
            "crop", [], .playback, summary: "keep only the current song",
            help: ["remove every song but the current one"], parse: bare(.crop)),
        CLICommand(
            "move", ["FROM TO"], .playback, summary: "move a song",
            help: ["move the song at position FROM to TO (from 1)"]
        ) { s throws(UsageError) in
            let (from, to) = try s.moveFromTo()
            return .move(from, to)
        },
        CLICommand(
            "volume", ["[+|-]N"], .playback, summary: "show or change the volume",
            help: ["show, set or change the volume (percent)"]
        ) { s throws(UsageError) in .volume(try s.volumeChange()) },
        CLICommand(
            "status", [], .playback, summary: "show the current song",
            help: ["show the current song and state (--json: as JSON)"], parse: bare(.status)),
        CLICommand(
            "current", ["[--format FMT] [--json]"], .playback, summary: "one line about the current song",
            help: ["one line about the current song (FMT: see watch)"]
        ) { s throws(UsageError) in try s.statusLine() },
        CLICommand(
            "watch", ["[--format FMT] [--json] [--interval S]"], .playback,
            summary: "a line per change, for status bars",
            help: [
                "one line now and one per change (for status bars); FMT",
                "uses %title% %artist% %album% %file% %state% %elapsed%",
                "%duration% %percent% %volume% %position% %length%",
                "%event% %reason% %error%; [optional groups]",
            ]
        ) { s throws(UsageError) in try s.statusLine() },
    ]

    static let catalogCommands: [CLICommand] = [
        catalog(
            "search", ["[KINDS] QUERY [FILTER VALUE]... [--limit N] [--page N]"],
            summary: "search the catalog",
            help: [
                "search Deezer's catalog. KINDS: tracks (the default),",
                "albums, artists, playlists, radios, or several joined by",
                "commas (tracks,albums). FILTERs: --artist, --album,",
                "--track, --label (text); --dur-min, --dur-max (seconds);",
                "--bpm-min, --bpm-max (beats per minute). Every catalog",
                "command takes --add, --play (all; --play N: entry N",
                "only) and --json; open N shows entry N of a listing",
            ]),
        catalog(
            "chart",
            [
                "[tracks|albums|artists|playlists] [--genre NAME|ID] [--limit N] [--page N]",
                "[tracks|artists|albums] --country [NAME] | --tag TAG [--limit N] [--page N]",
            ],
            summary: "top lists",
            help: [
                "Deezer's charts, overall or by genre; a country's (yours",
                "without NAME: previewd's --country, else the locale's;",
                "NAME: US, USA, United States, UK, ...): Deezer's own for",
                "tracks where it has one, else Last.fm's (previewd needs",
                "--lastfm-key); a tag's from Last.fm (albums by tag only)",
            ]),
        catalog("genres", [], summary: "Deezer's genres", help: ["Deezer's genres (--limit, --page)"]),
        catalog("picks", ["[--genre G]"], summary: "editorial picks", help: ["editorial picks (--limit, --page)"]),
        catalog("releases", ["[--genre G]"], summary: "new releases", help: ["new releases (--limit, --page)"]),
        catalog("radios", ["[--genre G | --top]"], summary: "Deezer's radios", help: ["Deezer's radios (--limit, --page)"]),
        catalog(
            "album", ["ID [--shuffle]"], summary: "an album's tracks",
            help: ["an album's tracks (--shuffle: queue them shuffled and play)"]),
        catalog(
            "artist", ["ID [--radio]"], summary: "an artist's top tracks, albums and related artists",
            help: [
                "an artist's top tracks, albums and related artists",
                "(--play: the top tracks; --radio: the artist's mix)",
            ]),
        catalog(
            "radio", ["URI"], summary: "an artist's mix or a radio's tracks",
            help: ["an artist's mix or a Deezer radio's tracks"]),
        catalog(
            "related", ["URI"], summary: "more like an artist, album or track",
            help: ["more like an artist, album or track"]),
        catalog(
            "info", ["URI|ID"], summary: "details of an item",
            help: [
                "details of a track, album, artist or playlist; a bare",
                "ID is looked up as each of these",
            ]),
        CLICommand(
            "open", ["N [--play|--add] [--json]"], .catalog, summary: "entry N of the last listing",
            help: [
                "show entry N of the last listing: an album's tracks, an",
                "artist's page, a playlist's songs (--play: play it)",
            ]
        ) { s throws(UsageError) in try s.open() },
        CLICommand(
            "now", ["[--play N | --add N] [--json]"], .catalog, summary: "Listen Now: picks, releases, more like, want",
            help: [
                "Listen Now: Top songs in your country, Top Picks, New",
                "releases, More like your newest saved album, Want to",
                "Listen; numbered entries",
            ]
        ) { s throws(UsageError) in try s.now() },
    ]

    /// A catalog command: `CatalogCommand` parses it (and its `--add`,
    /// `--play` and `--json`).
    private static func catalog(_ name: String, _ synopses: [String], summary: String, help: [String]) -> CLICommand {
        CLICommand(name, synopses, .catalog, summary: summary, help: help) { s throws(UsageError) in
            .catalog(try CatalogCommand(name: s.name, arguments: s.args))
        }
    }

    static let savedCommands: [CLICommand] = [
        CLICommand(
            "want", ["[add|rm|toggle URI | play [URI]]"], .saved, summary: "the Want to Listen list",
            help: ["the Want to Listen list (albums and tracks), newest first"]
        ) { s throws(UsageError) in try s.want() },
        CLICommand(
            "library", ["[add|rm URI]"], .saved, summary: "saved albums, tracks and artists",
            help: ["the Library: saved albums, tracks and artists, newest first"]
        ) { s throws(UsageError) in
            try s.library()
        },
        CLICommand(
            "playlists", [], .saved, summary: "stored playlists", help: ["list the stored playlists"],
            parse: bare(.playlists)),
        CLICommand(
            "save", ["NAME [--replace]"], .saved, summary: "store the queue",
            help: ["store the queue as playlist NAME (--replace: over an old one)"]
        ) { s throws(UsageError) in
            try s.save()
        },
        CLICommand(
            "load", ["NAME [--play]"], .saved, summary: "queue a stored playlist",
            help: ["queue the stored playlist NAME (--play: and play it)"]
        ) { s throws(UsageError) in try s.load() },
        CLICommand(
            "playlist", ["NAME [add URI|N... | rename NEW | del POS | move FROM TO]"], .saved,
            summary: "show a stored playlist",
            help: [
                "show a stored playlist, or edit it; add takes URIs or",
                "numbers of the last listing (add 3 5: entries 3 and 5)",
            ]
        ) { s throws(UsageError) in
            try s.playlist()
        },
        CLICommand(
            "rmplaylist", ["NAME"], .saved, summary: "remove a stored playlist",
            help: ["remove the stored playlist NAME"]
        ) { s throws(UsageError) in
            try s.count(1...1)
            return .removePlaylist(s.args[0])
        },
    ]

    static let otherCommands: [CLICommand] = [
        CLICommand(
            "completions", ["bash|zsh|fish"], .other, summary: "print shell completions",
            help: ["print the completion script for the shell"]
        ) { s throws(UsageError) in .completions(try s.shell()) },
        CLICommand("version", [], .other, summary: "show the version", help: ["show previewctl's version"], parse: bare(.version)),
        CLICommand(
            "help", ["[COMMAND]"], .other, summary: "show every command, or one",
            help: ["this text, or one command's (also COMMAND --help)"]
        ) { s throws(UsageError) in
            try s.count(0...1)
            return .help(s.args.first)
        },
    ]
}
