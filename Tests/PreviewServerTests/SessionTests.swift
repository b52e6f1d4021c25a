import PreviewTestSupport
import Testing
import PreviewCore
@testable import PreviewPlayback
@testable import PreviewDaemon
@testable import PreviewServer

@Suite struct SessionTests {
    @Test func freshStatusMatchesMPDShape() {
        let h = Harness()
        let c = h.connect()
        #expect(
            h.send(c, "status\n") == """
                volume: 100
                repeat: 0
                random: 0
                single: 0
                consume: 0
                autoplay: 0
                partition: default
                playlist: 1
                playlistlength: 0
                mixrampdb: 0
                state: stop
                OK

                """)
    }

    @Test func errorsAreMPDs() {
        let h = Harness()
        let c = h.connect()
        #expect(h.send(c, "foo bar\n") == "ACK [5@0] {} unknown command \"foo\"\n")
        #expect(h.send(c, "status 1\n") == "ACK [2@0] {status} wrong number of arguments for \"status\"\n")
        #expect(h.send(c, "add\n") == "ACK [2@0] {add} too few arguments for \"add\"\n")
        #expect(h.send(c, "play 99\n") == "ACK [2@0] {play} Bad song index\n")
        #expect(h.send(c, "playid 9\n") == "ACK [50@0] {playid} No such song\n")
        #expect(h.send(c, "setvol 101\n") == "ACK [2@0] {setvol} Number too large: 101\n")
        #expect(h.send(c, "add \"abc\n") == "ACK [5@0] {} Missing closing '\"'\n")
        #expect(h.send(c, "next\n") == "ACK [55@0] {next} Not playing\n")
        #expect(h.send(c, "ping\n") == "OK\n")
    }

    @Test func commandListsStopAtFirstError() {
        let h = Harness()
        let c = h.connect()
        #expect(
            h.send(c, "command_list_ok_begin\nping\nadd http://x/a.mp3\nfoo\nping\ncommand_list_end\n")
                == "list_OK\nlist_OK\nACK [5@2] {} unknown command \"foo\"\n")
        #expect(h.controller.queueLength == 1)
        #expect(h.send(c, "command_list_begin\nping\nstatus\ncommand_list_end\n").hasSuffix("state: stop\nOK\n"))
    }

    @Test func pipelinedRequestsAnswerInOrder() {
        let h = Harness()
        let c = h.connect()
        #expect(h.send(c, "ping\naddid http://x/a.mp3\nping\n") == "OK\nId: 1\nOK\nOK\n")
    }

    @Test func pipelinedRequestsWaitWhileTheirRepliesBackUp() {
        let h = Harness()
        let c = h.connect()
        let n = 3000  // 390 KB of status replies
        let requests = String(repeating: "status\n", count: n) + "addid http://x/a.mp3\n"
        Array(requests.utf8).withUnsafeBytes { c.receive($0) }
        // Answered up to the bound only; the rest waits in the session.
        #expect(c.inputHeld)
        #expect(c.pendingOutput.count >= ClientSession.replyHoldBytes)
        #expect(c.pendingOutput.count < ClientSession.replyHoldBytes + 512)
        #expect(h.controller.queueLength == 0)
        let lines = h.take(c).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0 == "state: stop" }.count == n)
        #expect(lines.suffix(3) == ["Id: 1", "OK", ""])
        #expect(!c.inputHeld)
        #expect(h.controller.queueLength == 1)
    }

    @Test func aClientThatClosedItsSideIsFinishedOnlyOnceAllIsWritten() {
        let h = Harness()
        let c = h.connect()
        let requests = String(repeating: "status\n", count: 3000) + "ping\n"  // 390 KB of replies
        Array(requests.utf8).withUnsafeBytes { c.receive($0) }
        c.endOfInput()
        // Replies wait, and requests behind them: not finished yet.
        #expect(c.inputHeld)
        #expect(!c.finished)
        let lines = h.take(c).split(separator: "\n")
        #expect(lines.filter { $0 == "OK" }.count == 3001)
        #expect(c.finished)
    }

    @Test func idleReportsOtherClientsChanges() {
        let h = Harness()
        let a = h.connect()
        let b = h.connect()
        #expect(h.send(a, "idle\n") == "")
        #expect(h.send(b, "add http://x/a.mp3\n") == "OK\n")
        #expect(h.take(a) == "changed: playlist\nOK\n")
        #expect(h.send(a, "idle player\n") == "")
        #expect(h.send(a, "noidle\n") == "OK\n")
        // Changes while not idle accumulate and are reported at once.
        h.send(b, "repeat 1\n")
        #expect(h.send(a, "idle options\n") == "changed: options\nOK\n")
    }

    @Test func commandDuringIdleClosesLikeMPD() {
        let h = Harness()
        let a = h.connect()
        h.send(a, "idle\n")
        h.send(a, "status\n")
        #expect(a.closing)
    }

    @Test func invalidUTF8FailsItsCommandList() {
        let h = Harness()
        let c = h.connect()
        let bytes: [UInt8] = Array("command_list_begin\nping\n".utf8) + [0x61, 0xFF, 0x0A] + Array("ping\ncommand_list_end\nping\n".utf8)
        bytes.withUnsafeBytes { c.receive($0) }
        #expect(h.take(c) == "ACK [2@1] {} request is not valid UTF-8\nOK\n")
    }

    @Test func overlongLineIsRefusedAndConnectionStays() {
        let h = Harness()
        let c = h.connect()
        let long = String(repeating: "a", count: LineFramer.maxLineBytes + 10)
        #expect(h.send(c, "ping " + long + "\nping\n") == "ACK [2@0] {} line too long (at most 65536 bytes)\nOK\n")
    }

    @Test func overSizeCommandListRunsNothingAndClosesTheConnection() {
        let h = Harness()
        let c = h.connect()
        #expect(h.send(c, "add deezer:track:3135556\n") == "OK\n")
        let list = h.connect(maxCommandListBytes: 64)
        let lines = (0..<10).map { "setvol \($0)" }.joined(separator: "\n")
        let reply = h.send(list, "command_list_begin\n\(lines)\nclear\ncommand_list_end\nclear\n")
        // Nine bytes a line with its newline, as mpd counts: seven fit.
        #expect(reply == "ACK [2@7] {} command list too long (at most 64 bytes); closing the connection\n")
        #expect(list.closing)
        #expect(h.send(c, "status\n").contains("playlistlength: 1\n"))
    }

    @Test func addWaitsForTheCatalogAndKeepsLaterLinesQueued() {
        let h = Harness()
        h.holdAnswers = true
        let c = h.connect()
        #expect(h.send(c, "addid deezer:track:3135556\nping\n") == "")
        h.release()  // /track/3135556
        #expect(h.take(c) == "")  // the album's tags come first
        h.release()  // /album/302127
        #expect(h.take(c) == "Id: 1\nOK\nOK\n")
        #expect(
            h.send(c, "playlistinfo\n") == """
                file: deezer:track:3135556
                Artist: Daft Punk
                Title: Harder, Better, Faster, Stronger
                Album: Discovery
                AlbumArtist: Daft Punk
                Track: 4
                Disc: 1
                Date: 2001-03-07
                Genre: Dance
                Label: Daft Life Ltd./ADA France
                Time: 30
                duration: 30.000
                Pos: 0
                Id: 1
                OK

                """)
    }

    @Test func otherClientsAreServedWhileOneWaits() {
        let h = Harness()
        h.holdAnswers = true
        let a = h.connect()
        let b = h.connect()
        #expect(h.send(a, "add deezer:album:302127\n") == "")
        #expect(h.send(b, "ping\n") == "OK\n")
        h.release()  // /album/302127
        h.release()  // /album/302127/tracks
        #expect(h.take(a) == "OK\n")
        #expect(h.controller.queueLength == 14)
        let first = h.controller.queuedSongs[0].song
        #expect(
            [first.uri, first.title, first.artist, first.album] == ["deezer:track:3135553", "One More Time", "Daft Punk", "Discovery"])
        #expect(first.duration == 30 && first.track == 1 && first.disc == 1)
        // Every track of the album shares one AlbumTags, from /album/302127.
        #expect(first.albumTags === h.controller.queuedSongs[13].song.albumTags)
        #expect(first.albumTags.map { [$0.artist, $0.date, $0.label] } == ["Daft Punk", "2001-03-07", "Daft Life Ltd./ADA France"])
        #expect(first.albumTags?.genres == ["Dance"])
    }

    @Test func deezerErrorBecomesACK() {
        let h = Harness()
        let c = h.connect()
        #expect(h.send(c, "add deezer:track:-1\n") == "ACK [50@0] {add} deezer:track:-1: not found (Deezer: no data, error 800)\n")
        h.bodies["/track/5"] = #"{"error":{"type":"Exception","message":"An error has occured"}}"#
        #expect(h.send(c, "add deezer:track:5\n") == "ACK [52@0] {add} deezer:track:5: An error has occured\n")
        #expect(h.send(c, "add file:///etc/passwd\n") == "ACK [4@0] {add} Access denied\n")
    }

    @Test func relativePositions() {
        let h = Harness()
        let c = h.connect()
        #expect(h.send(c, "addid http://x/a.mp3 +0\n") == "ACK [55@0] {addid} No current song\n")
        h.send(c, "add http://x/0.mp3\nadd http://x/1.mp3\nadd http://x/2.mp3\nplay 1\n")
        #expect(h.send(c, "addid http://x/n.mp3 +0\n") == "Id: 4\nOK\n")
        #expect(h.controller.position(of: 4) == 2)
        #expect(h.send(c, "addid http://x/m.mp3 -0\n") == "Id: 5\nOK\n")
        #expect(h.controller.position(of: 5) == 1)
        #expect(h.send(c, "addid http://x/z.mp3 9\n") == "ACK [2@0] {addid} Number too large: 9\n")
    }
}

