import PreviewCore
import Testing
@testable import PreviewDaemon
@testable import PreviewServer

/// The settings file: its lines, its errors, and the command line over it.
@Suite struct ConfigFileTests {
    let none: (String) -> String? = { _ in nil }

    func parse(_ text: String, _ arguments: [String] = []) throws(DaemonOptions.UsageError) -> DaemonOptions {
        try DaemonOptions.parse(arguments, environment: none, uid: 0, config: ("/c/previewd.conf", text))
    }

    @Test func settingsCommentsAndQuotes() throws {
        let o = try parse(
            """
            # previewd
            output = pulse:usb
              prefetch=4
            restore-playing = yes

            on-event = player:notify-send "$PREVIEWD_TITLE"
            on-event = mixer:true
            socket = "/run/x socket "
            """)
        #expect(o.outputs == [.pulse(sink: "usb")] && o.prefetch == 4 && o.restorePlaying)
        #expect(o.hooks.map(\.setting) == ["player:notify-send \"$PREVIEWD_TITLE\"", "mixer:true"])
        #expect(o.socketPath == "/run/x socket ", "quotes keep the spaces at the ends")
        #expect(o.sources["prefetch"] == "/c/previewd.conf:3" && o.sources["output"] == "/c/previewd.conf:2")
    }

    @Test func theCommandLineOverridesTheFile() throws {
        let o = try parse("prefetch = 4\non-event = a\non-event = b\n", ["--prefetch", "1", "--on-event", "c"])
        #expect(o.prefetch == 1 && o.sources["prefetch"] == "command line")
        #expect(o.hooks.map(\.command) == ["c"], "the command line's hooks replace the file's")
        #expect(try parse("restore-playing = yes", ["--prefetch", "1"]).restorePlaying)
    }

    /// Issue 43: outputs repeat, in the file and on the command line, and
    /// the command line's replace the file's, as its hooks do.
    @Test func outputsRepeatAndTheCommandLineReplacesTheFiles() throws {
        let file = "output = pulse\noutput = fifo:/run/snapfifo\n"
        #expect(try parse(file).outputs == [.pulse(sink: nil), .fifo("/run/snapfifo")])
        #expect(
            try parse(file, ["--output", "null", "--output", "http:127.0.0.1:8000"]).outputs
                == [.null, .http(host: "127.0.0.1", port: 8000)])
        #expect(try parse("").outputs == [.pulse(sink: nil)])
        #expect(try parse("").streamListeners == 16 && parse("stream-listeners = 50").streamListeners == 50)
        #expect(throws: DaemonOptions.UsageError(description: "--stream-listeners takes a number from 1 to 256, not \"257\"")) {
            try parse("", ["--stream-listeners", "257"])
        }
        #expect(
            try parse(file).printedConfig(file: "f").contains("output = pulse\n# output: /c/previewd.conf:2\noutput = fifo:/run/snapfifo\n")
        )
        // Beyond loopback a stream needs the password file, from either place.
        #expect(
            throws: DaemonOptions.UsageError(
                description: "--output http:0.0.0.0:8000: beyond loopback (127.x.x.x) "
                    + "a stream needs a password: --stream-password-file FILE")
        ) {
            try parse("", ["--output", "http:0.0.0.0:8000"])
        }
        let guarded = try parse("stream-password-file = /c/stream.pass", ["--output", "http:0.0.0.0:8000"])
        #expect(guarded.streamPasswordFile == "/c/stream.pass" && guarded.outputs == [.http(host: "0.0.0.0", port: 8000)])
        #expect(
            guarded.printedConfig(file: "f").contains("# stream-password-file: /c/previewd.conf:1\nstream-password-file = /c/stream.pass\n")
        )
    }

    @Test func listedOutputsAndTheirNames() {
        #expect(OutputKind.listed([.pulse(sink: nil)]).map(\.enabled) == [true, false])
        #expect(OutputKind.listed([.pulse(sink: nil)]).map(\.kind) == [.pulse(sink: nil), .null])
        #expect(OutputKind.listed([.pulse(sink: nil), .fifo("/p")]).map(\.kind) == [.pulse(sink: nil), .fifo("/p")])
        #expect(OutputKind.names(of: [.fifo("/a"), .wav("/w"), .fifo("/b"), .fifo("/c")]) == ["fifo", "wav", "fifo 2", "fifo 3"])
        #expect(
            [OutputKind.pulse(sink: nil), .null, .wav("/w"), .fifo("/f"), .http(host: "127.0.0.1", port: 1)].map(\.isDevice)
                == [true, true, true, false, false])
    }

    @Test(arguments: [
        ("# x\nprefech = 4\n", "2: unknown key \"prefech\"; did you mean \"prefetch\"?"),
        ("prefetch 4", "1: expected key = value, not \"prefetch 4\""),
        ("prefetch = 1\n\nprefetch = 2", "3: prefetch is set twice (first on line 1)"),
        ("max-clients = 0", "1: max-clients takes a number from 1 to 100000, not \"0\""),
        ("restore-playing = maybe", "1: restore-playing takes yes or no, not \"maybe\""),
        ("help = yes", "1: unknown key \"help\""),
    ])
    func errorsNameTheFileAndLine(text: String, message: String) {
        #expect(throws: DaemonOptions.UsageError(description: "/c/previewd.conf:" + message)) { try parse(text) }
    }

    @Test func theFileIsFoundByConfigOrXDG() {
        #expect(ConfigFile.path(arguments: ["--config", "/x.conf"], environment: none) == ("/x.conf", true))
        #expect(ConfigFile.path(arguments: ["--config=/y.conf"], environment: none) == ("/y.conf", true))
        let env = ["XDG_CONFIG_HOME": "/home/u/.cfg", "HOME": "/home/u"]
        #expect(ConfigFile.path(arguments: [], environment: { env[$0] }) == ("/home/u/.cfg/previewd/previewd.conf", false))
        #expect(ConfigFile.path(arguments: [], environment: { ["HOME": "/h"][$0] }) == ("/h/.config/previewd/previewd.conf", false))
    }

    @Test func printedConfigSaysWhereEachCameFromAndReadsBack() throws {
        let o = try parse(
            "prefetch = 4\non-event = player:echo \"#1\"\n",
            [
                "--pace", "none", "--lastfm-key", "secret",
                "--socket", "/run/a socket ",
            ])
        let printed = o.printedConfig(file: "/c/previewd.conf")
        let lines = printed.split(separator: "\n")
        #expect(lines.contains("# prefetch: /c/previewd.conf:1") && lines.contains("prefetch = 4"))
        #expect(lines.contains("# pace: command line") && lines.contains("pace = none"))
        #expect(lines.contains("# max-clients: default") && lines.contains("max-clients = 100"))
        #expect(lines.contains("# lastfm-key: command line: set, not shown"))
        #expect(!printed.contains("secret"), "the key itself is not shown")
        // Every key a file may set is shown, and the text reads back as a
        // settings file with the same settings.
        for key in DaemonOptions.optionNames where !["lastfm-key", "country", "stream-password-file"].contains(key) {
            #expect(lines.contains { $0.hasPrefix(key + " = ") }, "\(key)")
        }
        // No locale in this environment names a country: said, not set.
        #expect(lines.contains("# country: default: none (no locale names one)"))
        #expect(lines.contains("# stream-password-file: default: none (an http: output serves loopback only)"))
        var again = try DaemonOptions.parse([], environment: none, uid: 0, config: ("/p.conf", printed))
        again.sources = o.sources
        again.lastfmKey = o.lastfmKey
        #expect(again == o)
    }
}
