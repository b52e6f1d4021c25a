import CSystemd
import Glibc
import PreviewPlatform

/// A connection to the user's session bus: the one owner of an sd-bus
/// handle (`sd_bus *`), driven from the caller's `poll` loop, never from a
/// thread of its own: `descriptor`, `pollEvents` and `deadline` say what to
/// wait for, `process()` handles what arrived, and every handler runs
/// inside `process()` on the calling thread. Every failure is a
/// `SystemError` naming the sd-bus function and the errno it returned.
public final class DBusConnection {
    private let bus: OpaquePointer
    private var objects: [(slot: OpaquePointer, handler: Unmanaged<HandlerBox>)] = []

    /// Connects to the session bus as `sd_bus_open_user` finds it:
    /// `$DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`.
    /// - Throws: `SystemError("sd_bus_open_user")`: ENOENT or ECONNREFUSED
    ///   for no bus at that place, ENOMEDIUM when neither variable is set.
    public init() throws(SystemError) {
        var handle: OpaquePointer?
        let r = sd_bus_open_user(&handle)
        guard r >= 0, let handle else { throw SystemError("sd_bus_open_user", errno: -r) }
        bus = handle
    }

    deinit {
        for object in objects {
            sd_bus_slot_unref(object.slot)
            object.handler.release()
        }
        // Not sd_bus_flush_close_unref: flushing waits, without a time
        // limit, for a bus that stopped answering, and a stop must not
        // hang. What is lost is a last signal; the name vanishing says more.
        sd_bus_close_unref(bus)
    }

    /// Asks for the well-known `name`, without queueing for it or replacing
    /// an owner (`sd_bus_request_name_async` with no flags), so start-up
    /// never waits on the bus; `completion` runs within `process()` once
    /// the bus answered: nil when the name is ours, else the error.
    /// - Throws: `SystemError("sd_bus_request_name_async")` when the request
    ///   cannot be sent.
    /// - Parameter completion: gets EEXIST when another connection owns the
    ///   name, the bus's errno for a refusal, ECONNRESET when the bus went away.
    public func requestName(_ name: String, completion: @escaping (SystemError?) -> Void) throws(SystemError) {
        let box = Unmanaged.passRetained(CompletionBox(completion))
        // A floating slot (nil): the bus keeps the request until it is answered.
        let r = sd_bus_request_name_async(
            bus, nil, name, 0,
            { reply, userdata, _ in
                guard let userdata else { return 0 }
                let box = Unmanaged<CompletionBox>.fromOpaque(userdata).takeRetainedValue()
                box.completion(reply.flatMap(CompletionBox.requestNameError))
                return 1
            }, box.toOpaque())
        guard r >= 0 else {
            box.release()
            throw SystemError("sd_bus_request_name_async", errno: -r)
        }
    }

    /// Answers the method calls to object `path` with `handler`
    /// (`sd_bus_add_object`), Properties and Introspectable included; the
    /// handler runs within `process()`. `.unhandled` leaves the call to
    /// sd-bus, which answers UnknownMethod. Kept until the connection ends.
    /// - Throws: `SystemError("sd_bus_add_object")`.
    public func serve(path: String, _ handler: @escaping (DBusMethodCall) -> DBusReply) throws(SystemError) {
        let box = Unmanaged.passRetained(HandlerBox(handler))
        var slot: OpaquePointer?
        let r = sd_bus_add_object(
            bus, &slot, path,
            { message, userdata, _ in
                guard let message, let userdata else { return 0 }
                let box = Unmanaged<HandlerBox>.fromOpaque(userdata).takeUnretainedValue()
                return box.answer(message)
            }, box.toOpaque())
        guard r >= 0, let slot else {
            box.release()
            throw SystemError("sd_bus_add_object", errno: -r)
        }
        objects.append((slot, box))
    }

    /// Queues a signal from object `path` (`sd_bus_message_new_signal`,
    /// `sd_bus_send`); it leaves as the socket takes it, so poll for
    /// `pollEvents` afterwards.
    /// - Throws: `SystemError` naming the sd-bus call that failed
    ///   (ENOTCONN once the bus is gone).
    public func emit(path: String, interface: String, member: String, _ arguments: [DBusValue]) throws(SystemError) {
        var message: OpaquePointer?
        let r = sd_bus_message_new_signal(bus, &message, path, interface, member)
        guard r >= 0, let message else { throw SystemError("sd_bus_message_new_signal", errno: -r) }
        defer { sd_bus_message_unref(message) }
        var writer = DBusMessageWriter(message)
        for argument in arguments { try writer.append(argument) }
        try Syscall.returningError("sd_bus_send", negated: true) { sd_bus_send(bus, message, nil) }
    }

    /// The connection's socket, to poll (`sd_bus_get_fd`).
    /// - Throws: `SystemError("sd_bus_get_fd")`.
    public func descriptor() throws(SystemError) -> FileDescriptor {
        let fd = try Syscall.returningError("sd_bus_get_fd", negated: true) { sd_bus_get_fd(bus) }
        return FileDescriptor(rawValue: fd)
    }

