import PreviewCore

/// The MPD commands previewd implements, wired to the player controller.
/// Replies follow MPD's `doc/protocol.rst`; error texts match mpd 0.23's.
enum Commands {
    /// Builds the table. `controller` is the one queue/player owner.
    static func table(controller c: PlayerController) -> CommandTable {
        var t = CommandTable()

        // MARK: connection
        t.register("ping", 0, 0) { _ in .done }
        t.register("close", 0, nil) { _ in .close }
        t.register("idle", 0, nil) { call throws(ProtocolError) in
            var mask: Subsystems = []
            for name in call.args { mask.insert(try Subsystems(name: name)) }
            return .idle(mask.isEmpty ? .all : mask)
        }
        t.register("commands", 0, 0) { [names = commandNames] call in
            for name in names { call.reply.field("command", name) }
            return .done
        }
        t.register("notcommands", 0, 0) { _ in .done }
        t.register("tagtypes", 0, nil) { call in
            if call.args.isEmpty { for tag in ["Artist", "Album", "Title"] { call.reply.field("tagtype", tag) } }
            return .done
        }
        t.register("urlhandlers", 0, 0) { call in
            for h in ["deezer:", "http://", "https://"] { call.reply.field("handler", h) }
            return .done
        }
        t.register("decoders", 0, 0) { call in
            call.reply.field("plugin", "mpg123")
            call.reply.field("suffix", "mp3")
            call.reply.field("mime_type", "audio/mpeg")
            return .done
        }
        t.register("outputs", 0, 0) { call in
            call.reply.field("outputid", 0)
            call.reply.field("outputname", "previewd")
            call.reply.field("plugin", "previewd")
            call.reply.field("outputenabled", 1)
            return .done
        }

        // MARK: status
        t.register("status", 0, 0) { call in
            status(c, &call.reply)
            return .done
        }
        t.register("currentsong", 0, 0) { call in
            if let id = c.player.current, let pos = c.queue.position(of: id) {
                call.reply.song(c.queue.songs[pos], position: pos)
            }
            return .done
        }
        t.register("stats", 0, 0) { call in
            call.reply.field("uptime", Int(monotonicTime() - c.startTime))
            call.reply.field("playtime", Int(c.totalPlayTime))
            call.reply.field("artists", 0)
            call.reply.field("albums", 0)
            call.reply.field("songs", 0)
            call.reply.field("db_playtime", 0)
            return .done
        }
        t.register("clearerror", 0, 0) { _ in
            c.clearError()
            return .done
        }

        // MARK: queue
        t.register("add", 1, 2) { call throws(ProtocolError) in
            let position = try call.args.count > 1 ? Arguments.position(call.args[1]) : nil
            c.add(uri: call.args[0], position: position) { result in
                if case .failure(let e) = result { call.finish(e) } else { call.finish(nil) }
            }
            return .pending
        }
        t.register("addid", 1, 2) { call throws(ProtocolError) in
            let position = try call.args.count > 1 ? Arguments.position(call.args[1]) : nil
            c.add(uri: call.args[0], position: position) { result in
                switch result {
                case .failure(let e): call.finish(e)
                case .success(let ids):
                    for id in ids { call.reply.field("Id", Int(id)) }
                    call.finish(nil)
                }
            }
            return .pending
        }
        t.register("delete", 1, 1) { call throws(ProtocolError) in
            try c.delete(positions: try Arguments.range(call.args[0]))
            return .done
        }
        t.register("deleteid", 1, 1) { call throws(ProtocolError) in
            try c.delete(id: try songID(call.args[0]))
            return .done
        }
        t.register("clear", 0, 0) { _ in
            c.clear()
            return .done
        }
        t.register("move", 2, 2) { call throws(ProtocolError) in
            let range = try Arguments.range(call.args[0])
            let to = try moveTarget(c, call.args[1])
            try c.move(positions: range, to: to)
            return .done
        }
        t.register("moveid", 2, 2) { call throws(ProtocolError) in
            guard let from = c.queue.position(of: try songID(call.args[0])) else { throw ProtocolError(.noExist, "No such song") }
            let to = try moveTarget(c, call.args[1])
            try c.move(positions: from..<(from + 1), to: to)
            return .done
        }
        t.register("shuffle", 0, 1) { call throws(ProtocolError) in
            try c.shuffle(positions: call.args.isEmpty ? nil : try Arguments.range(call.args[0]))
            return .done
        }
        t.register("playlistinfo", 0, 1) { call throws(ProtocolError) in
            var range = 0..<c.queue.count
            if let arg = call.args.first, arg != "-1" {
                range = try rangeArgument(arg, in: c.queue)
            }
            for pos in range { call.reply.song(c.queue.songs[pos], position: pos) }
            return .done
        }
        t.register("playlistid", 0, 1) { call throws(ProtocolError) in
            if let arg = call.args.first {
                let id = try songID(arg)
                guard let pos = c.queue.position(of: id) else { throw ProtocolError(.noExist, "No such song") }
                call.reply.song(c.queue.songs[pos], position: pos)
            } else {
                for (pos, entry) in c.queue.songs.enumerated() { call.reply.song(entry, position: pos) }
            }
            return .done
        }
        t.register("playlist", 0, 0) { call in
            for (pos, entry) in c.queue.songs.enumerated() { call.reply.append(raw: "\(pos):file: \(entry.song.uri)\n") }
            return .done
        }
        // Songs are not versioned one by one yet: a client behind the
        // current version gets the whole queue, which is always correct.
        t.register("plchanges", 1, 2) { call throws(ProtocolError) in
            let since = try Arguments.integer(call.args[0])
            if since != Int(c.queue.version) {
                for (pos, entry) in c.queue.songs.enumerated() { call.reply.song(entry, position: pos) }
            }
            return .done
        }
        t.register("plchangesposid", 1, 2) { call throws(ProtocolError) in
            let since = try Arguments.integer(call.args[0])
            if since != Int(c.queue.version) {
                for (pos, entry) in c.queue.songs.enumerated() {
                    call.reply.field("cpos", pos)
                    call.reply.field("Id", Int(entry.id))
                }
            }
            return .done
        }

        // MARK: playback
        t.register("play", 0, 1) { call throws(ProtocolError) in
            var position: Int?
            if let arg = call.args.first {
                let p = try Arguments.integer(arg)
                if p >= 0 { position = p }
            }
            try c.run { (p: inout Player, q: Queue) throws(ProtocolError) in try p.play(position: position, in: q) }
            return .done
        }
        t.register("playid", 0, 1) { call throws(ProtocolError) in
            var id: SongID?
            if let arg = call.args.first {
                let n = try Arguments.integer(arg)
                if n >= 0 { id = SongID(truncatingIfNeeded: n) }
                if n > Int(UInt32.max) { throw ProtocolError(.noExist, "No such song") }
            }
            try c.run { (p: inout Player, q: Queue) throws(ProtocolError) in try p.play(id: id, in: q) }
            return .done
        }
        t.register("pause", 0, 1) { call throws(ProtocolError) in
            let paused = try call.args.first.map { (a) throws(ProtocolError) in try Arguments.boolean(a) }
            try c.run { (p: inout Player, q: Queue) in p.pause(paused, in: q) }
            return .done
        }
        t.register("stop", 0, 0) { _ throws(ProtocolError) in
            try c.run { (p: inout Player, _: Queue) in p.stop() }
            return .done
        }
        t.register("next", 0, 0) { _ throws(ProtocolError) in
            guard c.player.state != .stop else { throw ProtocolError(.playerSync, "Not playing") }
            try c.run { (p: inout Player, q: Queue) in p.next(in: q) }
            return .done
        }
        t.register("previous", 0, 0) { _ throws(ProtocolError) in
            guard c.player.state != .stop else { throw ProtocolError(.playerSync, "Not playing") }
            try c.run { (p: inout Player, q: Queue) in p.previous(in: q) }
            return .done
        }
        t.register("random", 1, 1) { call throws(ProtocolError) in
            let on = try Arguments.boolean(call.args[0])
            c.setModes { p, q in p.setRandom(on, in: q) }
            return .done
        }
        t.register("repeat", 1, 1) { call throws(ProtocolError) in
            let on = try Arguments.boolean(call.args[0])
            c.setModes { p, _ in p.setRepeat(on) }
            return .done
        }
        t.register("consume", 1, 1) { call throws(ProtocolError) in
            let on = try Arguments.boolean(call.args[0])
            c.setModes { p, _ in p.setConsume(on) }
            return .done
        }
        t.register("single", 1, 1) { call throws(ProtocolError) in
            guard let mode = SingleMode(rawValue: call.args[0]) else {
                throw ProtocolError(.argument, "Unrecognized single mode, expected 0, 1, or oneshot")
            }
            c.setModes { p, _ in p.setSingle(mode) }
            return .done
        }
        t.register("crossfade", 1, 1) { call throws(ProtocolError) in
            guard try Arguments.unsigned(call.args[0]) == 0 else {
                throw ProtocolError(.argument, "Crossfade is not supported: previews play gapless")
            }
            return .done
        }

        // MARK: volume
        t.register("setvol", 1, 1) { call throws(ProtocolError) in
            let v = try Arguments.integer(call.args[0])
            guard (0...100).contains(v) else { throw ProtocolError(.argument, "Number too large: \(call.args[0])") }
            c.setVolume(v)
            return .done
        }
        t.register("volume", 1, 1) { call throws(ProtocolError) in
            let delta = try Arguments.integer(call.args[0])
            guard (-100...100).contains(delta) else { throw ProtocolError(.argument, "Number too large: \(call.args[0])") }
            c.setVolume(max(0, min(100, c.volume + delta)))
            return .done
        }
        t.register("getvol", 0, 0) { call in
            call.reply.field("volume", c.volume)
            return .done
        }
        return t
    }

