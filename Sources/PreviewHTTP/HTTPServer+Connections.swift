import CMicrohttpd
import PreviewPlatform

/// What a request's `con_cls` holds: a mark, never memory to free.
enum RequestMark {
    /// The request-target held `%00` (set by `HTTPServer.uri`).
    static var urlHoldsNUL: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 2) }
    /// The headers were read (set at the access handler's first call).
    static var headersRead: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 1) }
}

extension HTTPServer {
    /// The accept policy callback (`MHD_AcceptPolicyCallback`), on the
    /// listening thread: the policy's verdict on the client, MHD_NO
    /// closing its connection before any byte is read.
    static let accept: MHD_AcceptPolicyCallback = { context, address, length in
        guard let context else { return pv_mhd_no() }
        let box = Unmanaged<Context>.fromOpaque(context).takeUnretainedValue()
        var host: UInt32 = 0
        var port: UInt16 = 0
        guard let policy = box.acceptPolicy else { return pv_mhd_yes() }
        guard pv_sockaddr_ipv4(address, length, &host, &port) == 1 else { return pv_mhd_no() }
        return policy(IPv4Endpoint(address: host, port: port), box.listening) ? pv_mhd_yes() : pv_mhd_no()
    }

    /// The connection notification (`MHD_NotifyConnectionCallback`): an
    /// opened connection owes its first request by the deadline; a closed
    /// one is forgotten, before libmicrohttpd closes its socket.
    static let notify: MHD_NotifyConnectionCallback = { context, connection, _, code in
        guard let context, let connection else { return }
        let box = Unmanaged<Context>.fromOpaque(context).takeUnretainedValue()
        if pv_mhd_notify_opened(code) == 1 {
            box.deadlines.expect(connection, socket: pv_mhd_socket(connection))
        } else {
            box.deadlines.forget(connection)
        }
    }

    /// The request completed callback (`MHD_RequestCompletedCallback`): a
    /// connection kept open owes its next request by the deadline.
    static let completed: MHD_RequestCompletedCallback = { context, connection, _, _ in
        guard let context, let connection else { return }
        let box = Unmanaged<Context>.fromOpaque(context).takeUnretainedValue()
        box.deadlines.expect(connection, socket: pv_mhd_socket(connection))
    }

    /// The URI log callback (`MHD_OPTION_URI_LOG_CALLBACK`): sees the
    /// request-target as sent, before libmicrohttpd decodes it, and marks
    /// a request whose target holds `%00` anywhere (path or query) for the
    /// access handler to refuse.
    static let uri: pv_mhd_uri_callback = { _, target, _ in
        guard let target else { return nil }
        return HTTPTarget.holdsNUL(String(cString: target)) ? RequestMark.urlHoldsNUL : nil
    }
}

/// The request-target as the client sent it, percent-encoded.
enum HTTPTarget {
    /// Whether `target` encodes a NUL (`%00`) anywhere.
    static func holdsNUL(_ target: String) -> Bool { target.contains("%00") }
}

/// The client's address (`MHD_CONNECTION_INFO_CLIENT_ADDRESS`); nil when it is not IPv4.
func clientAddress(_ connection: OpaquePointer) -> IPv4Endpoint? {
    var host: UInt32 = 0
    var port: UInt16 = 0
    guard pv_mhd_client_ipv4(connection, &host, &port) == 1 else { return nil }
    return IPv4Endpoint(address: host, port: port)
}
