import PreviewCore
import Testing
@testable import PreviewServer
@testable import PreviewCatalog

/// Last.fm's client reports what happened; `LastfmError.protocolError` alone
/// words it for clients.
@Suite struct LastfmErrorTests {
    /// Runs one top-tracks request against a canned answer.
    private func topTracks(key: String? = "k", _ answer: HTTPResult) -> Result<[LastfmClient.Entry], LastfmError>? {
        let client = LastfmClient(base: "http://lastfm.test/", key: key) { _, done in done(answer) }
        client.keyFileHint = "/home/u/.config/previewd/lastfm.key"
        var out: Result<[LastfmClient.Entry], LastfmError>?
        client.top(.tracks, country: "canada", tag: nil, limit: 2) { out = $0.map(\.entries) }
        return out
    }

    private func json(_ text: String, status: Int = 200) -> HTTPResult {
        HTTPResult(status: status, contentType: "application/json", body: Array(text.utf8), transportError: nil)
    }

    @Test func failuresHaveKinds() {
        #expect(topTracks(key: nil, json("{}")) == .failure(.noKey(keyFile: "/home/u/.config/previewd/lastfm.key")))
        let unreachable = HTTPResult(status: 0, contentType: nil, body: [], transportError: "Connection refused")
        #expect(topTracks(unreachable) == .failure(.transport("Connection refused")))
        #expect(
            topTracks(json(#"{"error":6,"message":"country param invalid"}"#, status: 400))
                == .failure(.api(code: 6, message: "country param invalid")))
        #expect(topTracks(json(#"{"error":26}"#)) == .failure(.api(code: 26, message: nil)))
        #expect(topTracks(json("<html>", status: 502)) == .failure(.malformed(status: 502)))
        #expect(
            topTracks(json(#"{"tracks":{"track":[{"name":"T","artist":{"name":"A"}}]}}"#))
                == .success([LastfmClient.Entry(artist: "A", title: "T")]))
    }

    /// The ACK codes and texts clients have always had.
    @Test func acks() {
        #expect(
            LastfmError.noKey(keyFile: "/k").protocolError
                == ProtocolError(
                    .system,
                    "Last.fm charts need an API key: start previewd with --lastfm-key KEY, set PREVIEWD_LASTFM_KEY, or write the key to /k")
        )
        #expect(LastfmError.transport("timed out").protocolError == ProtocolError(.system, "cannot reach Last.fm: timed out"))
        #expect(
            LastfmError.api(code: 6, message: "country param invalid").protocolError
                == ProtocolError(.noExist, "Last.fm: country param invalid (Last.fm error 6)"))
        #expect(
            LastfmError.api(code: 29, message: "Rate limit exceeded").protocolError
                == ProtocolError(.system, "Last.fm: Rate limit exceeded (Last.fm error 29)"))
        #expect(LastfmError.api(code: 8, message: nil).protocolError == ProtocolError(.system, "Last.fm: error (Last.fm error 8)"))
        #expect(
            LastfmError.noAlbumsByCountry.protocolError
                == ProtocolError(.argument, "Last.fm has no album chart by country (no geo.getTopAlbums): give a tag"))
        #expect(
            LastfmError.malformed(status: 200).protocolError
                == ProtocolError(.system, "Last.fm: unexpected answer (HTTP status 200)"))
    }
}

/// `Commands.range` words `Arguments.RangeError`'s kinds as mpd's queue
/// commands do.
@Suite struct CommandRangeTests {
    @Test func rangeErrorsAsMPDWordsThem() throws {
        #expect(throws: ProtocolError(.argument, "Malformed range: 4:1")) { try Commands.range("4:1", count: 9) }
        #expect(throws: ProtocolError(.argument, "Integer or range expected: x:2")) { try Commands.range("x:2", count: 9) }
        #expect(throws: ProtocolError(.argument, "Integer or range expected: -1")) { try Commands.range("-1", count: 9) }
        #expect(throws: ProtocolError(.argument, "Number too large: 3000000000")) { try Commands.range("1:3000000000", count: 9) }
        #expect(throws: ProtocolError(.argument, "Bad song index")) { try Commands.range("10:", count: 9) }
        #expect(try Commands.range("2:", count: 9) == 2..<9)
    }
}
