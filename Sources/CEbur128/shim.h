// libebur128 (EBU R128 loudness) for Swift: the header imports as is.
#ifndef PREVIEWD_CEBUR128_SHIM_H
#define PREVIEWD_CEBUR128_SHIM_H
#include <ebur128.h>
#endif
