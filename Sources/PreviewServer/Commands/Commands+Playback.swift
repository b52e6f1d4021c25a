import PreviewCore
import PreviewPlayback

extension Commands {
    /// Starting, pausing, stopping and skipping. Those that start a song
    /// answer once it is audible (see `awaitAudible`), except `next` and
    /// `previous`, which answer at once, as mpd does: a key held down sends
    /// them faster than a song starts, and a reply that waited for each
    /// song would make every one of them open (the key-repeat rule,
    /// `PlayerController.prefetchCandidates`).
    static func registerPlayControl(_ t: inout CommandTable, _ s: Services) {
        let c = s.controller
        t.register("play", 0, 1) { call throws(ProtocolError) in
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
        t.register("playid", 0, 1) { call throws(ProtocolError) in
            var id: SongID?
            if let arg = call.args.first {
                let n = try Arguments.integer(arg)
                guard n >= -1 else { throw ProtocolError(.noExist, "No such song") }
                if n >= 0 { id = SongID(n) }
            }
            try c.play(id: id)
            return awaitAudible(c, call)
        }
        t.register("pause", 0, 1) { call throws(ProtocolError) in
            let paused = try call.args.first.map { (a) throws(ProtocolError) in try Arguments.boolean(a) }
            c.pause(paused)
            return .done
        }
        t.register("stop", 0, 0) { _ in
            c.stop()
            return .done
        }
        t.register("next", 0, 0) { _ throws(ProtocolError) in
            try c.next()
            return .done
        }
        t.register("previous", 0, 0) { _ throws(ProtocolError) in
            try c.previous()
            return .done
        }
    }

    /// Seeking in a song by queue position, by id, or in the current song
    /// (`seekcur`, also relative with `+`/`-`); seconds as `seconds` takes them.
    static func registerSeeking(_ t: inout CommandTable, _ s: Services) {
        let c = s.controller
        t.register("seek", 2, 2) { call throws(ProtocolError) in
            let id = try c.songID(at: try Arguments.unsigned(call.args[0]))
            try c.seek(id: id, to: try seconds(call.args[1]))
            return awaitAudible(c, call)
        }
        t.register("seekid", 2, 2) { call throws(ProtocolError) in
            try c.seek(id: try songID(call.args[0]), to: try seconds(call.args[1]))
            return awaitAudible(c, call)
        }
        t.register("seekcur", 1, 1) { call throws(ProtocolError) in
            try c.requirePlaying()
            let text = call.args[0]
            if text.hasPrefix("+") || text.hasPrefix("-") {
                try c.seekCurrent(by: (text.hasPrefix("-") ? -1 : 1) * (try seconds(String(text.dropFirst()))))
            } else {
                try c.seekCurrent(to: try seconds(text))
            }
            return awaitAudible(c, call)
        }
    }

    /// The playback modes: random, repeat, consume, single, and crossfade
    /// (0, gapless, up to `Crossfade.maxSeconds`).
    static func registerPlaybackModes(_ t: inout CommandTable, _ s: Services) {
        let c = s.controller
        t.register("random", 1, 1) { call throws(ProtocolError) in
            let on = try Arguments.boolean(call.args[0])
            c.setRandom(on)
            return .done
        }
        t.register("repeat", 1, 1) { call throws(ProtocolError) in
            let on = try Arguments.boolean(call.args[0])
            c.setRepeat(on)
            return .done
        }
        t.register("consume", 1, 1) { call throws(ProtocolError) in
            let on = try Arguments.boolean(call.args[0])
            c.setConsume(on)
            return .done
        }
        t.register("single", 1, 1) { call throws(ProtocolError) in
            guard let mode = SingleMode(rawValue: call.args[0]) else {
                throw ProtocolError(.argument, "Unrecognized single mode, expected 0, 1, or oneshot")
            }
            c.setSingle(mode)
            return .done
        }
        t.register("crossfade", 1, 1) { call throws(ProtocolError) in
            let seconds = try Arguments.unsigned(call.args[0])
            guard seconds <= Crossfade.maxSeconds else {
                throw ProtocolError(.argument, "Crossfade too long: at most \(Crossfade.maxSeconds) s for 30-second previews")
            }
            c.setCrossfade(seconds)
            return .done
        }
    }

    /// The volume, in percent (0 to 100): set, changed by a delta, read.
    static func registerVolume(_ t: inout CommandTable, _ s: Services) {
        let c = s.controller
        t.register("setvol", 1, 1) { call throws(ProtocolError) in
            let v = try Arguments.integer(call.args[0])
            guard (0...100).contains(v) else { throw ProtocolError(.argument, "Number too large: \(call.args[0])") }
            c.setVolume(v)
            return .done
        }
        t.register("volume", 1, 1) { call throws(ProtocolError) in
            let delta = try Arguments.integer(call.args[0])
            guard (-100...100).contains(delta) else { throw ProtocolError(.argument, "Number too large: \(call.args[0])") }
            c.changeVolume(by: delta)
            return .done
        }
        t.register("getvol", 0, 0) { call in
            call.reply.field("volume", c.volume)
            return .done
        }
    }

    /// Answers once the song just started is audible (or failed, or a short
    /// time passed), as mpd answers only after its decoder has started.
    private static func awaitAudible(_ c: PlayerController, _ call: CommandCall) -> CommandOutcome {
        c.whenAudible { call.finish(nil) }
        return .pending
    }
}
