// libFLAC's stream encoder for Swift: the header imports as is.
#ifndef PREVIEWD_CFLAC_SHIM_H
#define PREVIEWD_CFLAC_SHIM_H
#include <FLAC/stream_encoder.h>
#endif
