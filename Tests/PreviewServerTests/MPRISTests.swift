@testable import PreviewCore
import PreviewDBus
import PreviewPlatform
import PreviewTestSupport
import Testing
@testable import PreviewPlayback
@testable import PreviewDaemon
@testable import PreviewServer
@testable import PreviewDesktop

/// MPRIS: the adapter's calls and signals over the harness's controller
/// (the pure mapping is in PreviewDesktopTests).
@Suite struct MPRISTests {
    // MARK: the adapter

    /// The adapter over a harness whose queue holds tracks 1...3, and the signals it sent.
    final class Bench {
        let h = Harness()
        var signals: [(String, String, [DBusValue])] = []
        var adapter: MPRISAdapter!

        init() {
            adapter = MPRISAdapter(controller: h.controller, apiBase: h.instance.catalog.apiBase, log: Log(level: .error)) {
                [unowned self] in
                signals.append(($0, $1, $2))
            }
            let c = h.connect()
            for id in 1...3 { #expect(h.send(c, "add deezer:track:\(id)\n") == "OK\n") }
            adapter.changed(.playlist)
            signals = []
        }

        func call(_ member: String, _ args: [DBusValue] = [], interface: String = MPRIS.playerInterface) -> DBusReply {
            let reply = adapter.handle(DBusMethodCall(path: MPRIS.objectPath, interface: interface, member: member, arguments: args))
            h.settle()
            return reply
        }

        func get(_ name: String) -> DBusValue? {
            guard
                case .values(let v) = call(
                    "Get", [.string(MPRIS.playerInterface), .string(name)],
                    interface: MPRIS.propertiesInterface)
            else { return nil }
            return v.first?.unwrapped
        }

        /// The properties each PropertiesChanged since the last look named.
        func changedNames() -> [[String]] {
            defer { signals = [] }
            return signals.compactMap { signal in
                guard signal.1 == "PropertiesChanged", case .dictionary(let d) = signal.2[1] else { return nil }
                return d.map(\.key)
            }
        }
    }

    @Test func playPauseStopAndTheSignalsTheyMake() {
        let b = Bench()
        #expect(b.get("PlaybackStatus") == .string("Stopped"))
        #expect(b.get("CanGoNext") == .boolean(false))
        #expect(b.call("Play") == .values([]))
        #expect(b.h.controller.state == .play)
        b.adapter.changed(.player)
        #expect(b.changedNames() == [["PlaybackStatus", "Metadata", "CanGoNext", "CanGoPrevious", "CanSeek"]])
        #expect(b.call("PlayPause") == .values([]))
        #expect(b.h.controller.state == .pause)
        b.adapter.changed(.player)
        #expect(b.changedNames() == [["PlaybackStatus"]])
        b.adapter.changed(.player)
        #expect(b.changedNames() == [], "nothing changed: no signal")
        #expect(b.call("Next") == .values([]))
        #expect(
            b.get("Metadata").flatMap { v -> String? in
                guard case .dictionary(let d) = v else { return nil }
                return d.first { $0.key == "xesam:url" }?.value.text
            } == "deezer:track:2")
        #expect(b.call("Stop") == .values([]))
        #expect(b.get("PlaybackStatus") == .string("Stopped"))
    }

