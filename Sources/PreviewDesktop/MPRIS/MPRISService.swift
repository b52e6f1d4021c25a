import PreviewCore
import PreviewDBus
import PreviewPlatform
import PreviewPlayback

/// Native MPRIS: the session-bus connection that serves `MPRISAdapter` as
/// `org.mpris.MediaPlayer2.previewd`, driven from the server's `poll`
/// loop (`pollDescriptor`, `deadline`, `process`), so every call runs on
/// the control thread like a client's command. previewd works on without
/// it: no bus, a name already owned, or a bus that goes away are logged
/// once and the daemon carries on over the MPD protocol alone.
package final class MPRISService {
    private var connection: DBusConnection?
    /// Why the connection failed inside sd-bus's own processing; it is
    /// closed at the next loop turn, outside `sd_bus_process`.
    private var failure: SystemError?
    private let log: Log
    private(set) var adapter: MPRISAdapter!

    /// Connects, serves the object and asks for the name; nil when there is
    /// no session bus, said in the log at info level (the usual case on a
    /// headless machine). The bus's answer comes later, in `process()`:
    /// then the log says the name is ours, or warns that it is owned
    /// (another previewd on the same bus) and the service closes.
    /// `apiBase` is the Deezer API's base URL (covers are made from it).
    package static func start(controller: PlayerController, apiBase: String, log: Log) -> MPRISService? {
        let connection: DBusConnection
        do { connection = try DBusConnection() } catch {
            logNoBus(error, log)
            return nil
        }
        let service = MPRISService(connection: connection, controller: controller, apiBase: apiBase, log: log)
        do throws(SystemError) {
            // The object first: a caller that sees the name appear finds it served.
            try connection.serve(path: MPRIS.objectPath) { [unowned service] call in service.adapter.handle(call) }
            try connection.requestName(MPRIS.busName) { [weak service] error in service?.named(error) }
        } catch {
            log.warning("MPRIS: \(error); continuing without MPRIS")
            return nil
        }
        controller.addListener(SeekForwarder(adapter: service.adapter))
        return service
    }

    private static func logNoBus(_ error: SystemError, _ log: Log) {
        log.info("MPRIS: no session bus (\(error)); media keys need mpDris2")
    }

    /// The bus answered the name request: ours, or MPRIS is given up.
    private func named(_ error: SystemError?) {
        guard failure == nil else { return }
        guard let error else {
            log.info("MPRIS: \(MPRIS.busName) on the session bus")
            return
        }
        if error.isAlreadyExisting {
            log.warning(
                "MPRIS: \(MPRIS.busName) is owned by another program on the session bus "
                    + "(another previewd?); continuing without MPRIS")
        } else if error.isNoPeer {
            Self.logNoBus(error, log)
        } else {
            log.warning("MPRIS: \(error); continuing without MPRIS")
        }
        // Closed after `process()` returns, not inside sd-bus's callback.
        failure = error
    }

    private init(connection: DBusConnection, controller: PlayerController, apiBase: String, log: Log) {
        self.connection = connection
        self.log = log
        adapter = MPRISAdapter(controller: controller, apiBase: apiBase, log: log) { [unowned self] interface, member, arguments in
            send(interface, member, arguments)
        }
    }

    /// The bus socket and what to wait for, or nil once the bus is gone.
    package func pollDescriptor() -> PollDescriptor? {
        closeIfFailed()
        guard let connection else { return nil }
        do throws(SystemError) {
            return PollDescriptor(try connection.descriptor(), events: try connection.pollEvents())
        } catch {
            fail(error)
            closeIfFailed()
            return nil
        }
    }

    /// When `process` must run though the socket is quiet (monotonic seconds).
    package func deadline() -> Double? {
        guard let connection, failure == nil else { return nil }
        return (try? connection.deadline()) ?? nil
    }

    /// Reads and answers what the bus sent, and sends what waits.
    package func process() {
        guard let connection, failure == nil else { return }
        do { try connection.process() } catch { fail(error) }
        closeIfFailed()
    }

    /// Announces what the MPD protocol reports as changed (`idle`'s subsystems).
    package func changed(_ subsystems: Subsystems) {
        guard connection != nil, failure == nil else { return }
        adapter.changed(subsystems)
    }

    private func send(_ interface: String, _ member: String, _ arguments: [DBusValue]) {
        guard let connection, failure == nil else { return }
        do { try connection.emit(path: MPRIS.objectPath, interface: interface, member: member, arguments) } catch { fail(error) }
    }

    private func fail(_ error: SystemError) {
        guard failure == nil else { return }
        failure = error
        log.warning("MPRIS: the session bus connection failed (\(error)); continuing without MPRIS")
    }

    private func closeIfFailed() {
        guard failure != nil, connection != nil else { return }
        connection = nil
    }
}
