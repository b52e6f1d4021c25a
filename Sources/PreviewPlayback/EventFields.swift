import PreviewCore

extension PlayerController {
    /// The fields of an `events` record: the state now, for a status bar
    /// (`PlayerEvent` formats them for clients and hooks).
    package func eventFields() -> [PlayerEvent.Field] {
        typealias F = PlayerEvent.Field
        var out = [F("state", player.state.rawValue)]
        if let id = player.current, let pos = queue.position(of: id), let song = queue.song(withID: id)?.song {
            out += [F("position", "\(pos + 1)"), F("songid", "\(id)")]
            out.append(F("length", "\(queue.count)"))
            out.append(F("volume", "\(volume)"))
            out.append(F("file", song.uri))
            if let t = song.title { out.append(F("title", t)) }
            if let a = song.artist { out.append(F("artist", a)) }
            if let a = song.album { out.append(F("album", a)) }
            out.append(F("elapsed", formatSeconds(elapsed)))
            if let d = song.duration { out.append(F("duration", formatSeconds(d))) }
        } else {
            out += [F("length", "\(queue.count)"), F("volume", "\(volume)")]
        }
        if autoplay.on { out.append(F("autoplay", "1")) }
        if let statusError { out.append(F("error", statusError)) }
        return out
    }
}
