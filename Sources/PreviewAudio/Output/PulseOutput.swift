import CPulse
import PreviewCore

/// Plays PCM through PulseAudio's asynchronous API (pa_threaded_mainloop,
/// pa_context, pa_stream): pause corks the stream, volume is the stream's
/// sink-input volume (ramped over `rampSteps` x 15 ms so a change never
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
    private let mainloop: OpaquePointer
    private var context: OpaquePointer?
    private var stream: OpaquePointer?
    private var format: AudioFormat?
    private var volume = 100
    private var paused = false
    /// The song `nowPlaying` named last, for the stream's properties.
    private var info = StreamInfo()
    /// PCM went to the stream since it opened or was last flushed: a stop
    /// then plays it out before closing. Under the mainloop lock.
    private var holdsPCM = false
    /// Target buffer length: enough to ride out scheduling hiccups,
    /// short enough that pause and skip feel immediate.
    private let bufferSeconds = 0.2

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

    private func lock() { pa_threaded_mainloop_lock(mainloop) }
    private func unlock() { pa_threaded_mainloop_unlock(mainloop) }
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
        let appProps = [("application.name", "previewd"), ("application.icon_name", "multimedia-audio-player")]
        guard let api = pa_threaded_mainloop_get_api(mainloop),
              let ctx = withProplist(appProps, { pa_context_new_with_proplist(api, "previewd", $0) })
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
        guard let s = withProplist(streamProperties, { pa_stream_new_with_proplist(context, info.mediaName ?? "previewd", &spec, nil, $0) })
        else {
            throw .output("pa_stream_new failed: \(String(cString: pa_strerror(pa_context_errno(context))))")
        }
        pa_stream_set_state_callback(s, { _, ud in pa_threaded_mainloop_signal(OpaquePointer(ud), 0) }, userdata)
        pa_stream_set_write_callback(s, { _, _, ud in pa_threaded_mainloop_signal(OpaquePointer(ud), 0) }, userdata)
        let target = UInt32(Double(newFormat.sampleRate) * bufferSeconds) * UInt32(newFormat.bytesPerFrame)
        // The server asks for more when half the buffer has played, not at
        // its default quarter: half as many wake-ups of the mainloop thread
        // and of the decoder, which then writes whole MPEG frames' worth.
        var attr = pa_buffer_attr(maxlength: UInt32.max, tlength: target, prebuf: UInt32.max, minreq: target / 2, fragsize: UInt32.max)
        var cv = pa_cvolume()
        pa_cvolume_set(&cv, UInt32(newFormat.channels), volumeValue)
        let flags = pa_stream_flags_t(rawValue: PA_STREAM_ADJUST_LATENCY.rawValue | (paused ? PA_STREAM_START_CORKED.rawValue : 0)
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
            var n = min(writable, pcm.count - offset)
            n -= n % format.bytesPerFrame
            if n == 0 {
                pa_threaded_mainloop_wait(mainloop)
                continue
            }
            guard pa_stream_write(stream, pcm.baseAddress! + offset, n, nil, 0, PA_SEEK_RELATIVE) == 0 else {
                throw .output("pa_stream_write failed: \(String(cString: pa_strerror(pa_context_errno(context))))")
            }
            offset += n
            holdsPCM = true
        }
        return offset
    }

    func setPaused(_ paused: Bool) {
        lock()
        defer { unlock() }
        self.paused = paused
        if let stream, let op = pa_stream_cork(stream, paused ? 1 : 0, nil, nil) { pa_operation_unref(op) }
        pa_threaded_mainloop_signal(mainloop, 0)
    }

    func discard() {
        lock()
        defer { unlock() }
        if let stream, let op = pa_stream_flush(stream, nil, nil) { pa_operation_unref(op) }
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
        if let op = withProplist(streamProperties, { pa_stream_proplist_update(stream, PA_UPDATE_REPLACE, $0, nil, nil) }) {
            pa_operation_unref(op)
        }
        let stale = [info.artist == nil ? "media.artist" : nil, info.title == nil ? "media.title" : nil].compactMap { $0 }
        // The last song's artist or title must not stay on one that has none.
        for key in stale {
            key.withCString { k in
                var list: [UnsafePointer<CChar>?] = [k, nil]
                if let op = pa_stream_proplist_remove(stream, &list, nil, nil) { pa_operation_unref(op) }
            }
        }
    }

    /// The stream's properties for `info` (PA_PROP_MEDIA_*).
    private var streamProperties: [(String, String)] {
        var props = [("media.name", info.mediaName ?? "previewd"), ("media.role", "music")]
        if let artist = info.artist { props.append(("media.artist", artist)) }
        if let title = info.title { props.append(("media.title", title)) }
        return props
    }

    func trackEnded() {
        lock()
        defer { unlock() }
        // Start playback even when a short track never filled the prebuffer.
        if let stream, let op = pa_stream_trigger(stream, nil, nil) { pa_operation_unref(op) }
    }

    // Volume ramp state, under the mainloop lock: the volume the stream
    // has now (percent, fractional while ramping), the steps left, the timer.
    private var appliedVolume = 100.0
    private var rampLeft = 0
    private var rampTimer: OpaquePointer?
    /// A volume change is spread over this many steps, 15 ms apart: long
    /// enough to pass several of a sound server's render blocks.
    let rampSteps = 12

    func setVolume(_ percent: Int) {
        lock()
        defer { unlock() }
        volume = max(0, min(100, percent))
        guard let context, stream != nil else {
            appliedVolume = Double(volume)
            return
        }
        rampLeft = rampSteps
        if rampTimer == nil {
            let me = Unmanaged.passUnretained(self).toOpaque()
            rampTimer = pa_context_rttime_new(context, pa_rtclock_now() + 15_000, { _, _, _, ud in
                Unmanaged<PulseOutput>.fromOpaque(ud!).takeUnretainedValue().rampTick()
            }, me)
            rampTick()
        }
    }

    /// One ramp step (called locked: from `setVolume`, or by the mainloop
    /// thread, which holds the lock while it runs callbacks).
    private func rampTick() {
        guard rampLeft > 0, let context, let stream, let format else {
            stopRampLocked()
            return
        }
        appliedVolume += (Double(volume) - appliedVolume) / Double(rampLeft)
        rampLeft -= 1
        var cv = pa_cvolume()
        pa_cvolume_set(&cv, UInt32(format.channels), pa_volume_t((Double(pv_pa_volume_norm()) * appliedVolume / 100).rounded()))
        if let op = pa_context_set_sink_input_volume(context, pa_stream_get_index(stream), &cv, nil, nil) {
            pa_operation_unref(op)
        }
        if rampLeft == 0 {
            stopRampLocked()
        } else if let rampTimer {
            pa_context_rttime_restart(context, rampTimer, pa_rtclock_now() + 15_000)
        }
    }

    /// Ends a ramp at its target; call locked.
    private func stopRampLocked() {
        appliedVolume = Double(volume)
        rampLeft = 0
        if let rampTimer, let api = pa_threaded_mainloop_get_api(mainloop) {
            api.pointee.time_free(rampTimer)
        }
        rampTimer = nil
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
        guard let stream, let context, !paused, pv_pa_stream_is_good(pa_stream_get_state(stream)) != 0,
              let op = pa_stream_drain(stream, { _, _, ud in pa_threaded_mainloop_signal(OpaquePointer(ud), 0) }, userdata)
        else { return }
        let deadline = pa_rtclock_now() + pa_usec_t(drainLimit * 1_000_000)
        // The timer only wakes the wait below, which then sees the deadline.
        let timer = pa_context_rttime_new(context, deadline, { _, _, _, ud in
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
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
        self.stream = nil
        format = nil
        holdsPCM = false
    }
}

/// Calls `body` with a pa_proplist holding `pairs` (pa_proplist_new and
/// pa_proplist_sets), freed after it: the calls it is for copy it.
private func withProplist<R>(_ pairs: [(String, String)], _ body: (OpaquePointer) -> R) -> R {
    let list = pa_proplist_new()!
    defer { pa_proplist_free(list) }
    for (key, value) in pairs { pa_proplist_sets(list, key, value) }
    return body(list)
}
