import PreviewCore
import PreviewPlayback

extension Commands {
    // Starting, pausing, stopping and skipping. Those that start a song
    // answer once it is audible (see `awaitAudible`), except `next` and
    // `previous`, which answer at once, as mpd does: a key held down sends
    // them faster than a song starts, and a reply that waited for each
    // song would make every one of them open (the key-repeat rule,
    // `PlayerController.prefetchCandidates`).

    static func handlePlay(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        var position: Int?
        if let arg = call.args.first {
            let p = try Arguments.integer(arg)
            // -1 means "the current song", as in mpd; other negatives are bad.
            guard p >= -1 else { throw ProtocolError(.argument, "Bad song index") }
            if p >= 0 { position = p }
        }
        try c.play(position: position)
        return awaitAudible(c, call)
    }

    static func handlePlayid(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        var id: SongID?
        if let arg = call.args.first {
            let n = try Arguments.integer(arg)
            guard n >= -1 else { throw ProtocolError(.noExist, "No such song") }
            if n >= 0 { id = SongID(n) }
        }
        try c.play(id: id)
        return awaitAudible(c, call)
    }

    static func handlePause(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let paused = try call.args.first.map { (a) throws(ProtocolError) in try Arguments.boolean(a) }
        s.controller.pause(paused)
        return .done
    }

    static func handleStop(_: CommandCall, _ s: Services) throws -> CommandOutcome {
        s.controller.stop()
        return .done
    }

    static func handleNext(_: CommandCall, _ s: Services) throws -> CommandOutcome {
        try s.controller.next()
        return .done
    }

    static func handlePrevious(_: CommandCall, _ s: Services) throws -> CommandOutcome {
        try s.controller.previous()
        return .done
    }

    // Seeking in a song by queue position, by id, or in the current song
    // (`seekcur`, also relative with `+`/`-`); seconds as `seconds` takes them.

    static func handleSeek(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        let id = try c.songID(at: try Arguments.unsigned(call.args[0]))
        try c.seek(id: id, to: try seconds(call.args[1]))
        return awaitAudible(c, call)
    }

    static func handleSeekid(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        try c.seek(id: try songID(call.args[0]), to: try seconds(call.args[1]))
        return awaitAudible(c, call)
    }

    static func handleSeekcur(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        try c.requirePlaying()
        let text = call.args[0]
        if text.hasPrefix("+") || text.hasPrefix("-") {
            try c.seekCurrent(by: (text.hasPrefix("-") ? -1 : 1) * (try seconds(String(text.dropFirst()))))
        } else {
            try c.seekCurrent(to: try seconds(text))
        }
        return awaitAudible(c, call)
    }

    // The playback modes: random, repeat, consume, single, and crossfade
    // (0, gapless, up to `Crossfade.maxSeconds`).

    /// `random`, `repeat`, `consume` (0 or 1): the mode `set` switches.
    static func handleSwitch(
        _ call: CommandCall, _ s: Services,
        _ set: (PlayerController) -> (Bool) -> Void
    ) throws -> CommandOutcome {
        set(s.controller)(try Arguments.boolean(call.args[0]))
        return .done
    }

    static func handleSingle(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        guard let mode = SingleMode(rawValue: call.args[0]) else {
            throw ProtocolError(.argument, "Unrecognized single mode, expected 0, 1, or oneshot")
        }
        s.controller.setSingle(mode)
        return .done
    }

    static func handleCrossfade(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        try s.controller.setCrossfade(try Arguments.unsigned(call.args[0]))
        return .done
    }

    /// `mixrampdb DB` and `mixrampdelay SECONDS`: kept and shown, as mpd
    /// keeps them for songs without MixRamp tags (`MixRamp`).
    static func handleMixrampdb(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        s.controller.setMixRampDecibels(try MixRamp.parse(call.args[0]))
        return .done
    }

    static func handleMixrampdelay(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        s.controller.setMixRampDelay(try MixRamp.parse(call.args[0]))
        return .done
    }

    // The volume, in percent (0 to 100): set, changed by a delta, read.

    static func handleSetvol(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let v = try Arguments.integer(call.args[0])
        guard (0...100).contains(v) else { throw ProtocolError(.argument, "Number too large: \(call.args[0])") }
        s.controller.setVolume(v)
        return .done
    }

    static func handleVolume(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let delta = try Arguments.integer(call.args[0])
        guard (-100...100).contains(delta) else { throw ProtocolError(.argument, "Number too large: \(call.args[0])") }
        s.controller.changeVolume(by: delta)
        return .done
    }

    static func handleGetvol(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        call.reply.field("volume", s.controller.volume)
        return .done
    }

    /// Answers once the song just started is audible (or failed, or a short
    /// time passed), as mpd answers only after its decoder has started.
    private static func awaitAudible(_ c: PlayerController, _ call: CommandCall) -> CommandOutcome {
        c.whenAudible { call.finish(nil) }
        return .pending
    }
}
