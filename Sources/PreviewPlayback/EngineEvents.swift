import PreviewCore

/// What the controller does with each event of the engine: the stream's
/// first audio, its end, a cut download, a failure, the output lost or back.
extension PlayerController {
    /// Handles one event from the engine (called on the control thread);
    /// the changes it makes carry the event's reason.
    package func handle(_ event: EngineEvent) {
        switch event {
        case .streamStarted(let id, let format, let rate, let totalFrames):
            because(.metadata) { streamStarted(id, format: format, bitrate: rate, totalFrames: totalFrames) }
        case .streamFinished(let id, let frames):
            because(.eof) { streamFinished(id, frames: frames) }
        case .streamFaded(let id, let frames, let next):
            because(.eof) { streamFaded(id, frames: frames, into: next) }
        case .streamCut(let id, let failure, let bytes):
            because(.urlRefreshed) { streamCut(id, failure: failure, bytes: bytes) }
        case .streamFailed(let id, let failure, _):
            because(.error) { streamFailed(id, failure: failure) }
        case .loudnessMeasured(let key, let measured):
            loudnessMeasured(key, measured)
        case .gainChosen(let id, let gain):
            gainChosen(id, gain)
        case .outputChanged(let lost):
            because(lost == nil ? .outputBack : .outputLost) { outputChanged(lost: lost) }
        case .followerChanged(let index, let failed):
            because(failed == nil ? .outputBack : .outputLost) { followerChanged(index, failed: failed) }
        }
    }

    private func streamStarted(_ id: StreamID, format: AudioFormat, bitrate: Int, totalFrames: Int?) {
        guard var current = streams.active, current.id == id else { return }
        streams.failuresInARow = 0
        current.format = format
        current.bitrate = bitrate
        current.audible = true
        streams.active = current
        releaseWaiters()
        prefetcher.scheduleRefresh()
        let ms = (clock.monotonic() - current.requestedAt) * 1000
        log.debug("first audio of song \(current.song) at the output after \(Int(ms.rounded())) ms")
        if let totalFrames, format.sampleRate > 0, queue.song(withID: current.song)?.song.duration == nil {
            // Direct URLs carry no metadata: show the decoder's length, as mpd does.
            queue.update(id: current.song) { $0.song.duration = Double(totalFrames) / Double(format.sampleRate) }
            notify(.playlist)
        }
    }

    /// The engine chose the stream's gain before its first sample, from
    /// its measurement or, past the wait's bound, the fallback.
    private func gainChosen(_ id: StreamID, _ gain: ReplayGain) {
        guard var current = streams.active, current.id == id else { return }
        current.gain = gain
        streams.active = current
        let uri = queue.song(withID: current.song)?.song.uri
        if let uri { loudness.wasHeld(uri) }
        let waited = Int(((clock.monotonic() - current.requestedAt) * 1000).rounded())
        let measured = gain.source == .track || gain.source == .album
        let how = measured ? "measured before its first sample" : "no usable measurement before its first sample"
        log.debug("song \(current.song): gain \(gain.decibels) dB (\(gain.source.rawValue)), \(how), \(waited) ms after play")
        // Past the wait's bound: measured from the whole body once it is in, for next time.
        if !measured, let uri, loudness.shouldMeasure(uri) {
            engine.measureLoudness(uri)
        }
    }

    /// Keeps a measurement for the song's next plays (the one playing keeps
    /// the gain it started with).
    private func loudnessMeasured(_ uri: String, _ measured: Loudness?) {
        guard let measured, measured.isUsable else {
            // Measured again, it would give the same nothing.
            loudness.gaveNoFigure(uri)
            log.info("\(uri): no loudness to keep (\(measured == nil ? "no audio to meter" : "silent"))")
            return
        }
        let album = queue.songs.first(where: { $0.song.uri == uri })?.song.albumTags?.id
        loudness.record(uri, album: album, measured)
        log.debug("\(uri): \(measured.integrated) LUFS, peak \(measured.peak)")
    }

    /// `heard`: its last samples were waited out (`awaitFinishHeard`).
    private func streamFinished(_ id: StreamID, frames: Int, heard: Bool = false) {
        guard var current = streams.active, current.id == id else { return }
        if !heard, player.songAfterCurrent(in: queue) == nil, secondsUntilHeard(frames) != nil {
            // Playback stops with this song. Like mpd, which drains its
            // outputs first, it stops as the last samples are heard (within
            // `stopLead`), not when a sound server took them, up to its
            // buffer earlier.
            current.finishedAt = frames
            streams.active = current
            awaitFinishHeard()
            return
        }
        if current.whole, let format = current.format, format.sampleRate > 0 {
            let seconds = Double(frames) / Double(format.sampleRate)
            queue.update(id: current.song) { $0.song.duration = seconds }
        }
        finishStreamAccounting()
        streams.active = nil
        try? run({ (p: inout Player, q: Queue) in p.songFinished(in: q) }, user: false)
    }

