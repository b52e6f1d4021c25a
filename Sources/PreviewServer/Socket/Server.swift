import Dispatch
import PreviewCore
import PreviewPlatform
import Synchronization

/// Identifies one catalog HTTP GET while its answer is on the way.
typealias RequestID = UInt64

/// What reaches the control thread from other threads.
enum ControlInput: Sendable {
    /// An engine event.
    case engine(EngineEvent)
    /// The answer to catalog request `RequestID`.
    case http(RequestID, HTTPResult)
}

/// Engine events and HTTP answers cross from their threads to the control
/// thread through this queue; a byte on a pipe wakes the `poll` loop.
final class EventInbox: @unchecked Sendable {
    private let events = Mutex<[ControlInput]>([])
    private let pipe: Pipe
    var readFD: FileDescriptor { pipe.readEnd.descriptor }

    init() throws(SocketError) {
        do { pipe = try Pipe() } catch { throw SocketError(error) }
    }

    /// Called on any thread.
    func post(_ event: ControlInput) {
        let wasEmpty = events.withLock { q in
            q.append(event)
            return q.count == 1
        }
        if wasEmpty {
            // Full pipe: a wake-up is pending already.
            _ = try? pipe.writeEnd.descriptor.writeAll([1])
        }
    }

    /// Takes every queued event (control thread).
    func drain() -> [ControlInput] {
        var buf = [UInt8](repeating: 0, count: 64)
        while ((try? readFD.read(into: &buf)) ?? 0) > 0 {}
        return events.withLock { q in
            defer { q.removeAll() }
            return q
        }
    }
}

/// The control thread: a `poll` loop over the listening socket, the clients,
/// the engine's event pipe and a signal pipe. Owns every session and the
/// player controller; nothing here is touched by other threads.
public final class Server {
    private let options: DaemonOptions
    private let engine: AudioEngine
    private let http: HTTPClient
    private let log: Log
    private var listener: UnixListener?
    private var clients: [FileDescriptor: ClientSession] = [:]
    private var controller: PlayerController!
    private var table = CommandTable()
    private var httpCallbacks: [RequestID: (HTTPResult) -> Void] = [:]
    private var nextRequestID: RequestID = 1
    private var pendingChanges: Subsystems = []
    /// Changes that make `events` records, with their reasons, in order.
    /// The first reason given this loop turn for each subsystem that
    /// changed: a 100,000-command list makes one record, not 100,000.
    private var pendingRecords: [Subsystems: EventReason] = [:]
    private var hookRunner: HookRunner!
    /// Closures to run at a monotonic time, for time-outs on the control thread.
    private var timers: [(deadline: Double, action: () -> Void)] = []
    private var hub = MessageHub()

    /// - Parameters: options: where to listen and what to call; engine: the
    ///   audio side; http: the catalog clients' HTTP (the engine's network).
    public init(options: DaemonOptions, engine: AudioEngine, http: HTTPClient) {
        self.options = options
        self.engine = engine
        self.http = http
        log = Log(level: options.logLevel)
    }

