// SQLite for Swift: the header imports as is, except the destructor macros
// (SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot
// import); these wrappers pass it, so SQLite copies the bytes before returning.
#ifndef PREVIEWD_CSQLITE_SHIM_H
#define PREVIEWD_CSQLITE_SHIM_H
#include <sqlite3.h>

/// sqlite3_bind_text(3) with SQLITE_TRANSIENT: `n` bytes of UTF-8, copied.
static inline int pv_sqlite3_bind_text(sqlite3_stmt *s, int i, const char *text, int n) {
    return sqlite3_bind_text(s, i, text, n, SQLITE_TRANSIENT);
}
/// sqlite3_bind_blob(3) with SQLITE_TRANSIENT: `n` bytes, copied.
static inline int pv_sqlite3_bind_blob(sqlite3_stmt *s, int i, const void *bytes, int n) {
    return sqlite3_bind_blob(s, i, bytes, n, SQLITE_TRANSIENT);
}
#endif
