import Testing
@testable import PreviewWeb
import PreviewCore

/// Where previewweb finds previewd's HTTP stream to relay (`WebStream`),
/// and the output commands it relays.
@Suite struct WebStreamTests {
    /// An `outputs` reply as previewd gives it: a null output and an HTTP stream.
    func outputs(enabled: String = "1", stream: String = "http://127.0.0.1:8000/") -> [(String, String)] {
        [
            ("outputid", "0"), ("outputname", "null"), ("plugin", "null"), ("outputenabled", "1"),
            ("outputid", "1"), ("outputname", "httpd"), ("plugin", "httpd"), ("outputenabled", enabled),
            ("attribute", "stream=" + stream),
        ]
    }

    @Test func theEnabledStreamOnLoopbackIsRelayed() throws {
        #expect(try WebStream.source(outputs: outputs()) == WebStream.Source(address: "127.0.0.1", port: 8000))
        #expect(try WebStream.source(outputs: outputs(stream: "http://127.0.0.2:65535/")).port == 65535)
        #expect(WebStream.formats["/stream.mp3"] == "audio/mpeg" && WebStream.formats["/stream.flac"] == "audio/flac")
    }

    @Test func noStreamOrAStreamOffIs404() {
        #expect(throws: WebStream.Refusal(status: 404, reason: "previewd's HTTP stream output is disabled (enableoutput)")) {
            try WebStream.source(outputs: outputs(enabled: "0"))
        }
        #expect(
            throws: WebStream.Refusal(
                status: 404,
                reason:
                    "previewd has no HTTP stream output (start it with --output http:127.0.0.1:PORT)")
        ) {
            try WebStream.source(outputs: Array(outputs().prefix(4)))
        }
        #expect(throws: WebStream.Refusal.self) { try WebStream.source(outputs: []) }
    }

    @Test func aStreamBeyondLoopbackIsNeverConnectedTo() {
        for url in [
            "http://0.0.0.0:8000/", "http://192.168.1.5:8000/", "http://127.0.0.1/", "http://127.0.0.1:0/",
            "http://127.0.0.1:8000@evil.example:80/", "https://127.0.0.1:8000/", "http://127.1:8000/",
        ] {
            #expect(throws: WebStream.Refusal.self, "\(url)") { try WebStream.source(outputs: outputs(stream: url)) }
        }
    }

    @Test func outputsAreReadAndSwitchedThroughTheRelay() throws {
        #expect(try WebCommands.check(["outputs"], changing: false) == ["outputs"])
        #expect(
            try WebCommands.check(["disableoutput 1", "enableoutput 0"], changing: true)
                == [#"disableoutput "1""#, #"enableoutput "0""#])
        #expect(throws: WebCommands.Refusal(status: 405, reason: "enableoutput changes state: send it with POST")) {
            try WebCommands.check(["enableoutput 1"], changing: false)
        }
    }
}