@Suite struct PlaybackTests {
    @Test func playUsesCachedPreviewAndAdvancesOnEnd() throws {
        let h = Harness()
        let c = h.connect()
        h.send(c, "add deezer:album:302127\n")
        let before = h.requested.count
        h.send(c, "play\n")
        let (stream, url) = try #require(h.engine.lastPlay)
        #expect(url.hasPrefix("https://cdnt-preview.dzcdn.net/") == false || h.requested.count > before)
        h.controller.handle(.streamStarted(stream, AudioFormat(sampleRate: 44100, channels: 2), bitrate: 128, totalFrames: nil))
        h.controller.handle(.streamFinished(stream, frames: 1_323_000))
        #expect(h.controller.currentID == 2)
        #expect(h.controller.queuedSongs[0].song.duration == 30.0)
    }

    @Test func forbiddenPreviewIsResolvedOnceMore() throws {
        let h = Harness()
        let c = h.connect()
        h.send(c, "add http://x/a.mp3\n")
        h.send(c, "add deezer:track:3135556\n")
        h.send(c, "play 1\n")
        let (first, _) = try #require(h.engine.lastPlay)
        let requests = h.requested.count
        h.controller.handle(.streamFailed(first, .httpStatus(403), frames: 0))
        #expect(h.requested.count == requests + 1)
        #expect(h.requested.last == "http://api.test/track/3135556")
        let (second, _) = try #require(h.engine.lastPlay)
        #expect(second != first)
        // A second 403 on the fresh URL skips the song with an error.
        h.controller.handle(.streamFailed(second, .httpStatus(403), frames: 0))
        #expect(h.controller.lastError == "deezer:track:3135556: HTTP status 403")
        #expect(h.controller.state == .stop)
    }

