// PulseAudio's asynchronous API plus the macros Swift cannot import.
#ifndef PREVIEWD_CPULSE_SHIM_H
#define PREVIEWD_CPULSE_SHIM_H
#include <pulse/pulseaudio.h>

/// PA_SAMPLE_S16NE: signed 16-bit samples in this machine's byte order.
static inline pa_sample_format_t pv_pa_sample_s16ne(void) { return PA_SAMPLE_S16NE; }
/// PA_VOLUME_NORM: 100% volume.
static inline pa_volume_t pv_pa_volume_norm(void) { return PA_VOLUME_NORM; }
/// PA_CONTEXT_IS_GOOD(state).
static inline int pv_pa_context_is_good(pa_context_state_t s) { return PA_CONTEXT_IS_GOOD(s); }
/// PA_STREAM_IS_GOOD(state).
static inline int pv_pa_stream_is_good(pa_stream_state_t s) { return PA_STREAM_IS_GOOD(s); }
#endif
