// Typed wrappers for libcurl's variadic calls and the macros Swift cannot import.
#ifndef PREVIEWD_CCURL_SHIM_H
#define PREVIEWD_CCURL_SHIM_H
#include <curl/curl.h>

/// curl_easy_setopt(3) with a long argument.
static inline CURLcode pv_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
/// curl_easy_setopt(3) with a string argument (curl copies it).
static inline CURLcode pv_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
/// curl_easy_setopt(3) with an opaque pointer argument (CURLOPT_WRITEDATA, CURLOPT_PRIVATE, ...).
static inline CURLcode pv_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
/// curl_easy_setopt(3) for CURLOPT_WRITEFUNCTION / CURLOPT_HEADERFUNCTION.
static inline CURLcode pv_curl_setopt_write_callback(CURL *h, CURLoption o, curl_write_callback v) { return curl_easy_setopt(h, o, v); }
/// curl_easy_setopt(3) for CURLOPT_HTTPHEADER.
static inline CURLcode pv_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
/// curl_easy_getinfo(3) for a long result.
static inline CURLcode pv_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
/// curl_easy_getinfo(3) for a string result (owned by curl).
static inline CURLcode pv_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
/// curl_easy_getinfo(3) for a curl_off_t result (CURLINFO_RETRY_AFTER).
static inline CURLcode pv_curl_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
/// curl_easy_getinfo(3) for CURLINFO_PRIVATE.
static inline CURLcode pv_curl_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
/// curl_multi_setopt(3) with a long argument.
static inline CURLMcode pv_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }

/// curl_easy_header(3): the value of the last response's header `name`
/// (the last one sent under that name), or NULL. Owned by curl.
static inline const char *pv_curl_header_value(CURL *h, const char *name) {
    struct curl_header *header = NULL;
    if (curl_easy_header(h, name, 0, CURLH_HEADER, -1, &header) != CURLHE_OK || header == NULL) return NULL;
    return header->value;
}
/// CURL_WRITEFUNC_PAUSE: returned from a write callback to pause the transfer.
static inline size_t pv_curl_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }
/// CURLPAUSE_CONT for curl_easy_pause(3).
static inline int pv_curl_pause_cont(void) { return CURLPAUSE_CONT; }
#endif
