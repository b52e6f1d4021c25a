/// MPD's idle subsystems (`idle` / `changed:`), as a set.
public struct Subsystems: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let database = Subsystems(rawValue: 1 << 0)
    public static let update = Subsystems(rawValue: 1 << 1)
    public static let storedPlaylist = Subsystems(rawValue: 1 << 2)
    public static let playlist = Subsystems(rawValue: 1 << 3)
    public static let player = Subsystems(rawValue: 1 << 4)
    public static let mixer = Subsystems(rawValue: 1 << 5)
    public static let output = Subsystems(rawValue: 1 << 6)
    public static let options = Subsystems(rawValue: 1 << 7)
    public static let partition = Subsystems(rawValue: 1 << 8)
    public static let sticker = Subsystems(rawValue: 1 << 9)
    public static let subscription = Subsystems(rawValue: 1 << 10)
    public static let message = Subsystems(rawValue: 1 << 11)
    public static let neighbor = Subsystems(rawValue: 1 << 12)
    public static let mount = Subsystems(rawValue: 1 << 13)

    /// Protocol names in MPD's reporting order (mpd's `idle_names`).
    public static let names: [(Subsystems, String)] = [
        (.database, "database"), (.storedPlaylist, "stored_playlist"), (.playlist, "playlist"),
        (.player, "player"), (.mixer, "mixer"), (.output, "output"), (.options, "options"),
        (.sticker, "sticker"), (.update, "update"), (.subscription, "subscription"),
        (.message, "message"), (.neighbor, "neighbor"), (.mount, "mount"), (.partition, "partition"),
    ]

    /// Every subsystem.
    public static let all = Subsystems(rawValue: (1 << 14) - 1)

    /// Parses one subsystem name (case-insensitive, as MPD).
    /// - Throws: `.argument` "Unrecognized idle event: NAME".
    public init(name: String) throws(ProtocolError) {
        let lower = name.lowercased()
        guard let match = Subsystems.names.first(where: { $0.1 == lower }) else {
            throw ProtocolError(.argument, "Unrecognized idle event: \(name)")
        }
        self = match.0
    }

    /// `changed: NAME` lines for the members, in MPD's order.
    public var changedLines: String {
        var out = ""
        for (flag, name) in Subsystems.names where contains(flag) { out += "changed: \(name)\n" }
        return out
    }
}