    /// Binds the socket, starts the engine and serves until SIGTERM/SIGINT.
    /// - Throws: `SocketError` or `EngineError` when start-up fails.
    public func run() throws {
        try UnixListener.makeDirectories(options.stateDirectory)
        let listener: UnixListener
        if let fd = ServiceManager.listeningSocket() {
            listener = UnixListener(inheritedFD: fd, path: options.socketPath)
        } else {
            listener = try UnixListener(path: options.socketPath)
        }
        self.listener = listener
        defer { listener.close() }

        let signals: SignalPipe
        // A closed terminal is a request to stop, not a crash: same clean exit.
        do { signals = try SignalPipe(catching: [.terminate, .interrupt, .hangUp]) } catch { throw SocketError(error) }
        Signal.pipe.ignore()

        // Answers come back on the network thread; their callbacks run here.
        let inbox = try EventInbox()
        let get: DeezerClient.HTTPGet = { [unowned self] url, completion in
            let id = nextRequestID
            nextRequestID += 1
            httpCallbacks[id] = completion
            log.debug("GET \(url)")
            http.get(url) { inbox.post(.http(id, $0)) }
        }
        var seed = SystemRandomNumberGenerator()
        // Changes are delivered after the current command or event is done,
        // so an idle client's queued commands never run in the middle of one.
        let instance = Instance(options: options, engine: engine, log: log, get: get,
                                schedule: { [unowned self] delay, action in timers.append((monotonicTime() + delay, action)) },
                                seed: seed.next()) { [unowned self] changed in
            pendingChanges.formUnion(changed)
        }
        controller = instance.controller
        controller.onEvent = { [unowned self] changed, why in
            for (flag, _) in Subsystems.names where changed.contains(flag) && pendingRecords[flag] == nil {
                pendingRecords[flag] = why
            }
        }
        hookRunner = HookRunner(hooks: options.hooks, timeout: options.hookTimeout, log: log)
        defer { hookRunner.killAll() }
        table = instance.table
        hub = instance.hub
        let saver = DispatchQueue(label: "previewd.state-save")
        let stateFile = JSONFile<SavedState>(path: Instance.stateFile(options), log: log)
        try engine.start(events: { inbox.post(.engine($0)) })
        defer { engine.shutdown() }
        if let saved = stateFile.load() {
            controller.restore(saved, playing: options.restorePlaying)
            log.info("restored \(saved.queue.count) queued songs")
        }
        // The state file is written at most once a second after a change, and
        // at shutdown.
        var savedChange = controller.changeCount
        var lastSave = -Double.infinity
        var saveScheduled = false
        func saveState(force: Bool) {
            guard force || controller.changeCount != savedChange else { return }
            let now = monotonicTime()
            if !force && now - lastSave < 1 {
                if !saveScheduled {
                    saveScheduled = true
                    timers.append((lastSave + 1, { saveScheduled = false; saveState(force: false) }))
                }
                return
            }
            savedChange = controller.changeCount
            lastSave = now
            // Encoding a 100,000-song queue takes a tenth of a second: done
            // on a queue of its own, in order, so no client waits for it.
            let snapshot = controller.snapshot()
            saver.async { [log] in
                let start = monotonicTime()
                do throws(ProtocolError) { try stateFile.save(snapshot) } catch { log.error(error.message) }
                log.debug("state saved: \(snapshot.queue.count) songs in \(Int(((monotonicTime() - start) * 1000).rounded())) ms")
            }
            if force { saver.sync {} }
        }
        defer { saveState(force: true) }
        // An inherited socket's path is the unit's; ours may differ (a
        // service manager that does not pass XDG_RUNTIME_DIR), so say which.
        log.info(listener.inherited ? "listening on the socket passed by the service manager (fd \(listener.fd))"
                                    : "listening on \(options.socketPath)")
        ServiceManager.notify("READY=1")
        defer { ServiceManager.notify("STOPPING=1") }

        var running = true
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while running {
            var fds = [PollDescriptor(listener.fd, events: .readable),
                       PollDescriptor(inbox.readFD, events: .readable),
                       PollDescriptor(signals.readEnd, events: .readable)]
            for (fd, session) in clients {
                // A client that does not read its replies is not read from
                // either, so its requests cannot pile up replies in memory.
                var events: PollEvents = session.pendingOutput.count > Server.readPauseBytes ? [] : .readable
                if !session.pendingOutput.isEmpty { events.insert(.writable) }
                fds.append(PollDescriptor(fd, events: events))
            }
            var timeout: Int32 = -1
            let ticks = clients.values.map(\.nextTick).filter(\.isFinite)
            if let next = (timers.map(\.deadline) + ticks + [hookRunner.nextDeadline].compactMap { $0 }).min() {
                timeout = Int32(max(0, min(60_000, ((next - monotonicTime()) * 1000).rounded(.up))))
            }
            do { try PollDescriptor.poll(&fds, timeout: timeout) } catch {
                if error.isInterrupted { continue }
                throw SocketError(error)
            }
            if !fds[2].returnedEvents.isEmpty {
                log.info("signal received, shutting down")
                running = false
                break
            }
            if !fds[1].returnedEvents.isEmpty {
                for event in inbox.drain() { dispatch(event) }
            }
            let now = monotonicTime()
            if timers.contains(where: { $0.deadline <= now }) {
                let due = timers.filter { $0.deadline <= now }
                timers.removeAll { $0.deadline <= now }
                for t in due { t.action() }
            }
            sendTicks(now: now)
            hookRunner.reap(now: now)
            for pfd in fds.dropFirst(3) where !pfd.returnedEvents.isEmpty {
                guard let session = clients[pfd.descriptor] else { continue }
                if !pfd.returnedEvents.isDisjoint(with: [.readable, .hangUp, .error]) {
                    let r: Int
                    do { r = try pfd.descriptor.read(into: &buffer) } catch {
                        if error.wouldBlock || error.isInterrupted { continue }
                        drop(pfd.descriptor)
                        continue
                    }
                    if r > 0 {
                        buffer.withUnsafeBytes { session.receive(UnsafeRawBufferPointer(rebasing: $0[0..<r])) }
                    } else {
                        drop(pfd.descriptor)
                        continue
                    }
                }
            }
            deliverChanges()
            saveState(force: false)
            // Write what is pending for every client (events may have produced output).
            for (fd, session) in clients where !session.pendingOutput.isEmpty || session.closing {
                flush(fd, session)
            }
            if !fds[0].returnedEvents.isEmpty {
                while let fd = listener.accept() {
                    if let uid = fd.peerCredentials()?.userID, uid != ThisProcess.effectiveUserID {
                        // The socket is 0600 in a 0700 directory; this is the
                        // second lock, for a socket passed in or moved.
                        refuse(fd, "ACK [4@0] {} permission denied: previewd serves only uid \(ThisProcess.effectiveUserID), not uid \(uid)")
                        log.warning("refused a client running as uid \(uid)")
                        continue
                    }
                    guard clients.count < options.maxClients else {
                        refuse(fd, "ACK [5@0] {} too many clients (at most \(options.maxClients))")
                        log.warning("refused a client: \(options.maxClients) already connected")
                        continue
                    }
                    let session = ClientSession(table: table, log: log, hub: hub,
                                                maxCommandListBytes: options.maxCommandListBytes)
                    clients[fd] = session
                    flush(fd, session)
                }
            }
        }
        for fd in Array(clients.keys) { drop(fd) }
        signals.close()
    }

