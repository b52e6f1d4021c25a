import Dispatch
import PreviewPlatform
import PreviewServer
import Synchronization
import PreviewPlayback
import PreviewStorage

/// Writes the state (`StateFiles`) after changes: at most once a second,
/// and once more at shutdown; while a song plays, also every
/// `positionInterval` (mpd's `state_file_interval`), so a crash loses at
/// most that much of the position. The writes happen on a serial queue of
/// their own, in order, and no client waits for them. A save that fails is
/// logged, leaves the last good state in place, and is tried again when
/// the loop next turns, at most every `retryInterval`, until one succeeds.
final class StateSaver {
    private let file: StateFiles
    private let controller: PlayerController
    private let log: Log
    private let now: () -> Double
    private let schedule: (Double, @escaping () -> Void) -> Int
    private let cancel: (Int) -> Void
    private let queue = DispatchQueue(label: "previewd.state-save")
    /// The controller's change count last saved.
    private var savedChange: Int
    /// When the last save started, monotonic seconds.
    private var lastSave = -Double.infinity
    private var scheduled = false
    /// Shortest time between two saves, seconds.
    static let interval = 1.0
    /// While playing, the longest time between two saves, seconds.
    static let positionInterval = 5.0
    /// The timer of the next position save, armed only while playing.
    private var positionTimer: Int?
    /// Songs from which a save gives the heap back afterwards.
    static let largeQueue = 10_000
    /// Seconds between two attempts while saves fail (a full disk).
    static let retryInterval = 10.0
    /// Set on the saving queue when a save failed, cleared by one that did not.
    private let failing = Failing()

    private final class Failing: Sendable {
        let flag = Atomic<Bool>(false)
    }

    /// - Parameters:
    ///   - now: monotonic seconds.
    ///   - schedule: runs a closure after a delay (seconds) on the control
    ///     thread, returning the timer's id.
    ///   - cancel: forgets a timer by its id, so the loop does not wake for it.
    init(
        file: StateFiles, controller: PlayerController, log: Log, now: @escaping () -> Double,
        schedule: @escaping (Double, @escaping () -> Void) -> Int, cancel: @escaping (Int) -> Void
    ) {
        self.file = file
        self.controller = controller
        self.log = log
        self.now = now
        self.schedule = schedule
        self.cancel = cancel
        savedChange = controller.changeCount
    }

    /// Restores the saved state, when there is one the controller can use.
    func restore(playing: Bool) {
        // In a function of its own, so the decoded file is freed on return.
        func load() -> Int? {
            guard let saved = file.load() else { return nil }
            controller.restore(saved, playing: playing)
            return saved.queue.count
        }
        guard let count = load() else { return }
        // The decoded file's values were freed between the songs kept.
        if count >= StateSaver.largeQueue { Heap.releaseFreePages() }
        savedChange = controller.changeCount
        log.info("restored \(count) queued songs")
        // An older state.json held the queue: move it into queue.sqlite now.
        if file.needsMigration { write() }
    }

    /// Saves if something changed since the last save: now, or one
    /// `interval` after the last save.
    func saveIfChanged() {
        save(force: false)
        keepPositionFresh()
    }

    /// While playing, saves again every `positionInterval`: the position
    /// moves without any change being counted. No timer is armed otherwise
    /// (a pause or stop disarms it), so a paused daemon never wakes for it.
    private func keepPositionFresh() {
        let playing = controller.state == .play
        if !playing, let armed = positionTimer {
            cancel(armed)
            positionTimer = nil
        }
        guard playing, positionTimer == nil else { return }
        positionTimer = schedule(StateSaver.positionInterval) { [weak self] in
            guard let self else { return }
            self.positionTimer = nil
            self.write()
            self.keepPositionFresh()
        }
    }

    /// Saves what changed and waits until it is written (shutdown).
    func saveNow() { save(force: true) }

    private func save(force: Bool) {
        let t = now()
        let retry = failing.flag.load(ordering: .relaxed) && t - lastSave >= StateSaver.retryInterval
        guard force || retry || controller.changeCount != savedChange else { return }
        if !force && t - lastSave < StateSaver.interval {
            if !scheduled {
                scheduled = true
                _ = schedule(lastSave + StateSaver.interval - t) { [weak self] in
                    self?.scheduled = false
                    self?.save(force: false)
                }
            }
            return
        }
        write(force: force)
    }

    /// Writes the state as it is now (on the serial queue; waited for with `force`).
    private func write(force: Bool = false) {
        savedChange = controller.changeCount
        lastSave = now()
        let snapshot = controller.snapshot()
        queue.async { [file, log, failing] in
            let start = SystemClock.monotonicSeconds()
            let written: StateFiles.Written
            do throws(StorageError) { written = try file.save(snapshot) } catch {
                if !failing.flag.exchange(true, ordering: .relaxed) {
                    log.error(
                        "state not saved: \(error); the last state saved stays, trying again at most every \(Int(StateSaver.retryInterval)) s"
                    )
                }
                return
            }
            if failing.flag.exchange(false, ordering: .relaxed) { log.info("state saved again") }
            // Encoding a long queue leaves megabytes free in this thread's heap.
            let rows = written.rows
            if rows.inserted + rows.updated >= StateSaver.largeQueue {
                Heap.releaseFreePages()
            }
            let ms = Int(((SystemClock.monotonicSeconds() - start) * 1000).rounded())
            log.debug(
                "state saved: \(snapshot.queue.count) songs, state.json \(written.stateBytes) bytes, queue rows "
                    + "+\(rows.inserted) ~\(rows.updated) order \(rows.reordered) -\(rows.deleted), in \(ms) ms")
        }
        if force { queue.sync {} }
    }
}
