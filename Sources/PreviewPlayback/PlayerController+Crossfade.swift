import PreviewCore

/// Crossfade (MPD's `crossfade`): while a song plays, the engine is told the
/// next one, so that it can mix the two over the last seconds; once it
/// does, the next song is current without being started again.
extension PlayerController {
    /// `crossfade N`: the overlap in seconds, 0 (gapless) to
    /// `Crossfade.maxSeconds`; kept with the state.
    /// - Throws: `.argument` for more than `Crossfade.maxSeconds`.
    package func setCrossfade(_ seconds: Int) throws(ProtocolError) {
        guard (0...Crossfade.maxSeconds).contains(seconds) else {
            throw ProtocolError(.argument, "Crossfade too long: at most \(Crossfade.maxSeconds) s for 30-second previews")
        }
        streams.crossfadeSeconds = seconds
        // Direct URLs are prefetched only with crossfade on.
        prefetcher.scheduleRefresh()
        queueNextForFade()
        notify(.options)
    }

    /// `mixrampdb DB`: kept with the state and shown in `status`.
    package func setMixRampDecibels(_ db: Float) {
        mixRamp.decibels = db
        notify(.options)
    }

    /// `mixrampdelay SECONDS`: kept with the state and shown in `status`
    /// while above 0.
    package func setMixRampDelay(_ seconds: Float) {
        mixRamp.delaySeconds = seconds
        notify(.options)
    }

    /// Names the next song to the engine for a fade, or forgets it: only
    /// while a song plays audibly, crossfade is on, and the next song in
    /// play order is prefetched (listed with its URL).
    func queueNextForFade() {
        guard let next = fadeCandidate() else {
            if streams.queued != nil {
                streams.queued = nil
                engine.queueNext(nil, crossfade: 0)
            }
            return
        }
        if let q = streams.queued, q.song == next.id, q.url == next.url { return }
        let entry = next.entry
        // Not measured yet: the engine measures it as the fade begins (its
        // body is whole by then) and chooses its gain before its first sample.
        let plan = loudness.plan(for: entry.song, random: player.modes.random)
        let gain = plan?.resolve(nil) ?? loudness.gain(for: entry.song, random: player.modes.random)
        let queued = QueuedStream(
            id: streams.takeID(), song: entry.id, url: next.url,
            from: entry.range?.start ?? 0, until: entry.range?.end, gain: gain)
        streams.queued = queued
        var info = entry.song.streamInfo
        info.gain = gain.scale
        info.measure = plan
        engine.queueNext(
            NextStream(
                id: queued.id, url: queued.url, key: entry.song.uri, start: queued.from,
                end: queued.until, info: info),
            crossfade: Double(streams.crossfadeSeconds))
    }

    /// The song a fade would go into now, with its prefetched URL.
    private func fadeCandidate() -> (id: SongID, entry: QueuedSong, url: String)? {
        guard streams.crossfadeSeconds > 0, player.state == .play, let active = streams.active, active.audible,
            let id = player.upcoming(1, in: queue).first, let entry = queue.song(withID: id),
            entry.song.unplayable == nil, let url = prefetcher.listedURL(for: entry.song.uri)
        else { return nil }
        return (id, entry, url)
    }

    /// The engine began fading stream `id` into the queued one: the song
    /// ends here (`frames` in), and the player moves on, adopting the
    /// stream already playing instead of starting it.
    func streamFaded(_ id: StreamID, frames: Int, into next: StreamID) {
        guard let current = streams.active, current.id == id else { return }
        if let rate = current.format?.sampleRate, rate > 0 {
            streams.playedSeconds += max(0, Double(frames) / Double(rate) - current.from)
        }
        streams.active = nil
        if let q = streams.queued, q.id == next { streams.fadingInto = q }
        streams.queued = nil
        defer { streams.fadingInto = nil }
        try? run({ (p: inout Player, q: Queue) in p.songFinished(in: q) }, user: false)
        if streams.fadingInto != nil {
            // The player did not go on to that song after all (a mode changed meanwhile).
            halt()
        }
    }

    /// Takes the faded-into stream as song `id`'s, when it is that song's
    /// from its start. - Returns: whether it did (nothing to start).
    func adoptFade(of id: SongID, offset: Double) -> Bool {
        guard let fade = streams.fadingInto, fade.song == id, offset == 0 else { return false }
        streams.fadingInto = nil
        streams.active = ActiveStream(
            id: fade.id, song: id, retried: false, from: fade.from,
            whole: fade.from == 0 && fade.until == nil, requestedAt: clock.monotonic(), gain: fade.gain)
        return true
    }
}
