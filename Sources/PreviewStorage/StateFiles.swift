import PreviewCore
import PreviewPlatform

/// The daemon's saved state, in two files of the state directory:
/// `state.json` holds the player (current song, position, modes, volume:
/// a few hundred bytes, rewritten at each save) and `queue.sqlite` the
/// queue (`QueueStore`: the rows of the songs that changed). So a playing
/// queue's saves cost the same at 20 songs and at 1,000,000, and an `add`
/// writes one row.
///
/// A `state.json` of format 1 (before `queue.sqlite`) holds the queue
/// itself: it is read as before and moved into `queue.sqlite` by the next
/// save. When `queue.sqlite` cannot be opened, the queue goes on being
/// written into `state.json` as format 1, so nothing is lost.
///
/// Unchecked Sendable: one thread at a time uses it (the daemon's thread
/// loads before any save; then only the state saver's serial queue saves).
package final class StateFiles: @unchecked Sendable {
    private let file: JSONFile<SavedState>
    private let log: Log
    private let queuePath: String
    private var store: QueueStore?
    /// The queue version in `queue.sqlite`; nil until the first save.
    private var storedQueueVersion: UInt32?
    /// Set by `load` for a format-1 file: the next save moves its queue.
    package private(set) var needsMigration = false

    /// What the last save wrote.
    package struct Written: Equatable, Sendable {
        /// Bytes of `state.json`.
        package var stateBytes = 0
        /// Rows of `queue.sqlite`; all zero when the queue did not change.
        package var rows = QueueStore.Written()
    }

    /// - Parameters: directory: the state directory; log: for files set aside.
    package init(directory: String, log: Log) {
        file = JSONFile(path: directory + "/state.json", log: log)
        self.log = log
        queuePath = directory + "/queue.sqlite"
        store = StateFiles.open(queuePath, log: log)
    }

    /// The saved state, nil when there is none. A queue whose rows have a
    /// `problem` (an edited or damaged file) is set aside and the state
    /// comes back with an empty queue.
    package func load() -> SavedState? {
        guard var saved = file.load() else { return nil }
        if saved.format < SavedState.currentFormat {
            needsMigration = true
            return saved
        }
        guard let store else {
            log.error("\(queuePath) cannot be read; starting with an empty queue")
            saved.queue = []
            return saved
        }
        let loaded: QueueStore.Loaded
        do { loaded = try store.load(version: saved.queueVersion) } catch {
            log.error("cannot read \(queuePath): \(error); starting with an empty queue")
            saved.queue = []
            return saved
        }
        var problem: String?
        switch loaded {
        case .songs(let songs):
            saved.queue = songs
            problem = saved.problem
        case .problem(let reason):
            problem = reason
        }
        if let problem {
            self.store = nil
            DatabaseFile.setAside(queuePath, reason: problem, log: log)
            self.store = StateFiles.open(queuePath, log: log)
            saved.queue = []
        } else if let expected = saved.queueLength, expected != saved.queue.count {
            // A crash between the two files' writes, or rows lost.
            log.warning("\(queuePath) holds \(saved.queue.count) songs where state.json counted \(expected)")
        }
        storedQueueVersion = saved.queueVersion
        return saved
    }

    /// Writes `state`: the queue's changed rows when its version moved (or
    /// a migration is due), then `state.json`.
    /// - Throws: `StorageError` of either file; then `state.json` keeps the
    ///   last state that was saved whole, and the next save tries again.
    @discardableResult
    package func save(_ state: SavedState) throws(StorageError) -> Written {
        var written = Written()
        var small = state
        if let store {
            if needsMigration {
                try store.removeAll()
            }
            if needsMigration || storedQueueVersion != state.queueVersion {
                written.rows = try store.save(state.queue, version: state.queueVersion)
                storedQueueVersion = state.queueVersion
            }
            small.queue = []
            small.queueLength = state.queue.count
            small.format = SavedState.currentFormat
        } else {
            small.format = 1
        }
        written.stateBytes = try file.save(small)
        needsMigration = false
        return written
    }

    private static func open(_ path: String, log: Log) -> QueueStore? {
        do {
            return try QueueStore(path: path)
        } catch  where error.isDamagedFile {
            DatabaseFile.setAside(path, reason: error.message, log: log)
            do { return try QueueStore(path: path) } catch {
                log.error("cannot open \(path): \(error); the queue is kept in state.json")
                return nil
            }
        } catch {
            log.error("cannot open \(path): \(error); the queue is kept in state.json")
            return nil
        }
    }
}

/// SQLite files of the state directory that cannot be used.
enum DatabaseFile {
    /// Renames `path` to `PATH.corrupt-UNIXTIME` (with its -wal, under the
    /// name SQLite looks for; the -shm is rebuilt) and logs why.
    static func setAside(_ path: String, reason: String, log: Log) {
        let aside = path + ".corrupt-\(Int(clamping: SystemClock.unixSeconds(), rounding: .down))"
        try? FileSystem.rename(path, to: aside)
        if FileSystem.exists(path + "-wal") { try? FileSystem.rename(path + "-wal", to: aside + "-wal") }
        try? FileSystem.remove(path + "-shm")
        log.error("\(path) is no usable database (\(reason)); kept aside as \(aside), starting without it")
    }
}
