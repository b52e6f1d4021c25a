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

/// MHD_OPTION_URI_LOG_CALLBACK's function: sees the request-target as
/// sent (before percent-decoding and before the query is cut off); what
/// it returns is the request's first `con_cls`.
typedef void *(*pv_mhd_uri_callback)(void *context, const char *uri, struct MHD_Connection *connection);

/// MHD_start_daemon(3) on one IPv4 address: a thread per connection (a
/// handler may block on the MPD socket), at most `limit` connections and
/// `per_address` from one client address, idle ones closed after
/// `timeout` seconds, 64 KiB of memory a connection (the request line, the
/// headers and the answer's headers: the default 32 KiB left a long
/// query's answer unsent; each KiB more is RSS times the connections);
/// `random` (kept by the caller for the daemon's life) seeds digest
/// authentication's nonces. `accept` (may be NULL) is asked on the
/// listening thread whether to serve a new client; `notify` hears of each
/// connection opened and closed, `completed` of each request done, `uri`
/// sees each raw request-target; all get `context`. No error log: its
/// errors are clients that left mid-answer (an event stream's page
/// closed), which are normal here.
static inline struct MHD_Daemon *pv_mhd_start(const struct sockaddr_in *address, unsigned int limit, unsigned int per_address,
                                              unsigned int timeout, MHD_AccessHandlerCallback handler, void *context,
                                              const void *random, size_t random_size, MHD_AcceptPolicyCallback accept,
                                              MHD_NotifyConnectionCallback notify, MHD_RequestCompletedCallback completed,
                                              pv_mhd_uri_callback uri) {
    return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION,
                            ntohs(address->sin_port), accept, context, handler, context,
                            MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)address,
                            MHD_OPTION_CONNECTION_LIMIT, limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout,
                            MHD_OPTION_DIGEST_AUTH_RANDOM, random_size, random,
                            MHD_OPTION_NONCE_NC_SIZE, (unsigned int)1000,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
                            MHD_OPTION_NOTIFY_CONNECTION, notify, context,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_URI_LOG_CALLBACK, uri, context,
                            MHD_OPTION_END);
}

/// MHD_digest_auth_check2(3) with SHA-256 (RFC 7616): 1 when the request
/// carries `user`'s valid credentials, 0 when it does not, -1 when its
/// nonce is stale (the browser retries with a new one, unasked).
static inline int pv_mhd_digest_check(struct MHD_Connection *connection, const char *realm, const char *user,
                                      const char *password, unsigned int nonce_timeout) {
    int result = MHD_digest_auth_check2(connection, realm, user, password, nonce_timeout, MHD_DIGEST_ALG_SHA256);
    return result == MHD_YES ? 1 : (result == MHD_INVALID_NONCE ? -1 : 0);
}

/// MHD_queue_auth_fail_response2(3): 401 with a SHA-256 digest challenge
/// (`stale` set when the nonce only was old).
static inline enum MHD_Result pv_mhd_ask_credentials(struct MHD_Connection *connection, const char *realm, const char *opaque,
                                                    struct MHD_Response *response, int stale) {
    return MHD_queue_auth_fail_response2(connection, realm, opaque, response, stale ? MHD_YES : MHD_NO, MHD_DIGEST_ALG_SHA256);
}

/// MHD_YES and MHD_NO, for an access handler's result.
static inline enum MHD_Result pv_mhd_yes(void) { return MHD_YES; }
static inline enum MHD_Result pv_mhd_no(void) { return MHD_NO; }

/// The IPv4 address (`s_addr` as stored) and port (host order) of a
/// client's `address`, as an accept policy callback gets it; 0 when it is
/// not IPv4 (the server listens on IPv4 only).
static inline int pv_sockaddr_ipv4(const struct sockaddr *address, socklen_t length, uint32_t *host, uint16_t *port) {
    if (address == NULL || length < (socklen_t)sizeof(struct sockaddr_in) || address->sa_family != AF_INET) return 0;
    const struct sockaddr_in *in = (const struct sockaddr_in *)address;
    *host = in->sin_addr.s_addr;
    *port = ntohs(in->sin_port);
    return 1;
}

/// MHD_get_connection_info(3) MHD_CONNECTION_INFO_CLIENT_ADDRESS: the
/// client's IPv4 address and port, as `pv_sockaddr_ipv4` gives them.
static inline int pv_mhd_client_ipv4(struct MHD_Connection *connection, uint32_t *host, uint16_t *port) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL) return 0;
    return pv_sockaddr_ipv4(info->client_addr, (socklen_t)sizeof(struct sockaddr_in), host, port);
}

/// MHD_lookup_connection_value(3) of a request header (NULL when absent).
static inline const char *pv_mhd_header(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

/// MHD_CONNECTION_NOTIFY_STARTED: whether a connection notification is
/// of one opened (else it is of one closed).
static inline int pv_mhd_notify_opened(enum MHD_ConnectionNotificationCode code) {
    return code == MHD_CONNECTION_NOTIFY_STARTED;
}

/// MHD_lookup_connection_value(3) of a cookie the request carries.
static inline const char *pv_mhd_cookie(struct MHD_Connection *connection, const char *name) {
    return MHD_lookup_connection_value(connection, MHD_COOKIE_KIND, name);
}

/// MHD_get_connection_values_n(3) over the request's headers (kind 1) or
/// query arguments (kind 0), with their lengths, so a decoded NUL is seen.
static inline int pv_mhd_values(struct MHD_Connection *connection, int query, MHD_KeyValueIteratorN each, void *context) {
    return MHD_get_connection_values_n(connection, query ? MHD_GET_ARGUMENT_KIND : MHD_HEADER_KIND, each, context);
}

/// MHD_get_connection_info(3): the connection's socket (to see the client leave).
static inline int pv_mhd_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
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

/// MHD_create_response_from_callback(3) of unknown size (sent chunked),
/// read in blocks of up to `block` bytes.
static inline struct MHD_Response *pv_mhd_response_stream(size_t block, MHD_ContentReaderCallback read, void *context,
                                                          MHD_ContentReaderFreeCallback done) {
    return MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, block, read, context, done);
}

/// MHD_CONTENT_READER_END_OF_STREAM, for a content reader's result.
static inline ssize_t pv_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
#endif
