import CCurl
import Glibc
import PreviewCore
import PreviewPlatform

/// One HTTP transfer owned by the network thread: an API fetch collected in
/// memory, or a preview streamed into a `ByteRing` or kept in a `Download`.
package final class Transfer: @unchecked Sendable {
    package enum Sink {
        /// Collect the body (at most `limit` bytes, each reserved in
        /// `budget`), then call `done`.
        case memory(limit: Int, budget: MemoryBudget, done: @Sendable (HTTPResult) -> Void)
        /// Stream into the ring; the ring learns the end or the failure.
        case ring(ByteRing)
        /// Append to the download; it learns the end or the failure.
        case download(Download)
    }

    package let url: String
    package let sink: Sink
    /// First byte wanted (an HTTP Range request `bytes=N-` when above 0).
    package let rangeStart: Int
    /// Whether a server that ignores the Range (a 200 with the whole body)
    /// fails the transfer instead of having the prefix skipped: a seek's
    /// probe, where the download already brings those bytes.
    package let rangeRequired: Bool
    /// Body bytes still to drop: a server that ignores Range sends it all.
    fileprivate var skip = 0
    /// A HEAD request whose redirect is reported, not followed.
    package let headOnly: Bool
    /// A 503's `Retry-After`, in seconds (0: none).
    fileprivate var retryAfter = 0
    // Network-thread state.
    fileprivate var easy: UnsafeMutableRawPointer?
    fileprivate var body: [UInt8] = []
    /// Bytes of `body` reserved in the memory sink's budget.
    fileprivate var reserved = 0
    fileprivate var failure: StreamFailure?
    fileprivate var checkedHeaders = false
    fileprivate var paused = false

    /// - Parameters: as the properties; `rangeStart` in bytes.
    package init(url: String, sink: Sink, rangeStart: Int = 0, rangeRequired: Bool = false, headOnly: Bool = false) {
        self.url = url
        self.headOnly = headOnly
        self.sink = sink
        self.rangeStart = rangeStart
        self.rangeRequired = rangeRequired
    }

    /// `bytes` without the part still to skip (which it uses up).
    fileprivate func dropSkipped(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard skip > 0 else { return bytes }
        let n = min(skip, bytes.count)
        skip -= n
        return UnsafeRawBufferPointer(rebasing: bytes[n...])
    }

    /// Whether the body is media (checked for errors and non-audio types).
    fileprivate var isMedia: Bool {
        if case .memory = sink { return false }
        return true
    }
}

/// The network thread: one curl multi handle driving every transfer.
/// Other threads only queue commands and call `curl_multi_wakeup`, since
/// curl handles (and `curl_easy_pause`) belong to the thread that drives them.
public final class CurlNetwork: HTTPClient, @unchecked Sendable {
    private enum Command {
        case add(Transfer)
        case remove(Transfer)
        case resume(Transfer)
    }

    private let multi: UnsafeMutableRawPointer
    private let monitor = Monitor()
    private var commands: [Command] = []
    private var stopping = false
    private var started = false
    private var thread: pthread_t?
    private var active: [Transfer] = []
    /// Largest body kept for a memory transfer (API responses are far smaller).
    package static let defaultMemoryLimit = 16 << 20
    /// The bodies of API answers in flight (being received, or received and
    /// not yet dropped by their reader) hold at most this many bytes.
    public static let answersInFlightLimit = 64 << 20
    /// Shared by every memory transfer (`answersInFlightLimit`).
    public let answersInFlight = MemoryBudget(limit: CurlNetwork.answersInFlightLimit)

