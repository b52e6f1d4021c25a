import CPulse
import PreviewCore

/// Plays PCM through PulseAudio's asynchronous API (pa_threaded_mainloop,
/// pa_context, pa_stream): pause corks the stream, volume is the stream's
/// sink-input volume (ramped over `VolumeRamp.steps` x 15 ms so a change never
/// clicks), a format change drains and reopens the stream.
/// The server comes from the usual places (`PULSE_SERVER`, the user's runtime dir).
/// The stream is named after the song (`media.name` "Artist – Title", with
/// `media.artist`, `media.title`, `media.role`), so volume applets show it.
/// Without a chosen sink it follows the server's default sink; a chosen one
/// is kept (PA_STREAM_DONT_MOVE), and its loss is an output failure.
/// When the server goes away, calls throw `StreamFailure.output`; calling
/// `configure` again reconnects (the engine retries with back-off).
final class PulseOutput: AudioOutput, @unchecked Sendable {
    /// The sink streams go to; nil lets the server choose (its default sink).
    let sink: String?
    let mainloop: OpaquePointer
    var context: OpaquePointer?
    var stream: OpaquePointer?
    var format: AudioFormat?
    var volume = 100
    private var paused = false
    /// The song `nowPlaying` named last, for the stream's properties.
    private var info = StreamInfo()
    /// PCM went to the stream since it opened or was last flushed: a stop
    /// then plays it out before closing. Under the mainloop lock.
    private var holdsPCM = false
    /// Target buffer length. Pause corks, a skip or seek flushes and a
    /// volume change applies at the sink, so none of them waits for the
    /// buffer: a long one only means fewer wake-ups (the server asks for
    /// more every `bufferSeconds / 2`). `elapsed` is corrected by it
    /// (`clock`), and the end of the queue waits until the last samples
    /// are heard (the controller's `awaitFinishHeard`).
    private let bufferSeconds = 1.0
    /// The stream's frames written and kept back, and when to ask for its
    /// timing. PulseAudio's timing is asked for by `write`, at the stream's
    /// start (pa_stream_set_started_callback) and at a cork or uncork, so a
    /// paused or idle stream costs no wake-up (PA_STREAM_AUTO_TIMING_UPDATE
    /// would keep asking while corked); between two answers it interpolates
    /// (PA_STREAM_INTERPOLATE_TIMING). Under the mainloop lock.
    private var book = PulseStreamBook()
    /// The volume ramp and its timer, under the mainloop lock
    /// (`PulseOutput+Volume.swift`).
    var ramp = VolumeRamp()
    var rampTimer: OpaquePointer?

    /// Creates and starts the mainloop thread (pa_threaded_mainloop_new/start);
    /// the server is first contacted by `connect()` or `configure`.
    /// - Parameter sink: the sink's name, or nil for the server's default.
    /// - Throws: `StreamFailure.output` when the mainloop cannot start.
    init(sink: String?) throws(StreamFailure) {
        self.sink = sink
        guard let ml = pa_threaded_mainloop_new() else { throw .output("pa_threaded_mainloop_new failed") }
        mainloop = ml
        guard pa_threaded_mainloop_start(ml) == 0 else {
            pa_threaded_mainloop_free(ml)
            throw .output("pa_threaded_mainloop_start failed")
        }
    }

    deinit { close() }

    func lock() { pa_threaded_mainloop_lock(mainloop) }
    func unlock() { pa_threaded_mainloop_unlock(mainloop) }
    private var userdata: UnsafeMutableRawPointer { UnsafeMutableRawPointer(mainloop) }

