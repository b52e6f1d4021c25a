import Glibc
import PreviewCatalog
import PreviewCore

/// Reads files from ../shared beside the checkout (or `PREVIEWD_SHARED`).
package enum Fixtures {
    package static let shared: String = {
        if let env = getenv("PREVIEWD_SHARED") { return String(cString: env) }
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/shared"
    }()

    /// The file's text, nil when there is none.
    package static func read(_ relative: String) -> String? {
        bytes(relative).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The file's bytes (`relative` to ../shared), nil when there is none.
    package static func bytes(_ relative: String) -> [UInt8]? {
        bytes(at: shared + "/" + relative)
    }

    /// The bytes of the file at `path`, nil when there is none.
    package static func bytes(at path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var data: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n <= 0 { break }
            data += buf[..<n]
        }
        return data
    }
}

/// The Deezer API as the recorded bodies in ../shared/fixtures/deezer
/// answer it, for `http://api.test`: a path's own body when the test set
/// one, else the fixture named after the path (`/album/302127/tracks` is
/// `album-302127-tracks.json`; the query is ignored), else a playable
/// stand-in for a track without a fixture (no recorded body exists for
/// made-up ids; it keeps to SOURCES.md's track shape), else Deezer's
/// "no data" error.
package enum CatalogAnswers {
    package static let apiBase = "http://api.test"

    /// The answer to `url`, `bodies` by path first.
    package static func answer(_ url: String, bodies: [String: String] = [:]) -> HTTPResult {
        var path = String(url.dropFirst(apiBase.count))
        if let q = path.firstIndex(of: "?") { path = String(path[..<q]) }
        if let body = bodies[path] { return json(body) }
        let name = String(path.dropFirst()).replacingAll("/", with: "-") + ".json"
        if let text = Fixtures.read("fixtures/deezer/" + name) { return json(text) }
        if path.hasPrefix("/track/"), let id = Int(path.dropFirst("/track/".count)), id > 0 {
            return json(
                #"{"id":\#(id),"title":"Track \#(id)","preview":"http://cdn.test/\#(id).mp3?hdnea=exp=4000000000~x","artist":{"name":"A"}}"#
            )
        }
        return json(#"{"error":{"type":"DataException","message":"no data","code":800}}"#)
    }

    /// A 200 answer with a JSON body.
    package static func json(_ body: String) -> HTTPResult {
        HTTPResult(status: 200, contentType: "application/json", body: Array(body.utf8), transportError: nil)
    }
}

/// The catalog alone, as the daemon wires it, over `CatalogAnswers` and a
/// clock the test moves: a Deezer client, its preview URLs and the browser.
package final class CatalogBench {
    /// Bodies by API path, checked before the fixtures.
    package var bodies: [String: String] = [:]
    /// Requested URLs, in order.
    package private(set) var requested: [String] = []
    /// Monotonic seconds the rate limiter and the cache read.
    package var clock = 1000.0
    /// Unix seconds (signed-URL expiry): 2026-12-02.
    package var wallClock = 1_796_169_600.0
    private var timers: [(Double, () -> Void)] = []
    package private(set) var browser: CatalogBrowser!

    package init() {
        let client = DeezerClient(
            apiBase: CatalogAnswers.apiBase, now: { [unowned self] in clock },
            wallClock: { [unowned self] in wallClock },
            schedule: { [unowned self] delay, action in timers.append((clock + delay, action)) }
        ) {
            [unowned self] url, done in
            requested.append(url)
            done(CatalogAnswers.answer(url, bodies: bodies))
        }
        browser = CatalogBrowser(
            client: client, previewURLs: PreviewURLCache(wallClock: { [unowned self] in wallClock }),
            maxSongs: Queue.defaultMaxLength)
    }

    /// Runs the timers due (retries, the rate limiter's waits).
    package func settle() {
        while let i = timers.firstIndex(where: { $0.0 <= clock }) { timers.remove(at: i).1() }
    }

    /// What `later` gives, once every timer due has run; nil when it gave nothing.
    package func value<T>(_ later: Later<T>) -> T? {
        var got: T?
        later.run { got = $0 }
        settle()
        return got
    }
}
