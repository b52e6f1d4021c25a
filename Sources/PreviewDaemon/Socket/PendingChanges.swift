import PreviewCore
import PreviewPlayback

/// What the controller changed this loop turn, not yet delivered. A box
/// of its own, the controller's listener: it is told once per song of a
/// long list of `addid`, and a listener that held the server would take
/// and drop a reference to it each time (4 % of that list's time).
final class PendingChanges: PlaybackListener {
    /// Subsystems changed.
    var changed: Subsystems = []
    /// Changes that make `events` records, with their reasons: the first
    /// reason given this turn for each subsystem that changed, so a
    /// 100,000-command list makes one record, not 100,000.
    var records: [Subsystems: EventReason] = [:]

    func playbackChanged(_ subsystems: Subsystems) {
        // Delivered after the current command or event is done, so an
        // idle client's queued commands never run in the middle of one.
        changed.formUnion(subsystems)
    }

    func playbackEvent(_ subsystems: Subsystems, reason: EventReason) {
        for (flag, _) in Subsystems.names where subsystems.contains(flag) && records[flag] == nil {
            records[flag] = reason
        }
    }
}
