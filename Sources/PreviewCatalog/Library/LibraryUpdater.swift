import PreviewCore
import PreviewPlatform
import PreviewStorage

/// Fills the Library from the catalog: what an item resolves to when it is
/// added (`resolve`), and MPD's `update`/`rescan` as a real job that
/// re-resolves every saved item (`start`).
///
/// The job asks for one item at a time, each after a turn of the control
/// loop (`schedule(0)`), so that a large Library neither floods the Deezer
/// rate limit nor keeps other clients' requests waiting. A request while a
/// job runs gets the next job id and is queued; queued requests are served
/// together by one more pass when the running one ends (mpd also answers
/// with the next id; its queue runs each job, ours would only repeat the
/// same work).
package final class LibraryUpdater {
    let library: Library
    private let catalog: CatalogBrowser
    private let jobs: any UpdateJobs
    private let schedule: (Double, @escaping () -> Void) -> Void
    private let log: Log
    private let clock: Clock
    /// The newest job id handed out while a job ran, nil when none waits.
    private var queued: Int?

    /// - Parameters:
    ///   - catalog: resolves the items.
    ///   - jobs: numbers the jobs and shows the running one (the playback owner).
    ///   - schedule: runs a closure after a delay (seconds) on the control thread.
    package init(
        library: Library, catalog: CatalogBrowser, jobs: any UpdateJobs,
        schedule: @escaping (Double, @escaping () -> Void) -> Void, log: Log, clock: Clock
    ) {
        self.library = library
        self.catalog = catalog
        self.jobs = jobs
        self.schedule = schedule
        self.log = log
        self.clock = clock
    }

    /// What `item` (album, track or artist) stands for now: an album's
    /// title, artist and tracks; a track's one song; an artist's name.
    /// - Parameter fresh: ask Deezer, not the catalog cache (an update).
    /// - Returns (later): the parts, or the catalog's ACK naming the item
    ///   (e.g. `.noExist` "deezer:album:1: not found ...").
    package func resolve(_ item: CatalogURI, fresh: Bool = false) -> Later<Result<Library.Resolved, ProtocolError>> {
        let catalog = self.catalog
        if case .artist(let id) = item {
            let artist = Later { done in
                catalog.request("/artist/\(id)", as: DeezerArtist.self, item: item.text, fresh: fresh, completion: done)
            }
            return artist.map { $0.map { Library.Resolved(name: $0.name, artist: nil, songs: []) } }
        }
        let songs = Later { done in catalog.songs(for: item, fresh: fresh, completion: done) }
        if case .album = item {
            // The album's own body gave its songs their album tags.
            return songs.map { $0.map { Library.Resolved(name: $0.first?.album, artist: $0.first?.albumTags?.artist, songs: $0) } }
        }
        // A track is kept with its album's tags, as the queue has it.
        return songs.thenIfSuccess { songs in
            Later { done in catalog.tags.complete(Array(songs.prefix(1)), completion: done) }
                .map { .success(Library.Resolved(name: nil, artist: nil, songs: $0)) }
        }
    }

    /// `update`/`rescan`: a job id (`status` shows the running one as
    /// `updating_db`). The job runs now, or after the running one.
    package func start() -> Int {
        let id = jobs.startUpdateJob()
        if jobs.updatingJob == id { run() } else { queued = id }
        return id
    }

    private func run() {
        let uris = library.entries.map(\.uri)
        step(uris[...], total: uris.count)
    }

    /// Re-resolves the first of `rest`, then (after a turn of the loop) the others.
    private func step(_ rest: ArraySlice<String>, total: Int) {
        guard let uri = rest.first else {
            finish(total: total)
            return
        }
        schedule(0) { [self] in
            guard library.contains(uri), let item = try? Library.item(uri) else {
                // Removed while the job ran.
                step(rest.dropFirst(), total: total)
                return
            }
            resolve(item, fresh: true).run { [self] result in
                switch result {
                case .success(let resolved): _ = library.replace(uri, with: resolved)
                case .failure(let e): log.warning("update: \(uri) keeps its saved songs: \(e.message)")
                }
                step(rest.dropFirst(), total: total)
            }
        }
    }

    /// Saves once, then starts the queued pass if a request came meanwhile.
    private func finish(total: Int) {
        if total > 0 {
            do { try library.finishUpdate(at: Int(clock.wall())) } catch {
                log.error("update: cannot save the library: \(error)")
            }
        }
        let next = queued
        queued = nil
        // An empty Library has nothing that could have changed (mpd, too,
        // reports `database` only after a change).
        jobs.finishUpdateJob(next: next, changedDatabase: total > 0)
        if next != nil { run() }
    }
}

/// Numbers MPD's `update` jobs and knows the running one, which `status`
/// shows as `updating_db` (the playback owner, which reports the changes).
package protocol UpdateJobs: AnyObject {
    /// The next job id (counting from 1); it runs now unless one runs already.
    func startUpdateJob() -> Int
    /// The job running, nil when none runs.
    var updatingJob: Int? { get }
    /// The running job ended: `next` (a queued job's id) runs now, or none;
    /// `changedDatabase` says whether the Library changed.
    func finishUpdateJob(next: Int?, changedDatabase: Bool)
}
