import PreviewCore
import PreviewPlayback

extension Commands {
    // Status, statistics, outputs and replay gain.

    /// `status`, keys in mpd 0.23's order: the same bytes for every connection,
    /// made once per change or clock tick (`StatusCache`), so a status bar's poll
    /// costs no formatting.
    static func statusReply(_ s: Services) -> () -> [UInt8] {
        let (c, cache) = (s.controller, s.statusCache)
        return { cache.reply(for: c.statusKey) { status(c, &$0) } }
    }

    static func handleCurrentsong(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        if let id = c.currentID, let pos = c.position(of: id) {
            call.reply.song(c.queuedSongs[pos], position: pos, tags: call.session.tags)
        }
        return .done
    }

    static func handleStats(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        call.reply.field("uptime", Int(clamping: c.uptime, rounding: .down))
        call.reply.field("playtime", Int(clamping: c.totalPlayTime, rounding: .down))
        // The database is the Library (Library.Summary says what counts).
        let library = s.library.summary
        call.reply.field("artists", library.artists)
        call.reply.field("albums", library.albums)
        call.reply.field("songs", library.songs)
        call.reply.field("db_playtime", library.playtime)
        // Not before the first save: Cantata takes `db_update: 0` for a
        // database still being built and waits for ever.
        if s.library.lastChange > 0 { call.reply.field("db_update", s.library.lastChange) }
        return .done
    }

    static func handleClearerror(_: CommandCall, _ s: Services) throws -> CommandOutcome {
        s.controller.clearError()
        return .done
    }

    static func handleOutputs(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        for (id, output) in s.controller.outputs.enumerated() {
            call.reply.field("outputid", id)
            call.reply.field("outputname", output.name)
            call.reply.field("plugin", output.plugin)
            call.reply.field("outputenabled", output.enabled ? 1 : 0)
            // mpd's `attribute: NAME=VALUE` lines: where an HTTP stream is
            // listened to (previewweb's "Play on this device" reads it).
            if let address = s.controller.listeningAddress(ofOutput: id) { call.reply.field("attribute", "stream=" + address) }
        }
        return .done
    }

    /// `enableoutput ID`, `disableoutput ID`, `toggleoutput ID`: output ID's
    /// new state from its old one (`enabled`).
    static func handleOutputChange(_ call: CommandCall, _ s: Services, enabled: (Bool) -> Bool) throws -> CommandOutcome {
        try s.controller.setOutput(try Arguments.unsigned(call.args[0]), enabled: enabled)
        return .done
    }

    /// `outputset ID NAME VALUE`: previewd's outputs have no runtime
    /// attributes (mpd's `dop`, `allowed_formats`), so a known output
    /// answers as mpd's null output does.
    static func handleOutputset(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let id = try Arguments.unsigned(call.args[0])
        guard s.controller.outputs.indices.contains(id) else { throw ProtocolError(.noExist, "No such audio output") }
        throw ProtocolError(.argument, "Unsupported attribute")
    }

    static func handleReplayGainMode(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        guard let mode = ReplayGainMode(rawValue: call.args[0]) else {
            throw ProtocolError(.argument, "Unrecognized replay gain mode")
        }
        s.controller.setReplayGainMode(mode)
        return .done
    }

    static func handleReplayGainStatus(_ call: CommandCall, _ s: Services) throws -> CommandOutcome {
        let c = s.controller
        call.reply.field("replay_gain_mode", c.replayGainMode)
        replayGain(c, &call.reply)
        return .done
    }

    /// The replay gain of the song playing, in dB, and where it came from
    /// (`track`, `album`, `deezer`, `none`): only while one plays and the
    /// mode is not off (mpd has no such lines; clients skip unknown keys).
    static func replayGain(_ c: PlayerController, _ r: inout Reply) {
        guard c.replayGainSetting != .off, c.state != .stop, c.hasStream else { return }
        let gain = c.replayGain
        r.field("replay_gain_db", formatDecibels(gain.decibels))
        r.field("replay_gain_source", gain.source.rawValue)
    }

    /// dB with two decimals, as "-5.62" or "0.00".
    static func formatDecibels(_ db: Double) -> String {
        let hundredths = Int(clamping: db * 100, rounding: .toNearestOrAwayFromZero)
        let sign = hundredths < 0 ? "-" : ""
        let a = abs(hundredths)
        return "\(sign)\(a / 100).\(a % 100 < 10 ? "0" : "")\(a % 100)"
    }

    /// The `status` reply, keys in mpd 0.23's order.
    static func status(_ c: PlayerController, _ r: inout Reply) {
        let modes = c.modes
        r.field("volume", c.volume)
        r.field("repeat", modes.repeat ? 1 : 0)
        r.field("random", modes.random ? 1 : 0)
        r.field("single", modes.single.rawValue)
        r.field("consume", modes.consume ? 1 : 0)
        // previewd's own mode; MPD clients pass over a line they do not know.
        r.field("autoplay", c.autoplayOn ? 1 : 0)
        r.field("partition", "default")
        r.field("playlist", Int(c.queueVersion))
        r.field("playlistlength", c.queueLength)
        r.field("mixrampdb", MixRamp.format(c.mixRamp.decibels))
        r.field("state", c.state.rawValue)
        // mpd shows xfade and mixrampdelay only while they are on, after the state.
        if c.crossfadeSeconds > 0 { r.field("xfade", c.crossfadeSeconds) }
        if c.mixRamp.delayIsOn { r.field("mixrampdelay", MixRamp.format(c.mixRamp.delaySeconds)) }
        if let id = c.currentID, let pos = c.position(of: id) {
            r.field("song", pos)
            r.field("songid", Int(id))
            if c.state != .stop {
                let elapsed = c.elapsed
                let duration = c.queuedSongs[pos].song.duration
                r.field("time", "\(Int(clamping: elapsed)):\(Int(clamping: duration ?? 0))")
                r.field("elapsed", formatSeconds(elapsed))
                r.field("bitrate", c.currentBitrate)
                if let duration { r.field("duration", formatSeconds(duration)) }
                if let format = c.currentFormat { r.field("audio", format.description) }
            }
        }
        replayGain(c, &r)
        if let job = c.updatingJob { r.field("updating_db", job) }
        if let error = c.statusError { r.field("error", error) }
        if let next = c.nextSongID, let pos = c.position(of: next) {
            r.field("nextsong", pos)
            r.field("nextsongid", Int(next))
        }
    }
}
