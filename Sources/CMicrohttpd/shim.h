// Typed wrappers for libmicrohttpd's variadic start call and the macros
// Swift cannot import.
#ifndef PREVIEWD_CMICROHTTPD_SHIM_H
#define PREVIEWD_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// MHD_start_daemon(3) on one IPv4 address: a thread per connection (a
/// handler may block on the MPD socket), at most `limit` connections, idle
/// ones closed after `timeout` seconds. No error log: its errors are
/// clients that left mid-answer (an event stream's page closed), which
/// are normal here.
static inline struct MHD_Daemon *pv_mhd_start(const struct sockaddr_in *address, unsigned int limit, unsigned int timeout,
                                              MHD_AccessHandlerCallback handler, void *context) {
    return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION,
                            ntohs(address->sin_port), NULL, NULL, handler, context,
                            MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)address,
                            MHD_OPTION_CONNECTION_LIMIT, limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout,
                            MHD_OPTION_END);
}

/// MHD_YES and MHD_NO, for an access handler's result.
static inline enum MHD_Result pv_mhd_yes(void) { return MHD_YES; }
static inline enum MHD_Result pv_mhd_no(void) { return MHD_NO; }

/// MHD_lookup_connection_value(3) of a request header.
static inline const char *pv_mhd_header(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

/// MHD_create_response_from_buffer(3), the bytes copied.
static inline struct MHD_Response *pv_mhd_response_copy(size_t size, const void *bytes) {
    return MHD_create_response_from_buffer(size, (void *)bytes, MHD_RESPMEM_MUST_COPY);
}

/// MHD_get_daemon_info(3): the port the daemon listens on (useful after port 0).
static inline uint16_t pv_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// MHD_get_connection_values(3) over the query's arguments, decoded, in
/// the request's order: `each` is called once per `name=value`.
static inline int pv_mhd_query(struct MHD_Connection *connection, MHD_KeyValueIterator each, void *context) {
    return MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, each, context);
}

/// MHD_create_response_from_callback(3) of unknown size (sent chunked),
/// read in blocks of up to `block` bytes.
static inline struct MHD_Response *pv_mhd_response_stream(size_t block, MHD_ContentReaderCallback read, void *context,
                                                          MHD_ContentReaderFreeCallback done) {
    return MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, block, read, context, done);
}

/// MHD_CONTENT_READER_END_OF_STREAM, for a content reader's result.
static inline ssize_t pv_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
#endif
