import PreviewCore
import PreviewPlatform

// A song not measured yet, in replay-gain mode, waits before its first
// sample: the decode that plays it runs over the whole body first, its PCM
// held in memory and metered on the way, so the song plays with its own
// measured gain from the first sample. Past the wait's bound (a slow link)
// the song starts with the plan's fallback gain and its PCM is kept as it
// plays, to be metered once the body ends, for its next plays; past the
// memory bound, or when the song is not decoded to its end here, its body
// is measured by the analyzer when kept whole. A crossfade's incoming song
// is held the same way as the fade begins (its body is whole in memory by
// then), and a held song that fades out mixes its held PCM into the next.
extension Engine {
    /// PCM a pass decoded ahead, as the decoder wrote it (before the start
    /// point, replay gain and volume are applied), handed out a buffer at a
    /// time. A reference type: a pass that fades out hands the rest to its
    /// tail (`FadeTail`), which plays on from where the pass stopped.
    final class HeldPCM {
        private let bytes: [UInt8]
        private var offset = 0
        /// The body decoded to its end: the song's last frame is held, so
        /// it can fade out without reading its input again.
        let wholeSong: Bool
        /// The decoder announced another format after these bytes (a
        /// stream changing its rate mid-way): nothing follows them that a
        /// tail in this format could mix.
        let formatChangesAfter: Bool

        init(_ bytes: [UInt8], wholeSong: Bool, formatChangesAfter: Bool) {
            self.bytes = bytes
            self.wholeSong = wholeSong
            self.formatChangesAfter = formatChangesAfter
        }

        /// Frames held from the song's first one, for a song held whole
        /// (its length, exactly, where the decoder's is an estimate).
        func totalFrames(in format: AudioFormat) -> Int { bytes.count / format.bytesPerFrame }

