import PreviewCatalog
import PreviewCore
import PreviewStorage

/// Where a command's errors become `ACK` lines (as MPD's `ToAck`): each
/// layer throws its own error type (storage, the Deezer and Last.fm
/// clients, argument parsing) and gives it a `protocolError` beside the
/// type (`StorageError.swift`, `LastfmClient.swift`, `CatalogError.swift`);
/// this picks the one that applies. What is refused before any command runs
/// (a line `LineFramer` cannot take, a command list too long, a connection
/// `Server` turns away) is a `ProtocolError` made there. Error texts follow
/// mpd 0.23's where mpd has the error.
enum ToAck {
    /// The ACK for any error a command handler throws (or finishes with).
    static func protocolError(_ error: any Error) -> ProtocolError {
        switch error {
        case let e as ProtocolError: return e
        case let e as StorageError: return e.protocolError
        case let e as LastfmError: return e.protocolError
        case let e as CatalogError: return e.protocolError(item: "catalog")
        default: return ProtocolError(.system, "\(error)")
        }
    }
}
