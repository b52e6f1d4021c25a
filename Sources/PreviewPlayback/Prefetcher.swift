import PreviewCatalog
import PreviewCore
import PreviewPlatform

/// Keeps the engine downloading the next songs in play order, so that a
/// skip or the end of a song starts the next one without a network wait.
///
/// It lists catalog tracks only (a direct URL may be an endless stream),
/// resolves the preview URL of a track that has none yet, and gives up on a
/// track that does not resolve until the queue is cleared. The list is
/// rebuilt at most once per loop turn, however many changes ask for it.
final class Prefetcher {
    /// How many songs ahead of the current one are downloaded (`--prefetch`;
    /// 0 turns prefetching off).
    var count = 2
    /// What should be prefetched now, in play order: nil keeps the list
    /// under way (a song is being started and must not wait behind others,
    /// or a burst of skips may go on past the songs it would list).
    var candidates: () -> [Song]? = { [] }
    /// Whether direct stream URLs are prefetched too (crossfade on: only a
    /// body whole in memory fades in). Off, they stream as they play,
    /// since one may be a radio that never ends.
    var prefetchDirectURLs: () -> Bool = { false }
    /// Called after each refresh, whatever it changed (the crossfade's
    /// next stream follows the same changes as the list).
    var refreshed: () -> Void = {}

    private let engine: AudioEngine
    private let catalog: DeezerClient
    private let previewURLs: PreviewURLCache
    private let schedule: (Double, @escaping () -> Void) -> Void
    private let log: Log
    /// The URL each listed song (by URI) was asked for with: playing it must
    /// name the same media the engine holds.
    private var listed: [String: String] = [:]
    /// Track ids being resolved, and ids that failed to.
    private var resolving: Set<Int> = []
    private var unresolvable: Set<Int> = []
    private var scheduled = false

    /// - Parameter schedule: runs a closure after a delay (seconds) on the control thread.
    init(
        engine: AudioEngine, catalog: DeezerClient, previewURLs: PreviewURLCache, log: Log,
        schedule: @escaping (Double, @escaping () -> Void) -> Void
    ) {
        self.engine = engine
        self.catalog = catalog
        self.previewURLs = previewURLs
        self.log = log
        self.schedule = schedule
    }

    /// The URL the engine was given for the song `uri`, while it is listed.
    func listedURL(for uri: String) -> String? { listed[uri] }

    /// Forgets the URL listed for `uri` (it was refused or expired), so that
    /// the next list asks for a fresh one.
    func forget(uri: String) { listed[uri] = nil }

    /// Tracks that failed to resolve may be tried again (the queue was cleared).
    func forgetFailures() { unresolvable = [] }

    /// Refreshes the list on the next loop turn (once for a burst of changes).
    func scheduleRefresh() {
        guard !scheduled else { return }
        scheduled = true
        schedule(0) { [weak self] in
            guard let self else { return }
            self.scheduled = false
            self.refresh()
        }
    }

    /// Tells the engine the songs to download now, most wanted first.
    func refresh() {
        defer { refreshed() }
        guard let songs = candidates() else { return }
        var items: [MediaItem] = []
        let direct = prefetchDirectURLs()
        for song in count > 0 ? songs : [] {
            // Its own URL; a radio fails at `Download.sizeLimit` and is not tried again.
            if song.isDirectURL {
                if direct, song.unplayable == nil { items.append(MediaItem(key: song.uri, url: song.uri)) }
                continue
            }
            guard song.unplayable == nil, case .track(let trackID)? = try? CatalogURI(parsing: song.uri),
                !unresolvable.contains(trackID)
            else { continue }
            if let url = listed[song.uri] ?? previewURLs.validURL(for: trackID) {
                items.append(MediaItem(key: song.uri, url: url))
            } else {
                resolve(trackID)
            }
        }
        let wanted = Dictionary(items.map { ($0.key, $0.url) }, uniquingKeysWith: { first, _ in first })
        guard wanted != listed else { return }
        listed = wanted
        if !items.isEmpty { log.debug("prefetching \(items.map(\.key).joined(separator: ", "))") }
        engine.prefetch(items)
    }

    /// Asks the catalog for a track's preview URL; the list is rebuilt when it comes.
    private func resolve(_ trackID: Int) {
        guard !resolving.contains(trackID) else { return }
        resolving.insert(trackID)
        catalog.request("/track/\(trackID)", as: DeezerTrack.self) { [weak self] result in
            guard let self else { return }
            self.resolving.remove(trackID)
            if case .success(let track) = result, track.unplayableReason == nil {
                self.previewURLs.remember(track)
                self.scheduleRefresh()
            } else {
                self.unresolvable.insert(trackID)
            }
        }
    }
}
