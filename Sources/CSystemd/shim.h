// sd-bus (libsystemd's D-Bus client), for native MPRIS.
#ifndef PREVIEWD_CSYSTEMD_SHIM_H
#define PREVIEWD_CSYSTEMD_SHIM_H
#include <systemd/sd-bus.h>

/// SD_BUS_ERROR_NULL: an empty sd_bus_error to fill in (a macro Swift cannot import).
static inline sd_bus_error pv_sd_bus_error_null(void) { sd_bus_error e = SD_BUS_ERROR_NULL; return e; }
#endif
