import PreviewCore
import PreviewPlatform

// Clients see these texts in ACK lines (and tests compare them), so they
// stay as they were when the storage code made its own system calls.
extension ProtocolError {
    /// An `AtomicFile.write` failure: `cannot create|write|sync|rename TEMP: REASON`.
    static func writing(_ error: SystemError) -> ProtocolError {
        let verb = ["open": "create", "write": "write", "fsync": "sync", "rename": "rename"][error.function] ?? error.function
        return ProtocolError(.system, "cannot \(verb) \(error.path ?? ""): \(error.reason)")
    }

    /// An `AtomicFile.read` failure: `cannot open|read PATH: REASON`.
    static func reading(_ error: SystemError) -> ProtocolError {
        ProtocolError(.system, "cannot \(error.function) \(error.path ?? ""): \(error.reason)")
    }
}