    /// Connects the context if needed (pa_context_connect); call locked.
    private func connectContext() throws(StreamFailure) {
        if let context, pv_pa_context_is_good(pa_context_get_state(context)) != 0 { return }
        if let old = context {
            closeStreamLocked()
            pa_context_disconnect(old)
            pa_context_unref(old)
            context = nil
        }
        guard let api = pa_threaded_mainloop_get_api(mainloop),
            let ctx = withProplist(StreamInfo.pulseClientProperties, { pa_context_new_with_proplist(api, "previewd", $0) })
        else { throw .output("pa_context_new failed") }
        pa_context_set_state_callback(ctx, { _, ud in pa_threaded_mainloop_signal(OpaquePointer(ud), 0) }, userdata)
        guard pa_context_connect(ctx, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            let why = String(cString: pa_strerror(pa_context_errno(ctx)))
            pa_context_unref(ctx)
            throw .output("cannot connect to PulseAudio: \(why)")
        }
        while true {
            let state = pa_context_get_state(ctx)
            if state == PA_CONTEXT_READY { break }
            if pv_pa_context_is_good(state) == 0 {
                let why = String(cString: pa_strerror(pa_context_errno(ctx)))
                pa_context_disconnect(ctx)
                pa_context_unref(ctx)
                throw .output("cannot connect to PulseAudio: \(why)")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
        context = ctx
    }

    func configure(_ newFormat: AudioFormat) throws(StreamFailure) {
        lock()
        defer { unlock() }
        if let stream, newFormat == format, pv_pa_stream_is_good(pa_stream_get_state(stream)) != 0 { return }
        if stream != nil {
            drainLocked()
            closeStreamLocked()
        }
        try connectContext()
        var spec = pa_sample_spec(format: pv_pa_sample_s16ne(), rate: UInt32(newFormat.sampleRate), channels: UInt8(newFormat.channels))
        guard
            let s = withProplist(
                info.pulseProperties, { pa_stream_new_with_proplist(context, info.mediaName ?? "previewd", &spec, nil, $0) })
        else {
            throw .output("pa_stream_new failed: \(String(cString: pa_strerror(pa_context_errno(context))))")
        }
        pa_stream_set_state_callback(s, { _, ud in pa_threaded_mainloop_signal(OpaquePointer(ud), 0) }, userdata)
        pa_stream_set_write_callback(s, { _, _, ud in pa_threaded_mainloop_signal(OpaquePointer(ud), 0) }, userdata)
        // Until the server says playback started, its timing says "not playing".
        pa_stream_set_started_callback(
            s,
            { s, _ in
                if let s, let op = pa_stream_update_timing_info(s, nil, nil) { pa_operation_unref(op) }
            }, nil)
        let target = UInt32(Double(newFormat.sampleRate) * bufferSeconds) * UInt32(newFormat.bytesPerFrame)
        // The server asks for more when half the buffer has played, not at
        // its default quarter: half as many wake-ups of the mainloop thread
        // and of the decoder, which then writes whole MPEG frames' worth.
        // No PA_STREAM_ADJUST_LATENCY: the sink keeps its own latency
        // instead of being driven to the stream's, which costs the server
        // and this process wake-ups for nothing a listener hears.
        var attr = pa_buffer_attr(maxlength: UInt32.max, tlength: target, prebuf: UInt32.max, minreq: target / 2, fragsize: UInt32.max)
        var cv = pa_cvolume()
        pa_cvolume_set(&cv, UInt32(newFormat.channels), volumeValue)
        let flags = pa_stream_flags_t(
            rawValue: PA_STREAM_INTERPOLATE_TIMING.rawValue | (paused ? PA_STREAM_START_CORKED.rawValue : 0)
                | (sink != nil ? PA_STREAM_DONT_MOVE.rawValue : 0))
        guard pa_stream_connect_playback(s, sink, &attr, flags, &cv, nil) >= 0 else {
            pa_stream_unref(s)
            throw .output("cannot open a PulseAudio stream: \(String(cString: pa_strerror(pa_context_errno(context))))")
        }
        while true {
            let state = pa_stream_get_state(s)
            if state == PA_STREAM_READY { break }
            if pv_pa_stream_is_good(state) == 0 {
                pa_stream_unref(s)
                let why = String(cString: pa_strerror(pa_context_errno(context)))
                throw .output(sink.map { "cannot play to PulseAudio sink \($0): \(why)" } ?? "PulseAudio stream failed: \(why)")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
        stream = s
        format = newFormat
        book.opened(bufferBytes: Int(target))
    }

    func write(_ pcm: UnsafeRawBufferPointer, interrupted: () -> Bool) throws(StreamFailure) -> Int {
        lock()
        defer { unlock() }
        guard let stream, let format else { throw .output("PulseAudio stream not open") }
        var offset = 0
        while offset < pcm.count {
            if interrupted() { break }
            guard let context, pv_pa_context_is_good(pa_context_get_state(context)) != 0 else {
                throw .output("PulseAudio connection lost")
            }
            guard pv_pa_stream_is_good(pa_stream_get_state(stream)) != 0 else {
                // The server ended the stream but not the connection: the sink went away.
                throw .output(sink.map { "PulseAudio sink \($0) is gone" } ?? "the PulseAudio server closed the stream")
            }
            let writable = pa_stream_writable_size(stream)
            if writable == 0 || writable == Int.max || writable == -1 {
                pa_threaded_mainloop_wait(mainloop)
                continue
            }
            let rest = pcm.count - offset
            if book.keepsBack(rest, writable: writable) {
                book.staged.append(contentsOf: UnsafeRawBufferPointer(rebasing: pcm[offset...]))
                accept(rest, format)
                offset = pcm.count
                break
            }
            var n = min(writable - book.staged.count, rest)
            n -= n % format.bytesPerFrame
            if n <= 0 && book.staged.isEmpty {
                pa_threaded_mainloop_wait(mainloop)
                continue
            }
            let chunk = UnsafeRawBufferPointer(rebasing: pcm[offset..<offset + max(0, n)])
            if book.staged.isEmpty {
                try send(chunk, to: stream)
            } else {
                book.staged.append(contentsOf: chunk)
                try sendStagedLocked()
            }
            offset += max(0, n)
            accept(max(0, n), format)
        }
        if offset > 0 { askTimingLocked(stream) }
        return offset
    }

    /// Counts `bytes` more taken by `write`; call locked.
    private func accept(_ bytes: Int, _ format: AudioFormat) {
        book.accept(bytes, bytesPerFrame: format.bytesPerFrame)
        holdsPCM = true
    }

    /// pa_stream_write of `pcm` (copied into a block of PulseAudio's pool).
    /// - Throws: `StreamFailure.output` with PulseAudio's reason.
    private func send(_ pcm: UnsafeRawBufferPointer, to stream: OpaquePointer) throws(StreamFailure) {
        guard pa_stream_write(stream, pcm.baseAddress!, pcm.count, nil, 0, PA_SEEK_RELATIVE) == 0 else {
            throw .output("pa_stream_write failed: \(String(cString: pa_strerror(pa_context_errno(context))))")
        }
    }

    /// Sends what `write` kept back, if anything; call locked.
    /// - Throws: `StreamFailure.output` with PulseAudio's reason.
    private func sendStagedLocked() throws(StreamFailure) {
        guard let stream, !book.staged.isEmpty else { return }
        defer { book.staged.removeAll(keepingCapacity: true) }
        let failure = book.staged.withUnsafeBytes { bytes -> StreamFailure? in
            do throws(StreamFailure) { try send(bytes, to: stream) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Asks the server for the stream's timing (pa_stream_update_timing_info)
    /// when `book` says it is time, or now with `afresh`; call locked.
    private func askTimingLocked(_ stream: OpaquePointer, afresh: Bool = false) {
        guard book.asksTiming(at: pa_rtclock_now(), afresh: afresh) else { return }
        if let op = pa_stream_update_timing_info(stream, nil, nil) { pa_operation_unref(op) }
    }

    /// The stream's clock: frames written against its latency
    /// (pa_stream_get_latency, interpolated between the server's answers).
    /// Before the server has answered since the stream opened or was
    /// flushed, nothing written since is taken as heard. Nil without a stream.
    func clock() -> OutputClock? {
        lock()
        defer { unlock() }
        guard let stream, let format, pv_pa_stream_is_good(pa_stream_get_state(stream)) != 0 else { return nil }
        var usec: pa_usec_t = 0
        var negative: Int32 = 0
        var latency: Int?
        if pa_stream_get_latency(stream, &usec, &negative) == 0 {
            latency = negative != 0 ? 0 : Int(min(usec, 60_000_000) * UInt64(format.sampleRate) / 1_000_000)
        }
        return book.clock(latency: latency, bytesPerFrame: format.bytesPerFrame)
    }

    func setPaused(_ paused: Bool) {
        lock()
        defer { unlock() }
        self.paused = paused
        if let stream {
            if let op = pa_stream_cork(stream, paused ? 1 : 0, nil, nil) { pa_operation_unref(op) }
            // An uncorked stream waits for its prebuffer (the whole buffer)
            // again: at a song's end nothing more comes to fill it, and it
            // would stay silent until the stop's drain played it.
            if !paused, holdsPCM, let op = pa_stream_trigger(stream, nil, nil) { pa_operation_unref(op) }
            askTimingLocked(stream, afresh: true)
        }
        pa_threaded_mainloop_signal(mainloop, 0)
    }

    func discard() {
        lock()
        defer { unlock() }
        if let stream, let op = pa_stream_flush(stream, nil, nil) { pa_operation_unref(op) }
        book.flushed()
        holdsPCM = false
    }

    func stopped() {
        lock()
        defer { unlock() }
        guard stream != nil else { return }
        // Closing a stream drops what the server still holds: PipeWire's
        // pulse server cut or faded the last song's end. Play it out first.
        if holdsPCM { drainLocked() }
        closeStreamLocked()
    }

    func nowPlaying(_ info: StreamInfo) {
        lock()
        defer { unlock() }
        self.info = info
        guard let stream else { return }
        if let op = withProplist(info.pulseProperties, { pa_stream_proplist_update(stream, PA_UPDATE_REPLACE, $0, nil, nil) }) {
            pa_operation_unref(op)
        }
        for key in info.pulseKeysUnset {
            key.withCString { k in
                var list: [UnsafePointer<CChar>?] = [k, nil]
                if let op = pa_stream_proplist_remove(stream, &list, nil, nil) { pa_operation_unref(op) }
            }
        }
    }

    func trackEnded() {
        lock()
        defer { unlock() }
        // A lost connection is reported by the next write.
        try? sendStagedLocked()
        // Start playback even when a short track never filled the prebuffer.
        if let stream, let op = pa_stream_trigger(stream, nil, nil) { pa_operation_unref(op) }
    }

    var hasMixer: Bool { true }

    var canReconnect: Bool { true }

    /// Connects to the server now (pa_context_connect), to learn at start
    /// whether one is there.
    /// - Throws: `StreamFailure.output` saying why not.
    func connect() throws(StreamFailure) {
        lock()
        defer { unlock() }
        try connectContext()
    }

    func wake() {
        lock()
        pa_threaded_mainloop_signal(mainloop, 0)
        unlock()
    }

    /// Closes the stream and the server connection, so the sound server
    /// sees no client; `configure` connects again.
    func release() {
        lock()
        defer { unlock() }
        closeStreamLocked()
        if let context {
            pa_context_disconnect(context)
            pa_context_unref(context)
            self.context = nil
        }
    }

    private var closed = false

    func close() {
        guard !closed else { return }
        closed = true
        lock()
        if stream != nil {
            drainLocked()
            closeStreamLocked()
        }
        if let context {
            pa_context_disconnect(context)
            pa_context_unref(context)
            self.context = nil
        }
        unlock()
        pa_threaded_mainloop_stop(mainloop)
        pa_threaded_mainloop_free(mainloop)
    }

    /// pa_volume_t for `volume` percent: linear in the cubic volume scale,
    /// as PulseAudio's own tools map percentages.
    private var volumeValue: pa_volume_t {
        let norm = pv_pa_volume_norm()
        return pa_volume_t(UInt64(norm) * UInt64(volume) / 100)
    }

    /// Plays out what is buffered (pa_stream_drain), waiting at most
    /// `drainLimit` seconds, so a server that stops answering cannot hold
    /// the decode thread; call locked.
    private func drainLocked() {
        defer { holdsPCM = false }
        try? sendStagedLocked()
        guard let stream, let context, !paused, pv_pa_stream_is_good(pa_stream_get_state(stream)) != 0,
            let op = pa_stream_drain(stream, { _, _, ud in pa_threaded_mainloop_signal(OpaquePointer(ud), 0) }, userdata)
        else { return }
        let deadline = pa_rtclock_now() + pa_usec_t(drainLimit * 1_000_000)
        // The timer only wakes the wait below, which then sees the deadline.
        let timer = pa_context_rttime_new(
            context, deadline,
            { _, _, _, ud in
                pa_threaded_mainloop_signal(OpaquePointer(ud), 0)
            }, userdata)
        while pa_operation_get_state(op) == PA_OPERATION_RUNNING && pa_rtclock_now() < deadline {
            pa_threaded_mainloop_wait(mainloop)
        }
        if pa_operation_get_state(op) == PA_OPERATION_RUNNING { pa_operation_cancel(op) }
        pa_operation_unref(op)
        if let timer, let api = pa_threaded_mainloop_get_api(mainloop) { api.pointee.time_free(timer) }
    }

    /// Longest wait for a drain: the buffer plus the server's own latency,
    /// with room to spare.
    private let drainLimit = 2.0

    private func closeStreamLocked() {
        stopRampLocked()
        guard let stream else { return }
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_set_write_callback(stream, nil, nil)
        pa_stream_set_started_callback(stream, nil, nil)
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
        self.stream = nil
        format = nil
        book.staged.removeAll()
        holdsPCM = false
    }
}
