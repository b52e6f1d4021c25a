// zlib for Swift: previewweb gzips its page's files once, at start-up.
// deflateInit2 is a macro in zlib.h; this wraps it as a function Swift
// can call.
#ifndef PREVIEWD_CZLIB_SHIM_H
#define PREVIEWD_CZLIB_SHIM_H
#include <zlib.h>

static inline int pv_deflate_init_gzip(z_stream *stream, int level) {
    // 15 window bits, plus 16: a gzip header and trailer, not zlib's.
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
#endif
