import FoundationEssentials
import Glibc
import PreviewCore

/// What survives a restart: the queue with its ids, the current song and
/// where it was, play/pause, modes, volume and the output switch.
struct SavedState: Codable, Equatable {
    var format = 1
    var queue: [QueuedSong]
    var queueVersion: UInt32
    var nextID: SongID
    var current: SongID?
    var state: PlaybackState
    /// Seconds into the current song.
    var elapsed: Double
    var modes: PlaybackModes
    var volume: Int
    var outputEnabled: Bool
    var replayGainMode: String
}

/// Reads and writes JSON files of the state directory crash-safely: writes
/// go through `AtomicFile`; a file that does not parse is moved aside as
/// `NAME.corrupt-UNIXTIME`, logged, and the daemon starts without it.
struct JSONFile<Value: Codable> {
    let path: String
    let log: Log

    /// The saved value, nil when there is none (or it was set aside).
    func load() -> Value? {
        let bytes: [UInt8]?
        do { bytes = try AtomicFile.read(path) } catch {
            log.error("cannot read \(path): \(error.message)")
            return nil
        }
        guard let bytes else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(bytes))
        } catch {
            let aside = path + ".corrupt-\(Int(unixTime()))"
            rename(path, aside)
            log.error("\(path) does not parse (\(error)); kept aside as \(aside), starting without it")
            return nil
        }
    }

    /// Writes `value` atomically.
    /// - Throws: `ProtocolError(.system, ...)`.
    func save(_ value: Value) throws(ProtocolError) {
        let data: Data
        do { data = try JSONEncoder().encode(value) } catch { throw ProtocolError(.system, "cannot encode \(path): \(error)") }
        try AtomicFile.write(Array(data), to: path)
    }
}
