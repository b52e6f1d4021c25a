// libmpg123 for Swift: the header imports as is; this file only pins it.
#ifndef PREVIEWD_CMPG123_SHIM_H
#define PREVIEWD_CMPG123_SHIM_H
#include <mpg123.h>

/// mpg123_param2(3) with an integer value (mpg123_param is a macro on some builds).
static inline int pv_mpg123_param_long(mpg123_handle *h, enum mpg123_parms p, long v) { return mpg123_param2(h, p, v, 0.0); }
#endif
