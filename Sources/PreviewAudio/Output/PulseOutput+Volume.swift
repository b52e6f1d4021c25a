import CPulse
import PreviewCore

// The stream's volume (PulseOutput's mixer): a change is ramped at the sink
// over `VolumeRamp`'s steps on a mainloop timer, so it is heard without a
// click, and applies to what the server holds already.
extension PulseOutput {
    func setVolume(_ percent: Int) {
        lock()
        defer { unlock() }
        volume = max(0, min(100, percent))
        guard let context, stream != nil else {
            ramp.finish(at: volume)
            return
        }
        ramp.start(to: volume)
        if rampTimer == nil {
            let me = Unmanaged.passUnretained(self).toOpaque()
            rampTimer = pa_context_rttime_new(
                context, pa_rtclock_now() + VolumeRamp.stepMicroseconds,
                { _, _, _, ud in
                    Unmanaged<PulseOutput>.fromOpaque(ud!).takeUnretainedValue().rampTick()
                }, me)
            rampTick()
        }
    }

    /// One ramp step (called locked: from `setVolume`, or by the mainloop
    /// thread, which holds the lock while it runs callbacks).
    func rampTick() {
        guard let context, let stream, let format, let applied = ramp.step() else {
            stopRampLocked()
            return
        }
        var cv = pa_cvolume()
        pa_cvolume_set(&cv, UInt32(format.channels), pa_volume_t((Double(pv_pa_volume_norm()) * applied / 100).rounded()))
        if let op = pa_context_set_sink_input_volume(context, pa_stream_get_index(stream), &cv, nil, nil) {
            pa_operation_unref(op)
        }
        if ramp.left == 0 {
            stopRampLocked()
        } else if let rampTimer {
            pa_context_rttime_restart(context, rampTimer, pa_rtclock_now() + VolumeRamp.stepMicroseconds)
        }
    }

    /// Ends a ramp at its target; call locked.
    func stopRampLocked() {
        ramp.finish(at: volume)
        if let rampTimer, let api = pa_threaded_mainloop_get_api(mainloop) {
            api.pointee.time_free(rampTimer)
        }
        rampTimer = nil
    }
}
