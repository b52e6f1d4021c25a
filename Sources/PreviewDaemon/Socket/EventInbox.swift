import PreviewCore
import PreviewPlatform
import PreviewServer
import Synchronization

/// Identifies one catalog HTTP GET while its answer is on the way.
typealias RequestID = UInt64

/// What reaches the control thread from other threads.
enum ControlInput: Sendable {
    /// An engine event.
    case engine(EngineEvent)
    /// The answer to catalog request `RequestID`.
    case http(RequestID, HTTPResult)
}

/// Engine events and HTTP answers cross from their threads to the control
/// thread through this queue; a byte on a pipe wakes the `poll` loop.
final class EventInbox: @unchecked Sendable {
    private let events = Mutex<[ControlInput]>([])
    private let pipe: Pipe
    var readFD: FileDescriptor { pipe.readEnd.descriptor }

    init() throws(SocketError) {
        do { pipe = try Pipe() } catch { throw SocketError(error) }
    }

    /// Called on any thread.
    func post(_ event: ControlInput) {
        let wasEmpty = events.withLock { q in
            q.append(event)
            return q.count == 1
        }
        if wasEmpty {
            // Full pipe: a wake-up is pending already.
            _ = try? pipe.writeEnd.descriptor.writeAll([1])
        }
    }

    /// Takes every queued event (control thread).
    func drain() -> [ControlInput] {
        var buf = [UInt8](repeating: 0, count: 64)
        while ((try? readFD.read(into: &buf)) ?? 0) > 0 {}
        return events.withLock { q in
            defer { q.removeAll() }
            return q
        }
    }
}