    @Test func failedSongIsSkippedWithError() throws {
        let h = Harness()
        let a = h.connect()
        h.send(a, "add http://x/bad.mp3\nadd http://x/good.mp3\nplay\n")
        #expect(h.send(a, "idle\n") == "changed: playlist\nchanged: player\nOK\n")
        #expect(h.send(a, "idle player\n") == "")
        let (bad, _) = try #require(h.engine.lastPlay)
        h.controller.handle(.streamFailed(bad, .notAudio("the server sent text/html"), frames: 0))
        #expect(h.take(a) == "changed: player\nOK\n")
        #expect(h.engine.lastPlay?.1 == "http://x/good.mp3")
        #expect(h.send(a, "status\n").contains("error: http://x/bad.mp3: not audio: the server sent text/html\n"))
        #expect(h.send(a, "clearerror\nstatus\n").contains("error:") == false)
    }

    @Test func emptyPreviewIsSkipped() throws {
        let h = Harness()
        let c = h.connect()
        h.bodies["/track/77"] = #"{"id":77,"title":"Gone","preview":"","readable":false}"#
        h.send(c, "add deezer:track:77\nadd http://x/next.mp3\n")
        h.send(c, "play\n")
        #expect(h.controller.lastError == "deezer:track:77 has no preview")
        #expect(h.engine.lastPlay?.1 == "http://x/next.mp3")
    }

