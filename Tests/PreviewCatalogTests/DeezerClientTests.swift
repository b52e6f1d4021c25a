import PreviewCore
import PreviewTestSupport
import Testing
@testable import PreviewCatalog

/// DeezerClient against a scripted HTTP side and a manual clock.
final class ScriptedAPI {
    var clock = 0.0
    var timers: [(Double, () -> Void)] = []
    var requests: [String] = []
    var held: [(String, (HTTPResult) -> Void)] = []
    var answer: (String) -> HTTPResult = { _ in ScriptedAPI.json(#"{"id":1,"title":"T"}"#) }
    var hold = false
    lazy var client = DeezerClient(
        apiBase: "http://api.test", now: { [unowned self] in clock }, wallClock: { 1_700_000_000 },
        schedule: { [unowned self] d, a in timers.append((clock + d, a)) }
    ) { [unowned self] url, done in
        requests.append(url)
        if hold { held.append((url, done)) } else { done(answer(url)) }
    }

    static func json(_ text: String, status: Int = 200) -> HTTPResult {
        HTTPResult(status: status, contentType: "application/json", body: Array(text.utf8), transportError: nil)
    }

    func advance(_ s: Double) {
        clock += s
        while let i = timers.firstIndex(where: { $0.0 <= clock }) { timers.remove(at: i).1() }
    }

    func track(_ path: String) -> Result<DeezerTrack, CatalogError>? {
        var out: Result<DeezerTrack, CatalogError>?
        client.request(path, as: DeezerTrack.self) { out = $0 }
        return out
    }
}

@Suite struct DeezerClientTests {
    @Test func neverMoreThan50RequestsPer5Seconds() {
        let api = ScriptedAPI()
        var done = 0
        for i in 0..<200 { api.client.request("/track/\(i)", as: DeezerTrack.self) { _ in done += 1 } }
        #expect(api.requests.count == 50)
        api.advance(4.9)
        #expect(api.requests.count == 50)
        api.advance(0.2)
        #expect(api.requests.count == 100)
        api.advance(5)
        api.advance(5)
        #expect(api.requests.count == 200)
        #expect(done == 200)
    }

    @Test func quotaIsRetriedWithBackoffThenBusy() throws {
        let api = ScriptedAPI()
        var quotaLeft = 2
        api.answer = { _ in
            if quotaLeft > 0 {
                quotaLeft -= 1
                return ScriptedAPI.json(#"{"error":{"type":"Exception","message":"Quota limit exceeded","code":4}}"#)
            }
            return ScriptedAPI.json(#"{"id":7,"title":"Seven"}"#)
        }
        var result: Result<DeezerTrack, CatalogError>?
        api.client.request("/track/7", as: DeezerTrack.self) { result = $0 }
        #expect(result == nil)
        api.advance(1)
        #expect(result == nil)
        api.advance(2)
        #expect(try result?.get().title == "Seven")
        #expect(api.requests.count == 3)

        quotaLeft = 100
        var busy: Result<DeezerTrack, CatalogError>?
        api.client.request("/track/8", as: DeezerTrack.self) { busy = $0 }
        api.advance(1); api.advance(2); api.advance(4)
        guard case .failure(let e)? = busy else { Issue.record("no answer"); return }
        #expect(e == .busy)
        #expect(
            e.protocolError(item: "deezer:track:8").ackLine(index: 0, command: "add")
                == "ACK [54@0] {add} deezer:track:8: the Deezer API is busy (request quota exceeded); try again in a few seconds\n")
    }

    @Test func answersAreCachedAndSharedWhileInFlight() throws {
        let api = ScriptedAPI()
        api.hold = true
        var a: DeezerTrack?, b: DeezerTrack?
        api.client.request("/track/1", as: DeezerTrack.self) { a = try? $0.get() }
        api.client.request("/track/1", as: DeezerTrack.self) { b = try? $0.get() }
        #expect(api.requests.count == 1)
        let (_, done) = api.held.removeFirst()
        done(ScriptedAPI.json(#"{"id":1,"title":"One"}"#))
        #expect(a?.title == "One" && b?.title == "One")
        api.hold = false
        #expect(try api.track("/track/1")?.get().title == "One")
        #expect(api.requests.count == 1)
        #expect(api.client.cacheHits == 1)
        api.advance(601)
        _ = api.track("/track/1")
        #expect(api.requests.count == 2)
    }

    @Test func noDataIsRememberedForTheCacheLifetime() {
        let api = ScriptedAPI()
        api.answer = { _ in ScriptedAPI.json(#"{"error":{"type":"DataException","message":"no data","code":800}}"#) }
        let noData = CatalogError.api(code: 800, type: "DataException", message: "no data")
        #expect(api.track("/chart/113/albums") == .failure(noData))
        #expect(api.track("/chart/113/albums") == .failure(noData))
        #expect(api.requests.count == 1, "Deezer's answer, kept as an answer would be")
        api.advance(601)
        #expect(api.track("/chart/113/albums") == .failure(noData))
        #expect(api.requests.count == 2, "asked again once the cache lifetime is over")
        // Other errors are not kept: a server error may pass.
        api.answer = { _ in ScriptedAPI.json(#"{"error":{"type":"Exception","message":"boom","code":700}}"#) }
        _ = api.track("/track/5")
        _ = api.track("/track/5")
        #expect(api.requests.count == 4)
    }

    @Test func theMemoryOfNoDataIsBounded() {
        let api = ScriptedAPI()
        api.answer = { _ in ScriptedAPI.json(#"{"error":{"type":"DataException","message":"no data","code":800}}"#) }
        let n = api.client.cacheCapacity
        // 0.2 s apart: within the rate limit, far inside the cache lifetime.
        for i in 0...n {
            _ = api.track("/track/\(i)")
            api.advance(0.2)
        }
        // The list was emptied when full, so the oldest is asked again, the newest is not.
        _ = api.track("/track/0")
        _ = api.track("/track/\(n)")
        #expect(api.requests.count == n + 2)
    }

    @Test func cachedPreviewURLsNeverOutliveTheirExpiry() {
        let api = ScriptedAPI()
        // Signed URL valid for 120 s of wall time: reusable for 60 s at most.
        api.answer = { _ in ScriptedAPI.json(#"{"id":2,"preview":"http://cdn/x.mp3?hdnea=exp=1700000120~acl"}"#) }
        _ = api.track("/track/2")
        api.advance(59)
        _ = api.track("/track/2")
        #expect(api.requests.count == 1)
        api.advance(2)
        _ = api.track("/track/2")
        #expect(api.requests.count == 2)
    }

    @Test func errorsAreNamed() {
        let api = ScriptedAPI()
        api.answer = { path in
            switch path {
            case "http://api.test/track/1": return ScriptedAPI.json(#"{"error":{"type":"Exception","message":"An error has occured"}}"#)
            case "http://api.test/track/2": return ScriptedAPI.json("<html>oops</html>", status: 500)
            case "http://api.test/track/3": return ScriptedAPI.json(#"{"id":3,"title":"#)
            case "http://api.test/track/4": return HTTPResult(status: 0, contentType: nil, body: [], transportError: "Timeout was reached")
            default: return ScriptedAPI.json(#"{"title":"no id"}"#)
            }
        }
        func ack(_ n: Int) -> String? {
            guard case .failure(let e)? = api.track("/track/\(n)") else { return nil }
            return e.protocolError(item: "deezer:track:\(n)").ackLine(index: 0, command: "add")
        }
        #expect(ack(1) == "ACK [52@0] {add} deezer:track:1: An error has occured\n")
        #expect(ack(2) == "ACK [52@0] {add} deezer:track:2: cannot reach the Deezer API: HTTP status 500\n")
        #expect(ack(3) == "ACK [52@0] {add} deezer:track:3: unexpected answer from the Deezer API: the body is not valid JSON\n")
        #expect(ack(4) == "ACK [52@0] {add} deezer:track:4: cannot reach the Deezer API: Timeout was reached\n")
        #expect(ack(5) == "ACK [52@0] {add} deezer:track:5: unexpected answer from the Deezer API: field \"id\" is missing\n")
    }

    @Test func expiryScan() {
        #expect(
            DeezerClient.earliestExpiry(in: Array(#"{"a":"x?hdnea=exp=1737423433~","b":"y?hdnea=exp=1737421622~"}"#.utf8)) == 1737421622)
        #expect(DeezerClient.earliestExpiry(in: Array(#"{"a":"no"}"#.utf8)) == nil)
    }
}

/// Numbers in Deezer's answers that no `Int` holds are a typed error of the
/// answer, never a trap: the recorded track body with its duration changed.
@Suite struct DeezerNumbersTests {
    static func recordedTrack() throws -> String {
        try #require(Fixtures.read("fixtures/deezer/track-3135556.json"))
    }

    static func answer(_ body: String) -> Result<DeezerTrack, CatalogError>? {
        let api = ScriptedAPI()
        api.answer = { _ in ScriptedAPI.json(body) }
        return api.track("/track/3135556")
    }

    @Test(arguments: ["99999999999999999999", "1e400", "2.5", "-9223372036854775809"])
    func aDurationPastIntIsMalformed(value: String) throws {
        let body = try Self.recordedTrack().replacingAll("\"duration\": 226,", with: "\"duration\": \(value),")
        #expect(body.contains(value))
        guard case .failure(.malformed)? = Self.answer(body) else {
            Issue.record("not refused as malformed: \(String(describing: Self.answer(body)))")
            return
        }
    }

    @Test func aNegativeDurationIsThePreviewsOwn() throws {
        let body = try Self.recordedTrack()
        #expect(try Self.answer(body)?.get().song().duration == 30)
        let negative = body.replacingAll("\"duration\": 226,", with: "\"duration\": -5,")
        #expect(try Self.answer(negative)?.get().song().duration == 30)
    }
}
