import PreviewCore

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
final class LibraryUpdater {
    let library: Library
    let controller: PlayerController
    /// The newest job id handed out while a job ran, nil when none waits.
    private var queued: Int?

    init(library: Library, controller: PlayerController) {
        self.library = library
        self.controller = controller
    }

    /// What `item` (album, track or artist) stands for now: an album's
    /// title, artist and tracks; a track's one song; an artist's name.
    /// - Parameters:
    ///   - fresh: ask Deezer, not the catalog cache (an update).
    ///   - completion: the parts, or the catalog's ACK naming the item
    ///     (e.g. `.noExist` "deezer:album:1: not found ...").
    func resolve(_ item: CatalogURI, fresh: Bool = false, completion: @escaping (Result<Library.Resolved, ProtocolError>) -> Void) {
        let catalog = controller.catalog
        switch item {
        case .artist(let id):
            catalog.request("/artist/\(id)", as: DeezerArtist.self, item: item.text, fresh: fresh) { result in
                completion(result.map { Library.Resolved(name: $0.name, artist: nil, songs: []) })
            }
        case .album:
            catalog.songs(for: item, fresh: fresh) { result in
                // The album's own body gave its songs their album tags.
                completion(result.map { songs in
                    Library.Resolved(name: songs.first?.album, artist: songs.first?.albumTags?.artist, songs: songs)
                })
            }
        default:
            catalog.songs(for: item, fresh: fresh) { result in
                switch result {
                case .failure(let e): completion(.failure(e))
                case .success(let songs):
                    // A track is kept with its album's tags, as the queue has it.
                    catalog.tags.complete(Array(songs.prefix(1))) { full in
                        completion(.success(Library.Resolved(name: nil, artist: nil, songs: full)))
                    }
                }
            }
        }
    }

    /// `update`/`rescan`: a job id (`status` shows the running one as
    /// `updating_db`). The job runs now, or after the running one.
    func start() -> Int {
        let id = controller.startUpdateJob()
        if controller.updatingJob == id { run() } else { queued = id }
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
        controller.schedule(0) { [self] in
            guard library.contains(uri), let item = try? Library.item(uri) else {
                // Removed while the job ran.
                step(rest.dropFirst(), total: total)
                return
            }
            resolve(item, fresh: true) { [self] result in
                switch result {
                case .success(let resolved): _ = library.replace(uri, with: resolved)
                case .failure(let e): controller.log.warning("update: \(uri) keeps its saved songs: \(e.message)")
                }
                step(rest.dropFirst(), total: total)
            }
        }
    }

    /// Saves once, then starts the queued pass if a request came meanwhile.
    private func finish(total: Int) {
        if total > 0 {
            do { try library.finishUpdate(at: Int(controller.clock.wall())) } catch {
                controller.log.error("update: cannot save the library: \(error)")
            }
        }
        let next = queued
        queued = nil
        // An empty Library has nothing that could have changed (mpd, too,
        // reports `database` only after a change).
        controller.finishUpdateJob(next: next, changedDatabase: total > 0)
        if next != nil { run() }
    }
}