    /// Seconds until the listener hears frame `frames` of the active stream,
    /// by the output's clock; nil when it has (within 5 ms), or the output
    /// plays what it takes at once.
    func secondsUntilHeard(_ frames: Int) -> Double? {
        guard let stream = streams.active, let pos = engine.position(), pos.stream == stream.id,
            let rate = pos.format?.sampleRate, rate > 0
        else { return nil }
        let left = frames - pos.frames + pos.framesBeforeStart
        return left > rate / 200 ? Double(left) / Double(rate) : nil
    }

    /// How long before the last samples are heard the end of the queue
    /// stops the engine, in seconds. Its stop plays out what the output
    /// holds (a drain), which then covers the rest and the clock's error:
    /// PipeWire's pulse server answers a drain at once when its buffer is
    /// empty, and closing the stream then cuts the last quantum (about
    /// 46 ms) still in its graph.
    static let stopLead = 0.1

    /// Finishes the active stream when its end (`finishedAt`) is about to
    /// be heard (`stopLead` before, by the output's clock), unless another
    /// stream replaced it; at once when a song now follows it. Arms a
    /// timer only while playing (none runs during a pause): resuming arms
    /// it again for what is left, and a wait armed before is void.
    func awaitFinishHeard() {
        guard let stream = streams.active, let frames = stream.finishedAt, player.state == .play else { return }
        // A song queued meanwhile (an `add`, `repeat`) starts now, written
        // behind the end still playing, so it follows without a gap.
        let followed = player.songAfterCurrent(in: queue) != nil
        let wait = followed ? 0 : (secondsUntilHeard(frames) ?? 0) - PlayerController.stopLead
        streams.finishWaits += 1
        let armed = streams.finishWaits
        schedule(max(0, wait)) { [weak self] in
            guard let self, self.streams.finishWaits == armed, self.streams.active?.id == stream.id,
                self.player.state == .play
            else { return }
            self.because(.eof) { self.streamFinished(stream.id, frames: frames, heard: true) }
        }
    }

    /// The download broke off: fetch the rest from the same URL, or from a
    /// fresh one when the signed URL expired (typically during a long pause).
    private func streamCut(_ id: StreamID, failure: StreamFailure, bytes: Int) {
        guard let current = streams.active, current.id == id, let uri = queue.song(withID: current.song)?.song.uri else { return }
        let line = "\(uri): download cut after \(bytes) bytes (\(failure))"
        guard case .track(let trackID)? = try? CatalogURI(parsing: uri) else {
            log.info(line + "; fetching the rest")
            engine.resume(stream: id, url: uri)
            return
        }
        if let url = previewURLs.validURL(for: trackID), failure != .httpStatus(403) {
            log.info(line + "; fetching the rest")
            engine.resume(stream: id, url: url)
            return
        }
        log.info(line + "; resolving the preview URL again")
        previewURLs.forget(trackID)
        prefetcher.forget(uri: uri)
        catalog.client.request("/track/\(trackID)", as: DeezerTrack.self, fresh: true) { [weak self] result in
            guard let self, self.streams.active?.id == id else { return }
            switch result {
            case .success(let track) where track.unplayableReason == nil:
                self.previewURLs.remember(track)
                self.engine.resume(stream: id, url: track.preview!)
                self.because(.urlRefreshed) { self.notify(.player) }
            case .success(let track):
                self.skip(stream: id, reason: "\(uri): \(track.unplayableReason ?? "unplayable")")
            case .failure(let e):
                self.skip(stream: id, reason: e.protocolError(item: uri).message)
            }
        }
    }

    /// The stream failed: a refused signed URL is resolved once more, an
    /// overloaded server that says when to come back is tried once more
    /// then; anything else skips the song.
    private func streamFailed(_ id: StreamID, failure: StreamFailure) {
        guard let current = streams.active, current.id == id else { return }
        let uri = queue.song(withID: current.song)?.song.uri
        if failure == .httpStatus(403), !current.retried, case .track(let trackID)? = try? CatalogURI(parsing: uri ?? "") {
            // Signed preview URLs turn 403 once expired.
            log.info("deezer:track:\(trackID): preview answered 403, resolving it again")
            previewURLs.forget(trackID)
            prefetcher.forget(uri: uri ?? "")
            start(song: current.song, retried: true, offset: current.from)
            return
        }
        if case .unavailable(let seconds) = failure, !current.retried, seconds <= PlayerController.longestRetryAfter {
            log.info("\(uri ?? "song"): \(failure); trying again then")
            streams.active?.retried = true
            schedule(Double(seconds)) { [weak self] in
                guard let self, self.streams.active?.id == id else { return }
                self.start(song: current.song, retried: true, offset: current.from)
            }
            return
        }
        skip(stream: id, reason: "\(uri ?? "song"): \(failure)")
    }
}
