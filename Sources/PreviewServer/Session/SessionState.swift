import PreviewCore
import PreviewPlayback

/// What one connection has chosen for itself: tags shown, binary chunk
/// size, message channels and the messages waiting for it.
package final class SessionState {
    /// Tags included in song listings (`tagtypes enable/disable/clear/all`).
    var tags = TagSelection.all
    /// Largest binary chunk sent (`binarylimit`), bytes.
    var binaryLimit = 8192
    /// Channels subscribed to, at most `maxSubscriptions`.
    var subscriptions: Set<String> = []
    /// Channels one client may subscribe to, as mpd's 16: each costs a
    /// copy of every message sent on it.
    static let maxSubscriptions = 16
    /// Messages received on those channels, oldest first, not yet read.
    var messages: [(channel: String, text: String)] = []
    /// Changes meant for this client only (`message`), delivered by the
    /// server after the current command, like global changes.
    package var pendingLocal: Subsystems = []
}

/// Client-to-client messages (`subscribe`, `channels`, `sendmessage`,
/// `readmessages`): channels exist while someone is subscribed.
package final class MessageHub {
    /// At most this many unread messages are kept per client; older ones go.
    static let maxQueued = 100
    private var members: [ObjectIdentifier: Weak] = [:]

    private struct Weak { weak var state: SessionState? }

    package init() {}

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
            name.unicodeScalars.allSatisfy({
                ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) || "-_.:".unicodeScalars.contains($0)
            })
        else { throw ProtocolError(.argument, "invalid channel name") }
    }
}

/// The tags a connection shows (`tagtypes`): one bit per `TagType`, so
/// listing 100,000 songs tests bits instead of hashing tag names.
struct TagSelection: Equatable {
    private var bits: UInt64

    /// Every tag (`tagtypes all`, and a new connection).
    static let all = TagSelection(bits: ~0)
    /// No tag (`tagtypes clear`).
    static let none = TagSelection(bits: 0)

    /// Whether `tag` is shown.
    func contains(_ tag: TagType) -> Bool { bits & (1 << UInt64(tag.rawValue)) != 0 }

    /// Whether the tag named `name` (as mpd spells it) is shown.
    func contains(name: String) -> Bool { TagType(name: name).map(contains) ?? false }

    mutating func formUnion(_ more: [TagType]) {
        for tag in more { bits |= 1 << UInt64(tag.rawValue) }
    }

    mutating func subtract(_ less: [TagType]) {
        for tag in less { bits &= ~(1 << UInt64(tag.rawValue)) }
    }
}

/// Tells every session of a change at once, for those without a loop turn
/// to wait for (the fuzz entry and the tests' harness; the server batches
/// changes per turn instead).
package final class SessionListener: PlaybackListener {
    /// The sessions told, in order.
    package var sessions: [ClientSession] = []

    package init() {}

    package func playbackChanged(_ subsystems: Subsystems) {
        for s in sessions { s.notify(subsystems) }
    }
}