    /// What to poll the socket for now (`sd_bus_get_events`): readable,
    /// and writable while messages wait to be sent.
    /// - Throws: `SystemError("sd_bus_get_events")`, ENOTCONN once the bus is gone.
    public func pollEvents() throws(SystemError) -> PollEvents {
        let r = try Syscall.returningError("sd_bus_get_events", negated: true) { sd_bus_get_events(bus) }
        return PollEvents(rawValue: Int16(truncatingIfNeeded: r))
    }

    /// When `process()` must run even if the socket stays quiet, in
    /// CLOCK_MONOTONIC seconds (`sd_bus_get_timeout`): now when messages
    /// already read wait, the end of a pending call's time-out; nil for none.
    /// - Throws: `SystemError("sd_bus_get_timeout")`.
    public func deadline() throws(SystemError) -> Double? {
        var usec: UInt64 = 0
        try Syscall.returningError("sd_bus_get_timeout", negated: true) { sd_bus_get_timeout(bus, &usec) }
        return usec == UInt64.max ? nil : Double(usec) / 1_000_000
    }

    /// Handles everything that can be handled now (`sd_bus_process` until it
    /// returns 0): reads, sends, and runs the handlers of method calls.
    /// - Throws: `SystemError("sd_bus_process")`; ECONNRESET or ENOTCONN
    ///   when the bus went away (the connection is then of no more use).
    public func process() throws(SystemError) {
        while true {
            let r = try Syscall.returningError("sd_bus_process", negated: true) { sd_bus_process(bus, nil) }
            if r == 0 { return }
        }
    }
}

/// The completion of a name request, held by sd-bus through `Unmanaged`
/// until the bus answers.
private final class CompletionBox {
    let completion: (SystemError?) -> Void

    init(_ completion: @escaping (SystemError?) -> Void) { self.completion = completion }

    /// What the bus's answer to RequestName means (D-Bus specification,
    /// "org.freedesktop.DBus.RequestName"): replies 1 (primary owner) and
    /// 4 (already the owner) are success; 2 (queued) and 3 (exists) are
    /// EEXIST, as `sd_bus_request_name` maps them; an error reply is its errno.
    static func requestNameError(_ reply: OpaquePointer) -> SystemError? {
        if sd_bus_message_is_method_error(reply, nil) > 0 {
            let e = sd_bus_message_get_errno(reply)
            return SystemError("sd_bus_request_name_async", errno: e > 0 ? e : EIO)
        }
        var answer: UInt32 = 0
        guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &answer) > 0 else {
            return SystemError("sd_bus_message_read_basic", errno: EBADMSG)
        }
        return answer == 1 || answer == 4 ? nil : SystemError("sd_bus_request_name_async", errno: EEXIST)
    }
}

/// A method handler, held by the sd-bus object slot through `Unmanaged`:
/// the C callback captures nothing and finds its handler through userdata.
private final class HandlerBox {
    let handler: (DBusMethodCall) -> DBusReply

    init(_ handler: @escaping (DBusMethodCall) -> DBusReply) { self.handler = handler }

    /// Runs the handler for `message` and sends its reply, if one is expected.
    /// - Returns: what an `sd_bus_message_handler_t` returns: 1 answered,
    ///   0 not ours, a negative errno when the reply could not be built
    ///   (sd-bus then answers with that error).
    func answer(_ message: OpaquePointer) -> Int32 {
        var reader = DBusMessageReader(message)
        let call = DBusMethodCall(
            path: sd_bus_message_get_path(message).map { String(cString: $0) } ?? "",
            interface: sd_bus_message_get_interface(message).map { String(cString: $0) },
            member: sd_bus_message_get_member(message).map { String(cString: $0) } ?? "",
            arguments: reader.readAll())
        let reply = handler(call)
        // A caller that asked for no reply (`dbus-send` without
        // --print-reply, as media-key bindings use it) gets none: sd-bus
        // refuses to build one.
        if case .unhandled = reply { return 0 }
        guard sd_bus_message_get_expect_reply(message) > 0 else { return 1 }
        switch reply {
        case .unhandled: return 0
        case .error(let name, let text):
            var error = pv_sd_bus_error_null()
            sd_bus_error_set(&error, name, text)
            defer { sd_bus_error_free(&error) }
            let r = sd_bus_reply_method_error(message, &error)
            return r < 0 ? r : 1
        case .values(let values):
            var reply: OpaquePointer?
            let r = sd_bus_message_new_method_return(message, &reply)
            guard r >= 0, let reply else { return r }
            defer { sd_bus_message_unref(reply) }
            var writer = DBusMessageWriter(reply)
            do { for value in values { try writer.append(value) } } catch { return -error.errno }
            let s = sd_bus_send(nil, reply, nil)
            return s < 0 ? s : 1
        }
    }
}