    @Test func propertyWritesUseTheControllersOperations() {
        let b = Bench()
        let set = { (name: String, value: DBusValue) in
            b.call("Set", [.string(MPRIS.playerInterface), .string(name), .variant(value)], interface: MPRIS.propertiesInterface)
        }
        #expect(set("Volume", .double(0.25)) == .values([]))
        #expect(b.h.controller.volume == 25)
        #expect(set("LoopStatus", .string("Track")) == .values([]))
        #expect(b.h.controller.modes.repeat && b.h.controller.modes.single == .on)
        #expect(set("Shuffle", .boolean(true)) == .values([]))
        #expect(b.h.controller.modes.random)
        b.adapter.changed([.mixer, .options])
        #expect(b.changedNames() == [["LoopStatus", "Shuffle", "Volume"]])
        #expect(set("LoopStatus", .string("Sometimes")) == .invalidArguments("LoopStatus is None, Track or Playlist"))
        #expect(
            set("PlaybackStatus", .string("Playing"))
                == .error(name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: "PlaybackStatus is read-only"))
        #expect(set("Bogus", .int32(1)) == .error(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "no property Bogus"))
    }

    @Test func seekAndSetPosition() {
        let b = Bench()
        #expect(b.call("Play") == .values([]))
        let id = try! #require(b.h.controller.currentID)
        #expect(b.call("SetPosition", [.objectPath(MPRIS.trackID(id)), .int64(12_000_000)]) == .values([]))
        #expect(b.h.engine.calls.last == .range(12, nil))
        let calls = b.h.engine.calls.count
        #expect(b.call("SetPosition", [.objectPath(MPRIS.trackID(id + 1)), .int64(1_000_000)]) == .values([]))
        #expect(b.h.engine.calls.count == calls, "a stale track id is ignored")
        #expect(b.call("Seek", [.int64(-60_000_000)]) == .values([]))
        #expect(b.h.controller.currentID == id)
        #expect(b.call("Seek", [.int64(600_000_000)]) == .values([]))
        #expect(b.h.controller.currentID != id, "past the end is Next")
        #expect(b.call("Seek", []) == .invalidArguments("Seek takes an offset in µs"))
    }

    @Test func everySeekIsSeeked() {
        let b = Bench()
        b.h.controller.addListener(SeekForwarder(adapter: b.adapter))
        let c = b.h.connect()
        #expect(b.h.send(c, "play\n") == "OK\n")
        #expect(b.h.send(c, "seekcur 7.5\n") == "OK\n")
        let id = try! #require(b.h.controller.currentID)
        #expect(b.call("SetPosition", [.objectPath(MPRIS.trackID(id)), .int64(2_000_000)]) == .values([]))
        let seeked = b.signals.filter { $0.1 == "Seeked" }.map(\.2)
        #expect(seeked == [[.int64(7_500_000)], [.int64(2_000_000)]])
    }

    @Test func openUriAddsAndPlays() {
        let b = Bench()
        #expect(b.call("OpenUri", [.string("deezer:track:9")]) == .values([]))
        #expect(b.h.controller.queueLength == 4)
        #expect(b.h.controller.currentID.flatMap { b.h.controller.queuedSong(withID: $0)?.song.uri } == "deezer:track:9")
        #expect(b.h.controller.state == .play)
        if case .error(let name, _) = b.call("OpenUri", [.string("file:///etc/passwd")]) {
            #expect(name == "org.freedesktop.DBus.Error.Failed")
        } else {
            Issue.record("file:// must be refused")
        }
        #expect(b.h.controller.queueLength == 4)
    }

    @Test func rootPropertiesAndIntrospection() {
        let b = Bench()
        let all = b.call("GetAll", [.string(MPRIS.rootInterface)], interface: MPRIS.propertiesInterface)
        #expect(all == .values([.dictionary(MPRIS.rootProperties)]))
        guard case .values(let xml) = b.call("Introspect", interface: MPRIS.introspectableInterface) else {
            Issue.record("no introspection")
            return
        }
        #expect(xml.first?.text?.contains("<interface name=\"org.mpris.MediaPlayer2.Player\">") == true)
        #expect(b.call("Frobnicate") == .unhandled)
        #expect(
            b.adapter.handle(DBusMethodCall(path: "/", interface: MPRIS.playerInterface, member: "Play", arguments: []))
                == .unhandled)
    }

    @Test func optionTurnsMPRISOff() throws {
        #expect(try DaemonOptions.parse([], environment: { _ in nil }, uid: 1).mpris)
        #expect(try !DaemonOptions.parse(["--no-mpris"], environment: { _ in nil }, uid: 1).mpris)
    }
}