    /// Turns the changes of this loop turn into `events` records (one per
    /// subsystem, with the first reason given for it, in MPD's order) for
    /// the streaming clients and the hooks.
    private func deliverRecords() {
        guard !pendingRecords.isEmpty else { return }
        let reasons = pendingRecords
        pendingRecords = [:]
        // Nobody reads them: no fields to build.
        guard !hookRunner.hooks.isEmpty || clients.values.contains(where: \.inEventStream) else { return }
        let fields = controller.eventFields()
        for (flag, name) in Subsystems.names {
            guard let why = reasons[flag] else { continue }
            let event = PlayerEvent(name: name, reason: why, fields: fields)
            for session in clients.values { session.deliver(event) }
            hookRunner.run(event)
        }
    }

    /// Sends `tick` records to the streaming clients whose interval is up.
    private func sendTicks(now: Double) {
        var event: PlayerEvent?
        for session in clients.values where session.nextTick <= now {
            if event == nil { event = PlayerEvent(name: "tick", reason: .tick, fields: controller.eventFields()) }
            session.deliver(event!)
            // Skip ticks missed while busy instead of sending a burst.
            let interval = session.tickInterval ?? .infinity
            session.nextTick = max(session.nextTick + interval, now)
        }
        if let event, hookRunner.hooks.contains(where: { $0.matches("tick") }) { hookRunner.run(event) }
    }

    /// Hands changes to the sessions after the command or event that made
    /// them; delivering can run queued commands, which can change more.
    private func deliverChanges() {
        while true {
            deliverRecords()
            let changed = pendingChanges
            pendingChanges = []
            var delivered = false
            if !changed.isEmpty {
                for session in clients.values { session.notify(changed) }
                delivered = true
            }
            for session in clients.values where !session.state.pendingLocal.isEmpty {
                let local = session.state.pendingLocal
                session.state.pendingLocal = []
                session.notify(local)
                delivered = true
            }
            if !delivered { return }
        }
    }

    private func dispatch(_ input: ControlInput) {
        switch input {
        case .http(let id, let result):
            if let callback = httpCallbacks.removeValue(forKey: id) { callback(result) }
        case .engine(let event):
            controller.handle(event)
        }
    }

    /// Pending reply bytes above which a client's input is left unread.
    static let readPauseBytes = 1 << 20
    /// Pending reply bytes at which a client that does not read is dropped.
    static let maxPendingBytes = 64 << 20

    private func flush(_ fd: FileDescriptor, _ session: ClientSession) {
        defer {
            if clients[fd] != nil, session.pendingOutput.count > Server.maxPendingBytes {
                log.warning("dropping a client that does not read its replies (\(session.pendingOutput.count) bytes pending)")
                drop(fd)
            }
        }
        while !session.pendingOutput.isEmpty {
            let w: Int
            do { w = try fd.send(session.pendingOutput) } catch {
                if error.wouldBlock || error.isInterrupted { return }
                drop(fd)
                return
            }
            if w > 0 {
                session.consumeOutput(w)
            } else {
                drop(fd)
                return
            }
        }
        if session.closing { drop(fd) }
    }

    private func drop(_ fd: FileDescriptor) {
        clients[fd] = nil
        fd.close()
    }
}

/// Sends the greeting and one ACK line to a client turned away, then closes it.
func refuse(_ fd: FileDescriptor, _ ack: String) {
    _ = try? fd.send(Array("OK MPD 0.23.5\n\(ack)\n".utf8)[...])
    // Unread input would turn the close into a reset that loses the ACK.
    var junk = [UInt8](repeating: 0, count: 4096)
    while ((try? fd.receive(into: &junk, dontWait: true)) ?? 0) > 0 {}
    fd.close()
}
