import FoundationEssentials
import PreviewCore
import PreviewPlatform

/// What survives a restart: the queue with its ids, the current song and
/// where it was, play/pause, modes, volume and the output switch.
package struct SavedState: Codable, Equatable {
    /// 1: the queue is in this file; 2: it is in `queue.sqlite` (`StateFiles`).
    package var format = 1
    /// The format `StateFiles` writes when `queue.sqlite` can be used.
    package static let currentFormat = 2
    package var queue: [QueuedSong]
    package var queueVersion: UInt32
    package var nextID: SongID
    package var current: SongID?
    package var state: PlaybackState
    /// Seconds into the current song.
    package var elapsed: Double
    package var modes: PlaybackModes
    package var volume: Int
    package var outputEnabled: Bool
    /// The names of the outputs turned off (absent in files from before
    /// there were several outputs).
    package var disabledOutputs: [String]?
    package var replayGainMode: String
    /// Seconds of crossfade (absent in files from before it existed).
    package var crossfade: Int?
    /// `mixrampdb` in dB, when finite (JSON has no infinity).
    package var mixRampDecibels: Double?
    /// `mixrampdelay` in seconds, while MixRamp is on (above 0).
    package var mixRampDelay: Double?
    /// Songs in `queue.sqlite` when this file was written (format 2 only):
    /// a start that finds another count says so.
    package var queueLength: Int?
    /// The user's `autoplay 0|1` (absent when none was made: `--autoplay` decides).
    package var autoplay: Bool?
    /// The plays autoplay remembers (`PlayHistory`), oldest first.
    package var played: PlayHistory?

    /// - Parameters: elapsed: seconds into `current`; crossfade: seconds;
    ///   mixRampDecibels: dB; mixRampDelay: seconds.
    package init(
        queue: [QueuedSong], queueVersion: UInt32, nextID: SongID, current: SongID?, state: PlaybackState,
        elapsed: Double, modes: PlaybackModes, volume: Int, outputEnabled: Bool, disabledOutputs: [String]? = nil,
        replayGainMode: String,
        crossfade: Int?, mixRampDecibels: Double? = nil, mixRampDelay: Double? = nil
    ) {
        self.queue = queue
        self.queueVersion = queueVersion
        self.nextID = nextID
        self.current = current
        self.state = state
        self.elapsed = elapsed
        self.modes = modes
        self.volume = volume
        self.outputEnabled = outputEnabled
        self.disabledOutputs = disabledOutputs
        self.replayGainMode = replayGainMode
        self.crossfade = crossfade
        self.mixRampDecibels = mixRampDecibels
        self.mixRampDelay = mixRampDelay
    }
}

/// A value kept in a file of the state directory: besides decoding, it is
/// checked for numbers previewd cannot use, since the file may have been
/// edited, copied from elsewhere or damaged.
package protocol StoredValue: Codable {
    /// What makes this value unusable, or nil when it is fine.
    var problem: String? { get }
    /// The value as the file's JSON (by default `JSONEncoder`'s).
    /// - Throws: an `EncodingError`, or what the value's own writer throws.
    func json() throws -> [UInt8]
}

extension StoredValue {
    package func json() throws -> [UInt8] { Array(try JSONEncoder().encode(self)) }
}

extension Array: StoredValue where Element: StoredValue {
    package var problem: String? { lazy.compactMap(\.problem).first }
}

extension SavedState: StoredValue {
    /// `JSONEncoder`'s JSON of everything but the queue, with the queue
    /// written by `QueueJSON` where `JSONEncoder` put an empty one.
    package func json() throws -> [UInt8] {
        var rest = self
        rest.queue = []
        let bytes = Array(try JSONEncoder().encode(rest))
        let empty = Array(#""queue":[]"#.utf8)
        guard let at = bytes.indices.first(where: { bytes[$0...].starts(with: empty) }) else {
            return Array(try JSONEncoder().encode(self))
        }
        var out = Array(bytes[..<(at + empty.count - 2)])
        try QueueJSON.write(queue, into: &out)
        out += bytes[(at + empty.count)...]
        return out
    }

    package var problem: String? {
        guard Seconds.isValid(elapsed) else { return "elapsed out of range: \(elapsed)" }
        guard queue.count <= Queue.defaultMaxLength else { return "\(queue.count) songs, more than a queue holds" }
        // One past the largest id is what the queue holds after handing it out.
        guard nextID <= Queue.maxID + 1 else { return "next song id out of range: \(nextID)" }
        var ids = Set<SongID>(minimumCapacity: queue.count)
        for entry in queue {
            guard entry.id <= Queue.maxID else { return "song id out of range: \(entry.id)" }
            guard ids.insert(entry.id).inserted else { return "song id \(entry.id) twice" }
            if let d = entry.song.duration, !Seconds.isValid(d) { return "song \(entry.id): duration out of range: \(d)" }
            if let r = entry.range, !Seconds.isValid(r.start) || !(r.end.map { Seconds.isValid($0) && $0 > r.start } ?? true) {
                return "song \(entry.id): range out of range"
            }
        }
        return nil
    }
}

/// Reads and writes JSON files of the state directory crash-safely: writes
/// go through `AtomicFile`; a file that does not parse, or whose value has a
/// `problem`, is moved aside as `NAME.corrupt-UNIXTIME`, logged, and the
/// daemon starts without it.
package struct JSONFile<Value: StoredValue> {
    let path: String
    let log: Log

    /// The saved value, nil when there is none (or it was set aside).
    package func load() -> Value? {
        let bytes: [UInt8]?
        do { bytes = try AtomicFile.read(path) } catch {
            log.error("cannot read \(path): \(StorageError.reading(error))")
            return nil
        }
        guard let bytes else { return nil }
        let reason: String
        do {
            let value = try JSONDecoder().decode(Value.self, from: Data(bytes))
            guard let problem = value.problem else { return value }
            reason = problem
        } catch {
            reason = "\(error)"
        }
        let aside = path + ".corrupt-\(Int(clamping: SystemClock.unixSeconds(), rounding: .down))"
        try? FileSystem.rename(path, to: aside)
        log.error("\(path) does not parse (\(reason)); kept aside as \(aside), starting without it")
        return nil
    }

    /// Writes `value` atomically.
    /// - Returns: the bytes written.
    /// - Throws: `.encoding` or `.writing`; the file keeps its last content.
    @discardableResult
    package func save(_ value: Value) throws(StorageError) -> Int {
        let bytes: [UInt8]
        do { bytes = try value.json() } catch { throw .encoding(path: path, "\(error)") }
        do { try AtomicFile.write(bytes, to: path) } catch { throw .writing(error) }
        return bytes.count
    }

    package init(path: String, log: Log) {
        self.path = path
        self.log = log
    }
}
