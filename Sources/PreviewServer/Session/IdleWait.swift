import PreviewCore

/// What a connection waits for, and the changes it has not heard of yet:
/// MPD's `idle` on a set of subsystems, or previewd's `events` stream with
/// its `tick` records. Changes accumulate per connection while it is not
/// idle, as in mpd. Pure state: the session sends the lines it returns.
struct IdleWait {
    /// Subsystems the client is idling on, while in idle.
    private(set) var mask: Subsystems?
    /// Changes not yet reported to this client.
    private(set) var pending: Subsystems = []
    /// Whether the client reads an `events` stream.
    private(set) var inEventStream = false
    /// Seconds between its `tick` records, if it asked for them.
    private(set) var tickInterval: Double?
    /// When the next `tick` record is due (monotonic seconds); infinity when none is.
    var nextTick = Double.infinity

    /// Whether the connection takes nothing but `noidle` now.
    var isWaiting: Bool { mask != nil || inEventStream }

    /// Something changed. - Returns: idle's reply (`changed:` lines and
    /// `OK`) when the client idles on it; nil when it is kept for later.
    mutating func note(_ changed: Subsystems) -> String? {
        pending.formUnion(changed)
        guard let mask, !pending.isDisjoint(with: mask) else { return nil }
        return finish(mask)
    }

    /// `idle [SUBSYSTEM...]`. - Returns: the reply at once when a change in
    /// `mask` is pending; nil while the client waits.
    mutating func startIdle(_ mask: Subsystems) -> String? {
        self.mask = mask
        return pending.isDisjoint(with: mask) ? nil : finish(mask)
    }

    /// `events [TICK]`, begun at monotonic second `now`.
    mutating func startEvents(tick: Double?, now: Double) {
        inEventStream = true
        tickInterval = tick
        nextTick = tick.map { now + $0 } ?? .infinity
    }

    /// `noidle`: ends the idle or the stream, keeping the pending changes
    /// (nothing in the mask happened, or idle would have returned). The
    /// client gets `OK`.
    mutating func stop() {
        mask = nil
        inEventStream = false
        tickInterval = nil
        nextTick = .infinity
    }

    /// Idle's reply. Like mpd, an idle that returns forgets every pending
    /// change, also those outside its mask.
    private mutating func finish(_ mask: Subsystems) -> String {
        let report = pending.intersection(mask)
        pending = []
        self.mask = nil
        return report.changedLines + "OK\n"
    }
}
