import PreviewCore
import Testing
@testable import PreviewServer
@testable import PreviewPlayback

/// The `status` reply's cache.
@Suite struct StatusCacheTests {
    @Test func theStatusReplyIsBuiltOncePerKey() {
        let cache = StatusCache()
        var builds = 0
        let key = PlayerController.StatusKey(changes: 1, elapsedMillis: 0, format: nil, bitrate: 0, error: nil)
        let build = { (r: inout Reply) in
            builds += 1
            r.field("state", "stop")
        }
        #expect(cache.reply(for: key, build: build) == Array("state: stop\n".utf8))
        #expect(cache.reply(for: key, build: build) == Array("state: stop\n".utf8))
        #expect(builds == 1)
        var later = key
        later.changes = 2
        _ = cache.reply(for: later, build: build)
        #expect(builds == 2)
    }
}
