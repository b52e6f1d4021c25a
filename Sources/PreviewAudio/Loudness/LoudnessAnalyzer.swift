import Glibc
import PreviewCore
import PreviewFetch
import PreviewPlatform

/// Measures the loudness of whole downloads on a thread of its own, one at
/// a time, so the decode thread never waits for a measurement: a preview
/// decodes and is metered in about 45 ms of CPU, on the other core.
/// Each result is handed to `report` (on the analysis thread).
final class LoudnessAnalyzer: @unchecked Sendable {
    private let monitor = Monitor()
    /// Downloads to measure, oldest first. Guarded by `monitor`.
    private var jobs: [Download] = []
    /// Set once by `shutdown`. Guarded by `monitor`.
    private var stopping = false
    private var thread: pthread_t?
    private let report: @Sendable (String, Loudness?) -> Void

    /// - Parameter report: called with each download's key and its
    ///   loudness, or nil when it holds no audio libebur128 can measure.
    init(report: @escaping @Sendable (String, Loudness?) -> Void) {
        self.report = report
    }

    /// Starts the analysis thread under SCHED_IDLE (pthread_setschedparam),
    /// so a measurement only ever takes CPU that playback leaves unused.
    func start() {
        thread = startThread { [self] in
            // SCHED_IDLE of <linux/sched.h>, which the Glibc module hides
            // behind _GNU_SOURCE; a kernel without it refuses, harmlessly.
            let schedIdle: Int32 = 5
            var param = sched_param()
            pthread_setschedparam(pthread_self(), schedIdle, &param)
            run()
        }
    }

    /// Queues `download` (complete) for a measurement.
    func measure(_ download: Download) {
        monitor.locked {
            guard !jobs.contains(where: { $0 === download }) else { return }
            jobs.append(download)
            monitor.broadcast()
        }
    }

    /// Ends the thread after the measurement under way. Idempotent.
    func shutdown() {
        let running = monitor.locked { () -> Bool in
            defer { stopping = true }
            jobs = []
            monitor.broadcast()
            return !stopping
        }
        if running, let thread { pthread_join(thread, nil) }
    }

    private func run() {
        while let job = next() {
            report(job.key, Self.loudness(of: job))
        }
    }

    private func next() -> Download? {
        monitor.locked {
            while jobs.isEmpty && !stopping { monitor.wait() }
            return stopping ? nil : jobs.removeFirst()
        }
    }

    /// Decodes `download` from its first byte and meters all of it.
    /// - Returns: nil when it does not decode, changes format mid-way (a
    ///   meter measures one format), or holds no audio.
    static func loudness(of download: Download) -> Loudness? {
        guard let decoder = try? Mpg123Decoder() else { return nil }
        let reader = DownloadReader(download)
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
        let pcm = UnsafeMutableRawBufferPointer.allocate(byteCount: 1152 * 4 * 4, alignment: 16)
        defer {
            input.deallocate()
            pcm.deallocate()
        }
        var meter: LoudnessMeter?
        var ended = false
        while true {
            guard let produced = try? decoder.decode(into: pcm) else { return nil }
            switch produced {
            case .newFormat(let format):
                guard meter == nil else { return nil }
                meter = try? LoudnessMeter(format: format)
                if meter == nil { return nil }
            case .pcm(let bytes):
                meter?.add(UnsafeRawBufferPointer(rebasing: pcm[0..<bytes]))
            case .needMore:
                if ended { return meter?.loudness }
                switch reader.read(into: input, stallTimeout: 1) {
                case .bytes(let n):
                    guard (try? decoder.feed(UnsafeRawBufferPointer(rebasing: input[0..<n]))) != nil else { return nil }
                case .end: ended = true
                case .failed, .cancelled: return nil
                }
            }
        }
    }
}
