import PreviewCore

/// What one connection has chosen for itself: tags shown, binary chunk
/// size, message channels and the messages waiting for it.
final class SessionState {
    /// Tags previewd can show, in mpd's tag order (as `tagtypes` lists them).
    static let allTags = ["Artist", "Album", "Title"]

    /// Tags included in song listings (`tagtypes enable/disable/clear/all`).
    var tags = TagSelection.all
    /// Largest binary chunk sent (`binarylimit`), bytes.
    var binaryLimit = 8192
    /// Channels subscribed to.
    var subscriptions: Set<String> = []
    /// Messages received on those channels, oldest first, not yet read.
    var messages: [(channel: String, text: String)] = []
    /// Changes meant for this client only (`message`), delivered by the
    /// server after the current command, like global changes.
    var pendingLocal: Subsystems = []
}

/// Client-to-client messages (`subscribe`, `channels`, `sendmessage`,
/// `readmessages`): channels exist while someone is subscribed.
final class MessageHub {
    /// At most this many unread messages are kept per client; older ones go.
    static let maxQueued = 100
    private var members: [ObjectIdentifier: Weak] = [:]

    private struct Weak { weak var state: SessionState? }

    func register(_ state: SessionState) { members[ObjectIdentifier(state)] = Weak(state: state) }
    func unregister(_ state: SessionState) { members[ObjectIdentifier(state)] = nil }

    /// Channels with at least one subscriber, sorted.
    var channels: [String] {
        Set(members.values.compactMap(\.state).flatMap(\.subscriptions)).sorted()
    }

    /// Delivers `text` to every subscriber of `channel`.
    /// - Throws: `.noExist` when nobody subscribed (mpd's text).
    func send(_ text: String, to channel: String) throws(ProtocolError) {
        let receivers = members.values.compactMap(\.state).filter { $0.subscriptions.contains(channel) }
        guard !receivers.isEmpty else { throw ProtocolError(.noExist, "nobody is subscribed to this channel") }
        for r in receivers {
            r.messages.append((channel, text))
            if r.messages.count > MessageHub.maxQueued { r.messages.removeFirst() }
            r.pendingLocal.insert(.message)
        }
    }

    /// A valid channel name: letters, digits and `-_.:`, at most 64 bytes.
    static func checkChannel(_ name: String) throws(ProtocolError) {
        guard !name.isEmpty, name.utf8.count <= 64,
              name.unicodeScalars.allSatisfy({ ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) || "-_.:".unicodeScalars.contains($0) })
        else { throw ProtocolError(.argument, "invalid channel name") }
    }
}

/// The tags a connection shows (`tagtypes`), by name, with the three every
/// song has also as flags: listing 100,000 songs then tests flags instead
/// of hashing tag names three times per song.
struct TagSelection: Equatable {
    private(set) var names: Set<String>
    private(set) var artist = false, album = false, title = false

    /// - Parameter names: tag names as MPD spells them (`Artist`, ...).
    init(_ names: Set<String>) {
        self.names = names
        flag()
    }

    /// Every tag previewd shows.
    static let all = TagSelection(Set(SessionState.allTags))
    /// No tag (`tagtypes clear`).
    static let none = TagSelection([])

    /// Whether the tag `name` is shown.
    func contains(_ name: String) -> Bool { names.contains(name) }

    mutating func formUnion(_ more: [String]) {
        names.formUnion(more)
        flag()
    }

    mutating func subtract(_ less: [String]) {
        names.subtract(less)
        flag()
    }

    private mutating func flag() {
        artist = names.contains("Artist")
        album = names.contains("Album")
        title = names.contains("Title")
    }
}