        /// Copies the next held bytes into `buffer`, at most its size.
        /// - Returns: the bytes copied; nil once all were handed out.
        func next(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
            guard offset < bytes.count else { return nil }
            let n = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + n])) }
            offset += n
            return n
        }
    }

    /// Most bytes of decoded PCM held meanwhile: 12 MiB, 71 s of 44.1 kHz
    /// stereo (a 30-second preview is 5.3 MB).
    static let measureHoldLimit = 12 << 20

    /// A song's PCM kept as it plays, past the wait's bound, to be metered
    /// once its body ends: the plan's key and the PCM from the song's start.
    struct LiveMeter {
        let key: String
        var pcm: [UInt8]
    }

    /// Why the hold ended.
    private enum HoldEnd {
        /// The body decoded whole (the meter's figure, nil when it had no audio to meter).
        case measured(Loudness?)
        /// The wait ran out: the song plays on, metered as it plays.
        case outOfTime
        /// The memory bound ran out, the format changed mid-way (`later`,
        /// announced once the held PCM has played), or the pass starts past
        /// the song's first frame (a ranged seek): not measured by this play.
        case bounded(later: AudioFormat?)
        /// The stream ended meanwhile (failed, cancelled).
        case stopped(Outcome)
    }

    /// Plays the pass to its end; with a `plan`, holds and measures it
    /// first. A song metered as it plays is measured here once it ends.
    func playThrough(_ pass: inout DecodePass, feed: inout Feed, plan: GainPlan?) -> Outcome {
        var outcome: Outcome?
        if let plan { outcome = holdAndMeasure(plan, pass: &pass, feed: &feed) }
        let ended = outcome ?? run(&pass, feed: &feed)
        settleMeter(&pass, ended)
        return ended
    }

    /// Keeps `decoded` bytes of fresh PCM (before any scale) for the live
    /// meter; past the memory bound the meter is dropped.
    func keepForMeter(_ pass: inout DecodePass, _ decoded: Int) {
        guard let count = pass.meter?.pcm.count else { return }
        guard count + decoded <= holdLimit else { return dropMeter(&pass) }
        let fresh = UnsafeRawBufferPointer(rebasing: pass.pcm[0..<decoded])
        pass.meter?.pcm.append(contentsOf: fresh)
    }

    /// Ends live metering without a figure: the body is measured by the
    /// analyzer once kept whole (`measureLoudness`), as when no song is held.
    func dropMeter(_ pass: inout DecodePass) {
        guard let meter = pass.meter else { return }
        pass.meter = nil
        monitor.locked { if meteringKey == meter.key { meteringKey = nil } }
        measureLoudness(meter.key)
    }

    /// Meters the song's kept PCM when the pass decoded its body to the end;
    /// otherwise (skipped, faded, failed, an end point) drops the meter.
    private func settleMeter(_ pass: inout DecodePass, _ outcome: Outcome) {
        guard let meter = pass.meter else { return }
        guard case .finished = outcome, pass.inputEnded, let format = pass.format else { return dropMeter(&pass) }
        pass.meter = nil
        monitor.locked { if meteringKey == meter.key { meteringKey = nil } }
        events?(.loudnessMeasured(key: meter.key, Engine.loudness(of: meter.pcm, format: format)))
    }

    /// Decodes the pass's stream into memory until its end (metering each
    /// piece of PCM), chooses the gain from `plan`, then plays what was held
    /// through `play`, as a stream decoded live would; the caller decodes on
    /// from there.
    /// - Returns: the stream's outcome when it ended meanwhile (failed,
    ///   cancelled, or its end point reached); nil to decode on.
    func holdAndMeasure(_ plan: GainPlan, pass: inout DecodePass, feed: inout Feed) -> Outcome? {
        var held: [UInt8] = []
        let end = hold(&held, pass: &pass, feed: &feed)
        let gain: ReplayGain
        var later: AudioFormat?
        switch end {
        case .measured(let loudness):
            events?(.loudnessMeasured(key: plan.key, loudness))
            gain = plan.resolve(loudness)
        case .outOfTime:
            gain = plan.resolve(nil)
            // Before `.gainChosen`: the controller's request to measure it is then ignored.
            monitor.locked { meteringKey = plan.key }
            pass.meter = LiveMeter(key: plan.key, pcm: held)
        case .bounded(let format):
            later = format
            gain = plan.resolve(nil)
        case .stopped(let outcome):
            // A failure mid-way: what was held still plays (with the
            // fallback), as it would have played live, then the stream fails.
            guard case .failed = outcome, !held.isEmpty else { return outcome }
            gain = plan.resolve(nil)
            pass.gain = gain.scale
            events?(.gainChosen(pass.id, gain))
            return playHeld(HeldPCM(held, wholeSong: false, formatChangesAfter: true), pass: &pass, feed: feed) ?? outcome
        }
        pass.gain = gain.scale
        events?(.gainChosen(pass.id, gain))
        var whole = false
        if case .measured = end { whole = true }
        let pcm = HeldPCM(held, wholeSong: whole, formatChangesAfter: later != nil)
        held = []
        if let outcome = playHeld(pcm, pass: &pass, feed: feed) { return outcome }
        if let later {
            pass.announced(later)
            publishPosition(of: pass, in: later)
        }
        return nil
    }

    /// Plays `held` PCM through `play`, a pass buffer at a time; a fade
    /// that begins meanwhile takes the rest along in the outgoing pass.
    /// - Returns: the stream's outcome when it ended meanwhile.
    private func playHeld(_ held: HeldPCM, pass: inout DecodePass, feed: Feed) -> Outcome? {
        pass.held = held
        while let n = held.next(into: pass.pcm) {
            if let outcome = play(n, pass: &pass, feed: feed) { return outcome }
        }
        pass.held = nil
        return nil
    }

    /// Decodes into `held` until the body ends or a bound is reached, and
    /// meters what it held once the body ended.
    /// - Returns: how the hold ended.
    private func hold(_ held: inout [UInt8], pass: inout DecodePass, feed: inout Feed) -> HoldEnd {
        let deadline = SystemClock.monotonicSeconds() + holdWait
        // A ranged seek started past the first byte: the song cannot be
        // measured whole from here.
        guard pass.frames == 0 else { return .bounded(later: nil) }
        // A preview's worth (5.3 MB), so the PCM is copied once.
        held.reserveCapacity(6 << 20)
        while true {
            // (A read waiting for bytes is not cut short: a stalled body
            // waits as a stream decoded live would, up to `stallTimeout`.)
            if SystemClock.monotonicSeconds() > deadline { return .outOfTime }
            if held.count + pass.pcm.count > holdLimit { return .bounded(later: nil) }
            let produced: Mpg123Decoder.Output
            do { produced = try pass.decoder.decode(into: pass.pcm) } catch { return .stopped(.failed(error, pass.frames)) }
            switch produced {
            case .newFormat(let format):
                guard pass.format == nil || pass.format == format else { return .bounded(later: format) }
                pass.announced(format)
                publishPosition(of: pass, in: format)
            case .pcm(let bytes):
                held.append(contentsOf: UnsafeRawBufferPointer(rebasing: pass.pcm[0..<bytes]))
            case .needMore:
                if pass.inputEnded, let format = pass.format { return .measured(Engine.loudness(of: held, format: format)) }
                if let outcome = readMore(pass: &pass, feed: &feed) { return .stopped(outcome) }
            }
        }
    }

    /// The loudness of a whole song's PCM: `KWeightedMeter` for mono and
    /// stereo, libebur128 for more channels.
    static func loudness(of pcm: [UInt8], format: AudioFormat) -> Loudness? {
        pcm.withUnsafeBytes { bytes in
            if format.channels <= 2 { return KWeightedMeter.loudness(of: bytes, format: format) }
            guard let meter = try? LoudnessMeter(format: format) else { return nil }
            meter.add(bytes)
            return meter.loudness
        }
    }
}