    /// Creates the multi handle; `curl_global_init` happens once per process.
    public init() {
        CurlNetwork.globalInit
        multi = curl_multi_init()
        // Keep a few connections alive for reuse, not one per past transfer.
        pv_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, 8)
    }

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    /// Starts the network thread (once; later calls do nothing).
    package func start() {
        let first = monitor.locked { () -> Bool in
            defer { started = true }
            return !started
        }
        if first { thread = startThread { [self] in run() } }
    }

    /// `HTTPClient`: the body in memory, at most `defaultMemoryLimit` bytes.
    /// Starts the network thread if the engine has not yet.
    public func get(_ url: String, completion: @escaping @Sendable (HTTPResult) -> Void) {
        start()
        add(Transfer(url: url, sink: .memory(limit: CurlNetwork.defaultMemoryLimit, budget: answersInFlight, done: completion)))
    }

    /// `HTTPClient`: HEAD without following redirects (CURLOPT_NOBODY;
    /// CURLINFO_REDIRECT_URL gives the target).
    public func head(_ url: String, completion: @escaping @Sendable (HTTPResult) -> Void) {
        start()
        add(Transfer(url: url, sink: .memory(limit: 0, budget: answersInFlight, done: completion), headOnly: true))
    }

    /// Queues `transfer` to start.
    package func add(_ transfer: Transfer) { send(.add(transfer)) }

    /// Queues the removal of `transfer` (finished or not).
    package func remove(_ transfer: Transfer) { send(.remove(transfer)) }

    /// Queues `curl_easy_pause(CONT)` for a transfer paused on a full ring.
    package func resume(_ transfer: Transfer) { send(.resume(transfer)) }

    /// Ends the thread after removing every transfer.
    package func shutdown() {
        monitor.locked {
            stopping = true
            monitor.broadcast()
        }
        curl_multi_wakeup(multi)
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private func send(_ command: Command) {
        monitor.locked {
            commands.append(command)
            monitor.broadcast()  // the thread may wait here rather than in curl_multi_poll
        }
        curl_multi_wakeup(multi)
    }

    // MARK: network thread

    private func run() {
        var running: Int32 = 0
        while true {
            let (pending, stop) = monitor.locked { () -> ([Command], Bool) in
                defer { commands.removeAll() }
                return (commands, stopping)
            }
            if stop { break }
            for command in pending {
                switch command {
                case .add(let t): begin(t)
                case .remove(let t): end(t, result: nil)
                case .resume(let t):
                    if let easy = t.easy, t.paused {
                        t.paused = false
                        curl_easy_pause(easy, pv_curl_pause_cont())
                    }
                }
            }
            curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let msg = curl_multi_info_read(multi, &left) {
                guard msg.pointee.msg == CURLMSG_DONE, let easy = msg.pointee.easy_handle else { continue }
                let code = msg.pointee.data.result
                var raw: UnsafeMutableRawPointer?
                pv_curl_getinfo_pointer(easy, CURLINFO_PRIVATE, &raw)
                guard let raw else { continue }
                let t = Unmanaged<Transfer>.fromOpaque(raw).takeUnretainedValue()
                end(t, result: code)
            }
            if !active.isEmpty, active.allSatisfy({ $0.paused }) {
                // Every transfer waits for room in its ring: curl has no socket
                // to read, and the one timer it may still hold is the connect
                // timeout of a connection made long ago (curl 7.88 leaves it
                // armed: one wake-up 10 s into a paused stream). Only a command
                // (resume, remove, add) can give this thread work.
                monitor.locked { while commands.isEmpty && !stopping { monitor.wait() } }
            } else {
                // curl_multi_poll wakes for socket activity, curl's own timers
                // (it takes the shorter of its internal timeout and this one)
                // and each command's curl_multi_wakeup, so no periodic wake-up
                // is needed: none while paused or stopped.
                curl_multi_poll(multi, nil, 0, 3_600_000, nil)
            }
        }
        for t in active { end(t, result: nil) }
        curl_multi_cleanup(multi)
    }

    private func begin(_ t: Transfer) {
        guard let easy = curl_easy_init() else {
            complete(t, status: 0, contentType: nil, error: "curl_easy_init failed")
            return
        }
        t.easy = easy
        pv_curl_setopt_string(easy, CURLOPT_URL, t.url)
        // Only web URLs, also after redirects: no file://, ftp:// or others.
        pv_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        pv_curl_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        pv_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, t.headOnly ? 0 : 1)
        if t.headOnly { pv_curl_setopt_long(easy, CURLOPT_NOBODY, 1) }
        pv_curl_setopt_long(easy, CURLOPT_MAXREDIRS, 5)
        pv_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        pv_curl_setopt_long(easy, CURLOPT_FAILONERROR, 0)
        pv_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT, 10)
        // Paused transfers misbehave over HTTP/2; previews are small anyway.
        pv_curl_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        pv_curl_setopt_string(easy, CURLOPT_USERAGENT, "previewd/0.1")
        pv_curl_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "")
        if case .memory = t.sink {
            pv_curl_setopt_long(easy, CURLOPT_TIMEOUT, 30)
        }
        if t.rangeStart > 0 {
            pv_curl_setopt_string(easy, CURLOPT_RANGE, "\(t.rangeStart)-")
        }
        let me = Unmanaged.passUnretained(t).toOpaque()
        pv_curl_setopt_pointer(easy, CURLOPT_PRIVATE, me)
        pv_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, me)
        pv_curl_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, user in
            let t = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
            return CurlNetwork.write(t, UnsafeRawBufferPointer(start: data, count: size * count))
        }
        if case .ring(let ring) = t.sink {
            ring.onSpace = { [weak self, weak t] in
                guard let self, let t else { return }
                self.resume(t)
            }
        }
        active.append(t)
        curl_multi_add_handle(multi, easy)
    }

    /// curl's write callback: runs on the network thread inside curl_multi_perform.
    private static func write(_ t: Transfer, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard let easy = t.easy else { return 0 }
        if !t.checkedHeaders {
            t.checkedHeaders = true
            var status = 0
            pv_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            if t.isMedia {
                let head = MediaResponseHead(
                    status: status, contentType: contentType(easy),
                    contentRange: pv_curl_header_value(easy, "Content-Range").map { String(cString: $0) })
                switch head.bytesToSkip(rangeStart: t.rangeStart, rangeRequired: t.rangeRequired) {
                case .success(let skip): t.skip = skip
                case .failure(let failure):
                    t.failure = failure
                    return 0
                }
            }
        }
        switch t.sink {
        case .memory(let limit, let budget, _):
            guard t.body.count + bytes.count <= limit else {
                t.failure = .transport("response larger than \(limit) bytes")
                return 0
            }
            guard budget.take(bytes.count, mayExceed: false) else {
                t.failure = .transport("API answers in flight hold \(budget.limit >> 20) MiB already; try again")
                return 0
            }
            t.reserved += bytes.count
            t.body.append(contentsOf: bytes)
            return bytes.count
        case .ring(let ring):
            let body = t.dropSkipped(bytes)
            if body.isEmpty || ring.write(body) { return bytes.count }
            // Nothing was taken: curl hands the same chunk again after the pause.
            t.skip += bytes.count - body.count
            t.paused = true
            return pv_curl_writefunc_pause()
        case .download(let download):
            let body = t.dropSkipped(bytes)
            if body.isEmpty || download.append(body) { return bytes.count }
            return 0
        }
    }

    private static func contentType(_ easy: UnsafeMutableRawPointer) -> String? {
        var raw: UnsafeMutablePointer<CChar>?
        pv_curl_getinfo_string(easy, CURLINFO_CONTENT_TYPE, &raw)
        return raw.map { String(cString: $0) }
    }

    /// Finishes `t`: `result` is curl's code, or nil when removed before the end.
    private func end(_ t: Transfer, result: CURLcode?) {
        guard let easy = t.easy else { return }
        var status = 0
        pv_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        let type = CurlNetwork.contentType(easy)
        if status == 503 {
            var seconds: curl_off_t = 0
            pv_curl_getinfo_off_t(easy, CURLINFO_RETRY_AFTER, &seconds)
            t.retryAfter = Int(seconds)
        }
        var location: String?
        if t.headOnly {
            var raw: UnsafeMutablePointer<CChar>?
            pv_curl_getinfo_string(easy, CURLINFO_REDIRECT_URL, &raw)
            location = raw.map { String(cString: $0) }
        }
        var error: String?
        if let result, result == CURLE_UNSUPPORTED_PROTOCOL {
            // Only http(s) is allowed, so this is a redirect elsewhere (file://, ftp://, ...).
            error = "redirected to a URL that is not http or https; refused"
        } else if let result, result != CURLE_OK {
            error = String(cString: curl_easy_strerror(result))
        } else if result == nil {
            error = "cancelled"
        }
        curl_multi_remove_handle(multi, easy)
        curl_easy_cleanup(easy)
        t.easy = nil
        active.removeAll { $0 === t }
        complete(t, status: status, contentType: type, error: error, location: location)
    }

    private func complete(_ t: Transfer, status: Int, contentType: String?, error: String?, location: String? = nil) {
        switch t.sink {
        case .memory(_, let budget, let done):
            let message = t.failure.map { "\($0)" } ?? error
            let lease = t.reserved > 0 ? MemoryBudget.Lease(budget, bytes: t.reserved) : nil
            let body = t.body
            t.body = []
            t.reserved = 0
            done(
                HTTPResult(
                    status: status, contentType: contentType, body: body, transportError: message, location: location,
                    lease: lease))
        case .ring(let ring):
            ring.finish(failure: mediaFailure(t, status: status, error: error))
        case .download(let download):
            download.finish(failure: mediaFailure(t, status: status, error: error))
        }
    }

    /// Why a media transfer ended early, or nil when it ended well. 416 to
    /// a Range request means nothing was left to fetch.
    private func mediaFailure(_ t: Transfer, status: Int, error: String?) -> StreamFailure? {
        if status == 416 && t.rangeStart > 0 { return nil }
        if status == 503, t.retryAfter > 0 { return .unavailable(retryAfter: t.retryAfter) }
        if let failure = t.failure { return failure }
        if let error { return status >= 400 ? .httpStatus(status) : .transport(error) }
        if status >= 400 { return .httpStatus(status) }
        return nil
    }
}
