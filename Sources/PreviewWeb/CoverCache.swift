import PreviewCore
import PreviewPlatform
import Synchronization

/// Covers kept on disk for the page (`GET /cover?uri=URI`), so a cover is
/// fetched from previewd (`albumart`, which fetches it from Deezer's image
/// host) once, and the page loads images from its own origin only (its
/// Content-Security-Policy allows nothing else). Bounded by
/// `WebCovers.maxFiles` and `.maxBytes`, the least recently used going
/// first; a URI without a cover is remembered for `missLifetime` seconds
/// (at most `maxMisses` of them) so a page does not ask again at each view.
public final class CoverCache: Sendable {
    /// The cache's directory (mode 0700).
    public let directory: String
    private let state: Mutex<State>
    /// Seconds a URI without a cover is not asked for again.
    static let missLifetime = 600
    /// URIs without a cover remembered, at most.
    static let maxMisses = 4096

    private struct State {
        var entries: [String: WebCovers.Entry] = [:]
        var misses: [String: Int] = [:]
    }

    /// Opens (making it if needed) `directory` and reads what it holds.
    /// - Throws: `SystemError` of mkdir(2) or opendir(3).
    public init(directory: String) throws(SystemError) {
        self.directory = directory
        try FileSystem.makeDirectories(directory)
        _ = AtomicFile.removeStaleTemporaries(in: [directory])
        var entries: [String: WebCovers.Entry] = [:]
        for name in try FileSystem.entries(ofDirectory: directory) where WebCovers.isFileName(name) {
            let path = directory + "/" + name
            guard let size = try? FileSystem.size(path), let used = try? FileSystem.modificationTime(path) else { continue }
            entries[name] = WebCovers.Entry(name: name, size: size, used: used)
        }
        state = Mutex(State(entries: entries))
    }

    /// What `cover(named:fetch:)` found.
    public enum Answer: Equatable, Sendable {
        /// The image and its content type.
        case image([UInt8], type: String)
        /// The item has no cover (or no image previewweb serves).
        case none
    }

    /// The cover of `name` (a `WebCovers.fileName`): from disk, else from
    /// `fetch`, kept when it is an image.
    /// - Throws: what `fetch` throws, except that previewd's "no such
    ///   thing" refusal (ACK 50) is `.none`.
    public func cover(named name: String, fetch: () throws(MPDFailure) -> [UInt8]) throws(MPDFailure) -> Answer {
        let path = directory + "/" + name
        let now = Int(SystemClock.unixSeconds())
        // What is on disk first: a miss remembered by a failed request
        // running beside the one that stored the cover must not hide it.
        if state.withLock({ $0.entries[name] != nil }), let bytes = try? AtomicFile.read(path),
            let type = WebCovers.contentType(of: bytes)
        {
            try? FileSystem.touch(path)
            state.withLock { $0.entries[name]?.used = now }
            return .image(bytes, type: type)
        }
        if state.withLock({ s in s.misses[name].map { now - $0 < Self.missLifetime } ?? false }) { return .none }
        let bytes: [UInt8]
        do { bytes = try fetch() } catch {
            // Only "no such thing" (ACK 50) is a missing cover; a busy
            // API or a full daemon is tried again next time.
            guard case .refused(let code, _) = error, code == 50 else { throw error }
            remember(miss: name, at: now)
            return .none
        }
        guard let type = WebCovers.contentType(of: bytes), bytes.count <= WebCovers.maxCoverBytes else {
            remember(miss: name, at: now)
            return .none
        }
        if (try? AtomicFile.write(bytes, to: path)) != nil { keep(name, size: bytes.count, at: now) }
        return .image(bytes, type: type)
    }

    private func remember(miss name: String, at now: Int) {
        state.withLock { s in
            if s.misses.count >= Self.maxMisses { s.misses = s.misses.filter { now - $0.value < Self.missLifetime } }
            if s.misses.count < Self.maxMisses { s.misses[name] = now }
        }
    }

    private func keep(_ name: String, size: Int, at now: Int) {
        let gone = state.withLock { s -> [String] in
            s.entries[name] = WebCovers.Entry(name: name, size: size, used: now)
            let gone = WebCovers.evictions(Array(s.entries.values))
            for old in gone { s.entries[old] = nil }
            return gone
        }
        for old in gone { try? FileSystem.remove(directory + "/" + old) }
    }
}
