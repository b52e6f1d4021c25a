import PreviewCore
import PreviewStorage

/// The state saved across restarts (MPD's `PlaylistState`): the queue, the
/// current song and where in it, the modes, the volume and the outputs.
extension PlayerController {
    /// The state to save now.
    package func snapshot() -> SavedState {
        var saved = SavedState(
            queue: queue.songs, queueVersion: queue.version, nextID: queue.upcomingID,
            current: player.current, state: player.state, elapsed: player.state == .stop ? 0 : elapsed,
            modes: player.modes, volume: volume, outputEnabled: outputEnabled, disabledOutputs: disabledOutputs,
            replayGainMode: replayGainMode,
            crossfade: streams.crossfadeSeconds,
            mixRampDecibels: mixRamp.decibels.isFinite ? Double(mixRamp.decibels) : nil,
            mixRampDelay: mixRamp.delayIsOn && mixRamp.delaySeconds.isFinite ? Double(mixRamp.delaySeconds) : nil)
        saved.autoplay = autoplay.choice
        saved.played = autoplay.history
        return saved
    }

    /// Restores saved state at start-up: paused at the same place, or playing
    /// from it when `playing`.
    package func restore(_ saved: SavedState, playing: Bool) {
        queue = Queue(
            restoring: SongInterning.shared(saved.queue), nextID: saved.nextID, version: saved.queueVersion, maxLength: queue.maxLength)
        restoreSettings(
            volume: saved.volume, outputEnabled: saved.outputEnabled, disabledOutputs: saved.disabledOutputs,
            replayGainMode: saved.replayGainMode)
        streams.crossfadeSeconds = Crossfade.clamped(saved.crossfade ?? 0)
        mixRamp = MixRamp()
        if let db = saved.mixRampDecibels { mixRamp.decibels = Float(db) }
        if let delay = saved.mixRampDelay { mixRamp.delaySeconds = Float(delay) }
        var state = saved.state
        if state == .play && !playing { state = .pause }
        if state == .pause && playing { state = .play }
        player.restore(state: state, current: saved.current, modes: saved.modes, in: queue)
        restoreAutoplay(choice: saved.autoplay, history: saved.played)
        if player.state != .stop, let id = player.current {
            start(song: id, retried: false, offset: saved.elapsed)
        }
    }
}
