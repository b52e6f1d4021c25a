import PreviewCore

/// Who hears what the playback owner changes, by name rather than by a
/// closure handed in: the server (idle clients, `events` records, hooks),
/// MPRIS (its `Seeked` signal) and the tests' harness. The controller holds
/// its listeners strongly (a change is told once per song of a long `addid`
/// list, and a weak reference costs an atomic load each time), so a
/// listener must not hold the controller strongly in turn.
package protocol PlaybackListener: AnyObject {
    /// The subsystems (idle's names) a change touched, told after the
    /// command or engine event that made it.
    func playbackChanged(_ subsystems: Subsystems)
    /// Of a change, the subsystems that make `events` records, and why it
    /// happened (a command, the song's end, an error, ...).
    func playbackEvent(_ subsystems: Subsystems, reason: EventReason)
    /// A seek, to `seconds` into the current song.
    func playbackSeeked(to seconds: Double)
}

extension PlaybackListener {
    package func playbackChanged(_ subsystems: Subsystems) {}
    package func playbackEvent(_ subsystems: Subsystems, reason: EventReason) {}
    package func playbackSeeked(to seconds: Double) {}
}
