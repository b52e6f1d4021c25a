import PreviewCatalog
import PreviewCore
import PreviewDesktop
import PreviewPlatform
import PreviewServer
import PreviewPlayback
import PreviewStorage

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
    private let pendingChanges = PendingChanges()
    private var hookRunner: HookRunner!
    /// Closures to run at a monotonic time, for time-outs on the control thread.
    private var timers: [(id: Int, deadline: Double, action: () -> Void)] = []
    private var lastTimerID = 0
    private var hub = MessageHub()
    /// MPRIS on the session bus, when there is one and `--no-mpris` was not given.
    private var mpris: MPRISService?
    /// Where client input is read into (64 KiB at a time).
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// One log line per kind of refused connection every 10 s at most.
    private var refusals = RepeatLimiter(interval: 10)

    /// - Parameters: options: where to listen and what to call; engine: the
    ///   audio side; http: the catalog clients' HTTP (the engine's network).
    public init(options: DaemonOptions, engine: AudioEngine, http: HTTPClient) {
        self.options = options
        self.engine = engine
        self.http = http
        log = Log(level: options.logLevel)
    }

    /// Binds the socket, starts the engine and serves until SIGTERM, SIGINT
    /// or SIGHUP (see `catchSignals`).
    /// - Throws: `SocketError` or `EngineError` when start-up fails.
    public func run() throws {
        // Before anything can connect: a client that sees the socket may
        // stop us at once, and that must be the same clean exit.
        let signals = try catchSignals()
        try UnixListener.makeDirectories(options.stateDirectory)
        for directory in [options.stateDirectory, options.stateDirectory + "/playlists"] {
            do { try PrivateDirectory.narrow(directory) } catch {
                log.warning("cannot make \(directory) private: \(error.reason)")
            }
        }
        // One daemon per state directory: a second one would restore the
        // same queue and overwrite the first one's state with its own.
        let lock: DirectoryLock
        do { lock = try DirectoryLock(directory: options.stateDirectory) } catch {
            if case .held(_, let pid?) = error {
                throw SocketError(message: "another previewd (pid \(pid)) uses the state directory \(options.stateDirectory)")
            }
            throw SocketError(message: "state directory \(options.stateDirectory): \(error)")
        }
        defer { withExtendedLifetime(lock) {} }
        for path in AtomicFile.removeStaleTemporaries(in: [options.stateDirectory, options.stateDirectory + "/playlists"]) {
            log.info("removed \(path), left by a save that was cut short")
        }
        let listener = try listen()
        defer { listener.close() }
        let inbox = try EventInbox()
        wire(
            Instance(
                options: options, engine: engine, log: log, get: catalogHTTP(through: inbox), head: catalogHTTP(through: inbox, head: true),
                schedule: { [unowned self] delay, action in schedule(after: delay, action) },
                seed: UInt64.random(in: .min ... .max), listener: pendingChanges))
        defer { hookRunner.killAll() }
        try engine.start(events: { inbox.post(.engine($0)) })
        defer { engine.shutdown() }
        let saver = StateSaver(
            file: StateFiles(directory: options.stateDirectory, log: log), controller: controller, log: log,
            now: SystemClock.monotonicSeconds, schedule: { [unowned self] delay, action in schedule(after: delay, action) },
            cancel: { [unowned self] id in cancelTimer(id) })
        saver.restore(playing: options.restorePlaying)
        defer { saver.saveNow() }
        if options.mpris { mpris = MPRISService.start(controller: controller, apiBase: options.apiBase, log: log) }
        defer { mpris = nil }
        announce(listener)
        defer { ServiceManager.notify("STOPPING=1") }

        while try turn(listener: listener, inbox: inbox, signals: signals, saver: saver) {}
        for fd in Array(clients.keys) { drop(fd) }
        signals.close()
    }

    /// The socket passed by the service manager, or a new one at the path.
    /// A socket in `/tmp/previewd-UID` is bound only when that directory
    /// is ours alone; `$XDG_RUNTIME_DIR/previewd` is narrowed to 0700.
    private func listen() throws -> UnixListener {
        if let fd = ServiceManager.listeningSocket() { return UnixListener(inheritedFD: fd, path: options.socketPath) }
        let uid = ThisProcess.userID
        if SocketPath.directory(of: options.socketPath) == SocketPath.privateDirectory(uid: uid) {
            do { try PrivateDirectory.check(SocketPath.privateDirectory(uid: uid), owner: uid, create: true) } catch {
                throw SocketError(message: "\(error); not listening there. Set XDG_RUNTIME_DIR, or pass --socket PATH")
            }
        }
        let listener = try UnixListener(path: options.socketPath)
        if let runtime = options.runtimeDirectory, SocketPath.directory(of: options.socketPath) == runtime {
            do { try PrivateDirectory.narrow(runtime) } catch { log.warning("cannot make \(runtime) private: \(error.reason)") }
        }
        return listener
    }

    /// SIGTERM, SIGINT and SIGHUP become a byte on a pipe the loop polls,
    /// the last two unless ignored when we started (`nohup`, a shell's
    /// background job); SIGPIPE is ignored (a client gone is a send error,
    /// not a crash).
    private func catchSignals() throws -> SignalPipe {
        let signals: SignalPipe
        // A closed terminal is a request to stop, not a crash: same clean exit.
        do { signals = try SignalPipe(catching: [.terminate], unlessIgnored: [.interrupt, .hangUp]) } catch { throw SocketError(error) }
        Signal.pipe.ignore()
        return signals
    }

    /// The catalog's HTTP requests (GET, or HEAD for share links), sent on
    /// the network thread; each answer comes back through the inbox and
    /// runs its completion on the control thread.
    private func catalogHTTP(through inbox: EventInbox, head: Bool = false) -> DeezerClient.HTTPGet {
        { [unowned self] url, completion in
            let id = nextRequestID
            nextRequestID += 1
            httpCallbacks[id] = completion
            log.debug((head ? "HEAD " : "GET ") + url)
            let done: @Sendable (HTTPResult) -> Void = { inbox.post(.http(id, $0)) }
            if head { http.head(url, completion: done) } else { http.get(url, completion: done) }
        }
    }

    /// Takes the daemon's parts, records the changes that make `events`
    /// records, and sets up the hooks.
    private func wire(_ instance: Instance) {
        controller = instance.controller
        table = instance.table
        hub = instance.hub
        hookRunner = HookRunner(hooks: options.hooks, timeout: options.hookTimeout, log: log)
    }

    /// Logs where previewd listens and tells the service manager it is ready.
    private func announce(_ listener: UnixListener) {
        // An inherited socket's path is the unit's; ours may differ (a
        // service manager that does not pass XDG_RUNTIME_DIR), so say which.
        log.info(
            listener.inherited
                ? "listening on the socket passed by the service manager (fd \(listener.fd))"
                : "listening on \(options.socketPath)")
        ServiceManager.notify("READY=1")
    }

    /// Runs `action` on this thread after `delay` seconds.
    /// - Returns: the timer's id, for `cancelTimer`.
    @discardableResult
    private func schedule(after delay: Double, _ action: @escaping () -> Void) -> Int {
        lastTimerID += 1
        timers.append((lastTimerID, SystemClock.monotonicSeconds() + delay, action))
        return lastTimerID
    }

    /// Forgets the timer `id` if it has not run: the loop no longer wakes for it.
    private func cancelTimer(_ id: Int) {
        timers.removeAll { $0.id == id }
    }

    // MARK: the loop

    /// One turn of the loop: waits for input or the next deadline, then
    /// handles what is ready, in order: engine events and HTTP answers,
    /// timers, ticks, hooks, client input, MPRIS calls, the changes made,
    /// the state file, pending replies, new clients.
    /// - Returns: false once a signal asked previewd to stop.
    private func turn(listener: UnixListener, inbox: EventInbox, signals: borrowing SignalPipe, saver: StateSaver) throws -> Bool {
        var fds =
            [
                PollDescriptor(listener.fd, events: .readable),
                PollDescriptor(inbox.readFD, events: .readable),
                PollDescriptor(signals.readEnd, events: .readable),
            ] + clientPollSet()
        let clientEnd = fds.count
        // The bus socket goes last, so the clients stay fds[3..<clientEnd].
        if let bus = mpris?.pollDescriptor() { fds.append(bus) }
        do throws(SystemError) { try PollDescriptor.poll(&fds, timeout: pollTimeout()) } catch {
            throw SocketError(error)
        }
        if !fds[2].returnedEvents.isEmpty {
            log.info("signal received, shutting down")
            return false
        }
        if !fds[1].returnedEvents.isEmpty {
            for input in inbox.drain() { dispatch(input) }
        }
        let now = SystemClock.monotonicSeconds()
        runTimers(dueBy: now)
        sendTicks(now: now)
        hookRunner.reap(now: now)
        read(fds[3..<clientEnd], now: now)
        closeSilentClients(now: now)
        for session in clients.values { session.resumeInput() }
        if fds.count > clientEnd, !fds[clientEnd].returnedEvents.isEmpty || (mpris?.deadline() ?? .infinity) <= now {
            mpris?.process()
        }
        deliverChanges()
        saver.saveIfChanged()
        // Write what is pending for every client (events may have produced output).
        for (fd, session) in clients where !session.pendingOutput.isEmpty || session.closing || session.finished {
            flush(fd, session)
        }
        if !fds[0].returnedEvents.isEmpty { accept(from: listener) }
        return true
    }

    /// What to poll each client for.
    private func clientPollSet() -> [PollDescriptor] {
        clients.compactMap { fd, session in
            // After end of input there is nothing to read, and until a reply
            // is ready nothing to write: polled, a closed peer's hang-up
            // would be reported again on every turn.
            if session.inputEnded && session.pendingOutput.isEmpty { return nil }
            // A client that does not read its replies is not read from
            // either, so its requests cannot pile up replies in memory.
            let backedUp =
                session.pendingOutput.count > Server.readPauseBytes || session.hasMoreOutput || session.inputHeld
                || session.inputEnded
            var events: PollEvents = backedUp ? [] : .readable
            if !session.pendingOutput.isEmpty { events.insert(.writable) }
            return PollDescriptor(fd, events: events)
        }
    }

    /// Milliseconds until the next timer, tick, hook or D-Bus deadline (at
    /// most a minute), or -1 when there is none.
    private func pollTimeout() -> Int32 {
        // Held requests whose replies were taken are answered next turn.
        if clients.values.contains(where: \.canResumeInput) { return 0 }
        let ticks = clients.values.map(\.nextTick).filter(\.isFinite)
        let others = [hookRunner.nextDeadline, mpris?.deadline(), nextSilenceDeadline()].compactMap { $0 }
        guard let next = (timers.map(\.deadline) + ticks + others).min() else { return -1 }
        return Int32(max(0, min(60_000, ((next - SystemClock.monotonicSeconds()) * 1000).rounded(.up))))
    }

    private func runTimers(dueBy now: Double) {
        guard timers.contains(where: { $0.deadline <= now }) else { return }
        let due = timers.filter { $0.deadline <= now }
        timers.removeAll { $0.deadline <= now }
        for t in due { t.action() }
    }

    /// Hands what the clients sent to their sessions; a client that hung up
    /// or failed is dropped.
    private func read(_ ready: ArraySlice<PollDescriptor>, now: Double) {
        for pfd in ready where !pfd.returnedEvents.isDisjoint(with: [.readable, .hangUp, .error]) {
            guard let session = clients[pfd.descriptor] else { continue }
            let r: Int
            do { r = try pfd.descriptor.read(into: &readBuffer) } catch {
                if !error.wouldBlock { drop(pfd.descriptor) }
                continue
            }
            guard r > 0 else {
                // End of input: what was sent before is still answered.
                session.endOfInput()
                if session.finished { drop(pfd.descriptor) }
                continue
            }
            let lines = session.linesTaken
            readBuffer.withUnsafeBytes { session.receive(UnsafeRawBufferPointer(rebasing: $0[0..<r])) }
            if session.linesTaken != lines { session.lastActive = now }
        }
    }

    /// Closes the clients silent past `--connection-timeout` (as mpd does,
    /// without a word): 100 connections that send a byte now and then
    /// would otherwise keep every real client out.
    private func closeSilentClients(now: Double) {
        guard options.connectionTimeout > 0 else { return }
        let expired = clients.filter { !$0.value.mayBeSilent && now - $0.value.lastActive >= options.connectionTimeout }
        guard !expired.isEmpty else { return }
        for fd in expired.keys { drop(fd) }
        if let held = refusals.admit("silent", now: now) {
            log.info(
                "closed \(expired.count) client(s) silent for \(DaemonOptions.number(options.connectionTimeout)) s"
                    + refusals.suffix(held: held))
        }
    }

    /// When the first client that may not stay silent runs out of time.
    private func nextSilenceDeadline() -> Double? {
        guard options.connectionTimeout > 0 else { return nil }
        return clients.values.lazy.filter { !$0.mayBeSilent }.map(\.lastActive).min().map { $0 + options.connectionTimeout }
    }

    /// Takes every waiting connection, or turns it away: a client of
    /// another uid, or one past `maxClients`.
    private func accept(from listener: UnixListener) {
        while let fd = listener.accept() {
            if let uid = fd.peerCredentials()?.userID, uid != ThisProcess.effectiveUserID {
                // The socket is 0600 in a 0700 directory; this is the
                // second lock, for a socket passed in or moved.
                refuse(
                    fd,
                    ProtocolError(.permission, "permission denied: previewd serves only uid \(ThisProcess.effectiveUserID), not uid \(uid)")
                )
                if let held = refusals.admit("uid", now: SystemClock.monotonicSeconds()) {
                    log.warning("refused a client running as uid \(uid)" + refusals.suffix(held: held))
                }
                continue
            }
            guard clients.count < options.maxClients else {
                refuse(fd, ProtocolError(.unknown, "too many clients (at most \(options.maxClients))"))
                if let held = refusals.admit("full", now: SystemClock.monotonicSeconds()) {
                    log.warning("refused a client: \(options.maxClients) already connected" + refusals.suffix(held: held))
                }
                continue
            }
            let session = ClientSession(table: table, log: log, hub: hub, maxCommandListBytes: options.maxCommandListBytes)
            session.lastActive = SystemClock.monotonicSeconds()
            clients[fd] = session
            flush(fd, session)
        }
    }

    /// Turns the changes of this loop turn into `events` records (one per
    /// subsystem, with the first reason given for it, in MPD's order) for
    /// the streaming clients and the hooks.
    private func deliverRecords() {
        guard !pendingChanges.records.isEmpty else { return }
        let reasons = pendingChanges.records
        pendingChanges.records = [:]
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
            // Ticks missed while busy are skipped, not sent in a burst.
            session.tickSent(now: now)
        }
        if let event, hookRunner.hooks.contains(where: { $0.matches("tick") }) { hookRunner.run(event) }
    }

    /// Hands changes to the sessions after the command or event that made
    /// them; delivering can run queued commands, which can change more.
    private func deliverChanges() {
        while true {
            deliverRecords()
            let changed = pendingChanges.changed
            pendingChanges.changed = []
            var delivered = false
            if !changed.isEmpty {
                for session in clients.values { session.notify(changed) }
                mpris?.changed(changed)
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
            let large = result.body.count >= Server.largeAnswerBytes
            if let callback = httpCallbacks.removeValue(forKey: id) { callback(result) }
            // Decoding a large answer leaves megabytes free in this thread's heap.
            if large { Heap.releaseFreePages() }
        case .engine(let event):
            controller.handle(event)
        }
    }

    /// An API answer from which its reading gives the heap back afterwards.
    static let largeAnswerBytes = 1 << 20
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
                if error.wouldBlock { return }
                drop(fd)
                return
            }
            if w > 0 {
                session.lastActive = SystemClock.monotonicSeconds()
                // A 100,000-song listing would otherwise stay resident.
                if session.consumeOutput(w) { Heap.releaseFreePages() }
            } else {
                drop(fd)
                return
            }
        }
        // The lines of a long command list are freed between the songs it queued.
        if session.takeFinishedLargeList() { Heap.releaseFreePages() }
        if session.closing || session.finished { drop(fd) }
    }

    private func drop(_ fd: FileDescriptor) {
        clients[fd] = nil
        fd.close()
    }
}

/// Sends the greeting and one ACK line to a client turned away, then closes it.
func refuse(_ fd: FileDescriptor, _ error: ProtocolError) {
    _ = try? fd.send(Array("OK MPD 0.23.5\n\(error.ackLine(index: 0, command: ""))".utf8)[...])
    // Unread input would turn the close into a reset that loses the ACK.
    var junk = [UInt8](repeating: 0, count: 4096)
    while ((try? fd.receive(into: &junk, dontWait: true)) ?? 0) > 0 {}
    fd.close()
}