    /// Names listed by `commands` (the table's, plus the list markers clients look for).
    static let commandNames: [String] = {
        var names = ["add", "addid", "clear", "clearerror", "close", "command_list_begin", "command_list_end",
                     "command_list_ok_begin", "commands", "consume", "crossfade", "currentsong", "decoders",
                     "delete", "deleteid", "getvol", "idle", "move", "moveid", "next", "noidle", "notcommands",
                     "outputs", "pause", "ping", "play", "playid", "playlist", "playlistid", "playlistinfo",
                     "plchanges", "plchangesposid", "previous", "random", "repeat", "setvol", "shuffle", "single",
                     "stats", "status", "stop", "tagtypes", "urlhandlers", "volume"]
        names.sort()
        return names
    }()

    /// The `status` reply, keys in mpd 0.23's order.
    static func status(_ c: PlayerController, _ r: inout Reply) {
        let player = c.player
        let queue = c.queue
        r.field("volume", c.volume)
        r.field("repeat", player.modes.repeat ? 1 : 0)
        r.field("random", player.modes.random ? 1 : 0)
        r.field("single", player.modes.single.rawValue)
        r.field("consume", player.modes.consume ? 1 : 0)
        r.field("partition", "default")
        r.field("playlist", Int(queue.version))
        r.field("playlistlength", queue.count)
        r.field("mixrampdb", "0")
        r.field("state", player.state.rawValue)
        if let id = player.current, let pos = queue.position(of: id) {
            r.field("song", pos)
            r.field("songid", Int(id))
            if player.state != .stop {
                let elapsed = c.elapsed
                let duration = queue.songs[pos].song.duration
                r.field("time", "\(Int(elapsed.rounded())):\(Int((duration ?? 0).rounded()))")
                r.field("elapsed", formatSeconds(elapsed))
                r.field("bitrate", c.currentBitrate)
                if let duration { r.field("duration", formatSeconds(duration)) }
                if let format = c.currentFormat { r.field("audio", format.description) }
            }
        }
        if let error = c.lastError { r.field("error", error) }
        if let next = player.nextSong(in: queue), let pos = queue.position(of: next) {
            r.field("nextsong", pos)
            r.field("nextsongid", Int(next))
        }
    }

    private static func songID(_ text: String) throws(ProtocolError) -> SongID {
        let n = try Arguments.unsigned(text)
        guard n <= Int(UInt32.max) else { throw ProtocolError(.noExist, "No such song") }
        return SongID(n)
    }

    private static func moveTarget(_ c: PlayerController, _ text: String) throws(ProtocolError) -> Int {
        switch try Arguments.position(text) {
        case .absolute(let p): return p
        case let relative:
            guard let to = try c.resolve(relative) else { throw ProtocolError(.argument, "Bad song index") }
            return min(to, max(c.queue.count - 1, 0))
        }
    }

    private static func rangeArgument(_ text: String, in queue: Queue) throws(ProtocolError) -> Range<Int> {
        let range: Range<Int>
        do { range = try Arguments.range(text) } catch {
            if text.contains(":") {
                if error.message == "Bad range" { throw ProtocolError(.argument, "Malformed range: \(text)") }
                throw ProtocolError(.argument, "Integer or range expected: \(text)")
            }
            throw ProtocolError(.argument, "Integer or range expected: \(text)")
        }
        return try queue.clamp(range)
    }
}
