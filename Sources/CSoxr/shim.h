// libsoxr (the SoX resampler) for Swift: the header imports as is; this
// file only pins it.
#ifndef PREVIEWD_CSOXR_SHIM_H
#define PREVIEWD_CSOXR_SHIM_H
#include <soxr.h>
#endif
