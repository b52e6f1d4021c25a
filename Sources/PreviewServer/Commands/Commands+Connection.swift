import PreviewCore

extension Commands {
    // The connection itself: `ping`, `close`, and the two ways of waiting
    // for changes: MPD's `idle` and previewd's `events` stream (`event:`
    // records with reasons).

    static func handlePing(_: CommandCall, _ s: Services) throws -> CommandOutcome {
        return .done
    }

    static func handleClose(_: CommandCall, _ s: Services) throws -> CommandOutcome {
        return .close
    }

    /// previewd's extension: a stream of `event:` records with reasons.
    static func handleEvents(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        var tick: Double?
        if let text = call.args.first {
            guard let seconds = Double(text), seconds >= 0.1, seconds <= 3600 else {
                throw ProtocolError(.argument, "tick interval must be seconds from 0.1 to 3600: \(text)")
            }
            tick = seconds
        }
        call.reply.append(raw: PlayerEvent(name: "player", reason: .subscribed, fields: s.controller.eventFields()).protocolLines)
        return .events(tick: tick)
    }

    static func handleIdle(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        var mask: Subsystems = []
        for name in call.args { mask.insert(try Subsystems(name: name)) }
        return .idle(mask.isEmpty ? .all : mask)
    }

    // What the server offers, for clients that ask before using it: the
    // commands refused (`notcommands`: none), URL handlers and decoders;
    // `config` has nothing to say, and `password` is refused in mpd's words.

    static func handleNotcommands(_: CommandCall, _ s: Services) throws -> CommandOutcome {
        return .done
    }

    static func handleUrlhandlers(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        for h in ["deezer:", "http://", "https://"] { call.reply.field("handler", h) }
        return .done
    }

    static func handleDecoders(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        call.reply.field("plugin", "mpg123")
        call.reply.field("suffix", "mp3")
        call.reply.field("mime_type", "audio/mpeg")
        return .done
    }

    /// `config`: mpd answers it on a local socket only, and previewd has no
    /// other; with no music directory there is nothing to report (mpd
    /// without storage answers the same).
    static func handleConfig(_: CommandCall, _ s: Services) throws -> CommandOutcome {
        return .done
    }

    static func handlePassword(_: CommandCall, _ s: Services) throws -> CommandOutcome {
        // No passwords: the socket is the user's own (0600). mpd's text for a wrong one.
        throw ProtocolError(.password, "incorrect password")
    }

    // Storage: previewd mounts nothing and finds no neighbours, so both
    // lists are empty, as on an mpd without storage or neighbor plugins.

    static func handleListmounts(_: CommandCall, _ s: Services) throws -> CommandOutcome {
        return .done
    }

    static func handleListneighbors(_: CommandCall, _ s: Services) throws -> CommandOutcome {
        return .done
    }

    // Partitions: one player, so one partition, `default` (Cantata and
    // ncmpc ask). Making another is refused with mpd's own ACK for a full
    // instance; names and `default` are checked first, in mpd's words.

    static func handleListpartitions(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        call.reply.field("partition", "default")
        return .done
    }

    static func handlePartition(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        guard call.args[0] == "default" else { throw ProtocolError(.noExist, "partition does not exist") }
        return .done
    }

    static func handleNewpartition(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        try checkPartitionName(call.args[0])
        guard call.args[0] != "default" else { throw ProtocolError(.exist, "name already exists") }
        throw ProtocolError(.unknown, "too many partitions")
    }

    static func handleDelpartition(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        try checkPartitionName(call.args[0])
        guard call.args[0] == "default" else { throw ProtocolError(.noExist, "no such partition") }
        throw ProtocolError(.unknown, "cannot delete the default partition")
    }

    /// `moveoutput NAME`: every output is in the one partition already.
    static func handleMoveoutput(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        guard s.controller.outputs.contains(where: { $0.name == call.args[0] }) else {
            throw ProtocolError(.noExist, "No such output")
        }
        return .done
    }

    /// mpd's partition names: ASCII letters, digits, `-` and `_`, at least one.
    private static func checkPartitionName(_ name: String) throws(ProtocolError) {
        let ok =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            }
        guard ok else { throw ProtocolError(.argument, "bad name") }
    }

    // This connection's own settings: which tags replies carry
    // (`tagtypes`), and the chunk size of binary replies (`binarylimit`).

    static func handleTagtypes(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        guard let sub = call.args.first else {
            for tag in TagType.advertised where call.session.tags.contains(tag) { call.reply.field("tagtype", tag.mpdName) }
            return .done
        }
        var names: [TagType] = []
        for name in call.args.dropFirst() {
            guard let tag = TagType(name: name) else { throw ProtocolError(.argument, "Unknown tag type") }
            names.append(tag)
        }
        let hasNames = call.args.count > 1
        switch sub {
        case "enable", "disable":
            guard hasNames else { throw ProtocolError(.argument, "Not enough arguments") }
            if sub == "enable" { call.session.tags.formUnion(names) } else { call.session.tags.subtract(names) }
        case "clear", "all":
            guard !hasNames else { throw ProtocolError(.argument, "Too many arguments") }
            call.session.tags = sub == "clear" ? .none : .all
        default: throw ProtocolError(.argument, "Unknown sub command")
        }
        return .done
    }

    static func handleBinarylimit(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let n = try Arguments.unsigned(call.args[0])
        guard n >= 64 else { throw ProtocolError(.argument, "Value too small") }
        call.session.binaryLimit = n
        return .done
    }

    // Client-to-client messages: channels are made by subscribing, and a
    // message waits in each subscriber's connection until `readmessages`.

    static func handleSubscribe(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        try MessageHub.checkChannel(call.args[0])
        guard !call.session.subscriptions.contains(call.args[0]) else {
            throw ProtocolError(.exist, "already subscribed to this channel")
        }
        guard call.session.subscriptions.count < SessionState.maxSubscriptions else {
            throw ProtocolError(.exist, "subscription list is full (at most \(SessionState.maxSubscriptions) channels)")
        }
        call.session.subscriptions.insert(call.args[0])
        s.controller.changed(.subscription)
        return .done
    }

    static func handleUnsubscribe(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        guard call.session.subscriptions.remove(call.args[0]) != nil else {
            throw ProtocolError(.noExist, "not subscribed to this channel")
        }
        s.controller.changed(.subscription)
        return .done
    }

    static func handleChannels(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        for channel in s.hub.channels { call.reply.field("channel", channel) }
        return .done
    }

    static func handleReadmessages(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        for m in call.session.messages {
            call.reply.field("channel", m.channel)
            call.reply.field("message", m.text)
        }
        call.session.messages = []
        return .done
    }

    static func handleSendmessage(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        try MessageHub.checkChannel(call.args[0])
        try s.hub.send(call.args[1], to: call.args[0])
        return .done
    }
}

/// Every tag name mpd 0.23 knows, lower-cased.