    @Test func everySongFailingStops() throws {
        let h = Harness()
        let c = h.connect()
        h.send(c, "add http://x/1.mp3\nadd http://x/2.mp3\nrepeat 1\nplay\n")
        for _ in 0..<2 {
            let (id, _) = try #require(h.engine.lastPlay)
            h.controller.handle(.streamFailed(id, .httpStatus(404), frames: 0))
        }
        #expect(h.controller.state == .stop)
    }

    @Test func statusWhilePlaying() throws {
        let h = Harness()
        let c = h.connect()
        h.send(c, "add http://x/1.mp3\nadd http://x/2.mp3\nplay\n")
        let (id, _) = try #require(h.engine.lastPlay)
        h.engine.positionValue = PlaybackPosition(
            stream: id, frames: 44100 * 2, format: AudioFormat(sampleRate: 44100, channels: 2), bitrate: 128)
        let status = h.send(c, "status\n")
        #expect(
            status.contains(
                "state: play\nsong: 0\nsongid: 1\ntime: 2:0\nelapsed: 2.000\nbitrate: 128\naudio: 44100:16:2\nnextsong: 1\nnextsongid: 2\nOK\n"
            ))
    }

    @Test func pauseAndVolumeReachTheEngine() {
        let h = Harness()
        let c = h.connect()
        h.send(c, "add http://x/1.mp3\nplay\npause\nsetvol 40\nvolume -5\n")
        #expect(h.engine.calls.suffix(3) == [.paused(true), .volume(40), .volume(35)])
        #expect(h.send(c, "getvol\n") == "volume: 35\nOK\n")
    }
}

@Suite struct DaemonOptionsTests {
    @Test func defaultsAndEnvironment() throws {
        let env = ["XDG_RUNTIME_DIR": "/run/user/1", "HOME": "/home/u", "PREVIEWD_API_BASE": "http://127.0.0.1:9/api"]
        let o = try DaemonOptions.parse([], environment: { env[$0] }, uid: 1)
        #expect(o.socketPath == "/run/user/1/previewd/socket")
        #expect(o.apiBase == "http://127.0.0.1:9/api")
        #expect(o.stateDirectory == "/home/u/.local/state/previewd")
        #expect(o.outputs == [.pulse(sink: nil)])
    }

    @Test func options() throws {
        let o = try DaemonOptions.parse(
            ["--output", "wav:/tmp/x.wav", "--pace=none", "--socket", "/s", "--log-level", "debug"],
            environment: { _ in nil }, uid: 0)
        #expect(o.outputs == [.wav("/tmp/x.wav")])
        #expect(!o.realtimePace)
        #expect(o.socketPath == "/s")
        #expect(o.logLevel == .debug)
        let p = try DaemonOptions.parse(
            ["--output=pulse:alsa_output.usb", "--prefetch", "0", "--prefetch-memory", "16"],
            environment: { _ in nil }, uid: 0)
        #expect(p.outputs == [.pulse(sink: "alsa_output.usb")])
        #expect(p.prefetch == 0)
        #expect(p.prefetchMemory == 16 << 20)
    }

    @Test func usageErrors() {
        #expect(
            throws: DaemonOptions.UsageError(
                description: "--output must be pulse, pulse:SINK, null, wav:PATH, fifo:PATH or http:HOST:PORT, not \"alsa\"")
        ) {
            try DaemonOptions.parse(["--output", "alsa"], environment: { _ in nil }, uid: 0)
        }
        #expect(throws: DaemonOptions.UsageError(description: "--prefetch takes a number of songs from 0 to 16, not \"-1\"")) {
            try DaemonOptions.parse(["--prefetch", "-1"], environment: { _ in nil }, uid: 0)
        }
        #expect(throws: DaemonOptions.UsageError(description: "--socket needs a value")) {
            try DaemonOptions.parse(["--socket"], environment: { _ in nil }, uid: 0)
        }
        #expect(throws: DaemonOptions.UsageError(description: "unknown option \"--frobnicate\" (see --help)")) {
            try DaemonOptions.parse(["--frobnicate"], environment: { _ in nil }, uid: 0)
        }
    }
}
