import PreviewCore
import PreviewDBus
import PreviewPlatform
import PreviewPlayback

/// The MPRIS object `/org/mpris/MediaPlayer2`, over the player controller:
/// property reads come from the controller's state, methods and property
/// writes call the operations the MPD commands use (so an MPRIS `Next`
/// obeys the key-repeat rule as `next` does), and the controller's change
/// notifications become `PropertiesChanged` signals. No D-Bus of its own:
/// calls come in as `DBusMethodCall`s and signals go out through `emit`,
/// so tests drive it without a bus.
final class MPRISAdapter {
    /// Sends a signal from the object: interface, member, arguments.
    typealias Emit = (_ interface: String, _ member: String, _ arguments: [DBusValue]) -> Void

    let controller: PlayerController
    let log: Log
    /// The Deezer API's base URL, for the covers' URLs.
    private let apiBase: String
    private let emit: Emit
    /// The Player properties as last announced, to send only what changed.
    private var announced: [DBusEntry]

    /// - Parameter emit: sends a signal; the adapter calls it from
    ///   `changed`, `seeked` and property writes, on the control thread.
    init(controller: PlayerController, apiBase: String, log: Log, emit: @escaping Emit) {
        self.controller = controller
        self.apiBase = apiBase
        self.log = log
        self.emit = emit
        announced = []
        announced = MPRIS.playerProperties(input)
    }

    /// The controller's state the Player properties are made from.
    private var input: MPRIS.PlayerInput {
        let current = controller.currentID.flatMap { controller.queuedSong(withID: $0) }
        return MPRIS.PlayerInput(
            state: controller.state, modes: controller.modes,
            volumePercent: controller.volume, current: current,
            queueIsEmpty: controller.queueLength == 0, apiBase: apiBase)
    }

    /// `Position`: microseconds into the current song (0 when stopped).
    private var position: Int64 {
        controller.state == .stop ? 0 : MPRIS.microseconds(controller.elapsed)
    }

    // MARK: signals

    /// After a change the MPD protocol reports as `player`, `mixer`,
    /// `options` or `playlist` (idle's subsystems): one `PropertiesChanged`
    /// with the Player properties whose values differ from those announced.
    func changed(_ subsystems: Subsystems) {
        guard !subsystems.isDisjoint(with: [.player, .mixer, .options, .playlist]) else { return }
        let now = MPRIS.playerProperties(input)
        let changes = MPRIS.changes(from: announced, to: now)
        announced = now
        guard !changes.isEmpty else { return }
        emit(
            MPRIS.propertiesInterface, "PropertiesChanged",
            [.string(MPRIS.playerInterface), .dictionary(changes), .strings([])])
    }

    /// After any seek (MPRIS's or the protocol's): `Seeked` with the new
    /// position, in microseconds.
    func seeked(to seconds: Double) {
        emit(MPRIS.playerInterface, "Seeked", [.int64(MPRIS.microseconds(seconds))])
    }

    // MARK: calls

    /// Answers one method call to the object.
    func handle(_ call: DBusMethodCall) -> DBusReply {
        guard call.path == MPRIS.objectPath else { return .unhandled }
        switch call.interface {
        case MPRIS.introspectableInterface? where call.member == "Introspect":
            return .values([.string(MPRIS.introspection)])
        case MPRIS.propertiesInterface?:
            return properties(call)
        case MPRIS.rootInterface?:
            // CanRaise and CanQuit are false: both do nothing, as the spec allows.
            return call.member == "Raise" || call.member == "Quit" ? .values([]) : .unhandled
        case MPRIS.playerInterface?:
            return player(call.member, call.arguments)
        default:
            return .unhandled
        }
    }

    /// `org.freedesktop.DBus.Properties`: Get, GetAll, Set.
    private func properties(_ call: DBusMethodCall) -> DBusReply {
        let args = call.arguments
        guard let interface = args.first?.text else { return .invalidArguments("the first argument is the interface name") }
        let all: [DBusEntry]
        switch interface {
        case MPRIS.rootInterface: all = MPRIS.rootProperties
        case MPRIS.playerInterface: all = MPRIS.playerProperties(input) + [DBusEntry("Position", .int64(position))]
        default:
            return .error(name: "org.freedesktop.DBus.Error.UnknownInterface", message: "no interface \(interface)")
        }
        switch call.member {
        case "GetAll":
            return .values([.dictionary(all)])
        case "Get":
            guard args.count == 2, let name = args[1].text else { return .invalidArguments("Get takes an interface and a property") }
            guard let entry = all.first(where: { $0.key == name }) else { return Self.unknownProperty(name) }
            return .values([.variant(entry.value)])
        case "Set":
            guard args.count == 3, let name = args[1].text else {
                return .invalidArguments("Set takes an interface, a property and a value")
            }
            guard all.contains(where: { $0.key == name }) else { return Self.unknownProperty(name) }
            return set(name, args[2].unwrapped, interface: interface)
        default:
            return .unhandled
        }
    }

    private static func unknownProperty(_ name: String) -> DBusReply {
        .error(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "no property \(name)")
    }

    /// The writable Player properties: LoopStatus, Shuffle, Volume (and
    /// Rate, which takes only 1.0).
    private func set(_ name: String, _ value: DBusValue, interface: String) -> DBusReply {
        let readOnly = DBusReply.error(name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: "\(name) is read-only")
        guard interface == MPRIS.playerInterface else { return readOnly }
        switch name {
        case "LoopStatus":
            guard let text = value.text, let modes = MPRIS.modes(loopStatus: text) else {
                return .invalidArguments("LoopStatus is None, Track or Playlist")
            }
            controller.setLoop(repeat: modes.repeat, single: modes.single)
        case "Shuffle":
            guard let on = value.truth else { return .invalidArguments("Shuffle is a boolean") }
            controller.setRandom(on)
        case "Volume":
            guard let v = value.number, let percent = MPRIS.percent(volume: v) else {
                return .invalidArguments("Volume is a number from 0.0 to 1.0")
            }
            controller.setVolume(percent)
        case "Rate":
            guard value.number == 1 else { return .invalidArguments("previewd plays at rate 1.0 only") }
        default:
            return readOnly
        }
        return .values([])
    }
}

/// Passes the controller's seeks on to an adapter as MPRIS's `Seeked`
/// signal. The adapter is held weakly: it holds the controller, which holds
/// this.
final class SeekForwarder: PlaybackListener {
    private weak var adapter: MPRISAdapter?
    init(adapter: MPRISAdapter) { self.adapter = adapter }
    func playbackSeeked(to seconds: Double) { adapter?.seeked(to: seconds) }
}
