import PreviewCore

extension Reply {
    /// A song as MPD lists it in `playlistinfo`/`currentsong`.
    mutating func song(_ entry: QueuedSong, position: Int) {
        field("file", entry.song.uri)
        if let artist = entry.song.artist { field("Artist", artist) }
        if let title = entry.song.title { field("Title", title) }
        if let album = entry.song.album { field("Album", album) }
        if let duration = entry.song.duration {
            field("Time", Int(duration.rounded()))
            field("duration", formatSeconds(duration))
        }
        if entry.priority > 0 { field("Prio", Int(entry.priority)) }
        field("Pos", position)
        field("Id", Int(entry.id))
    }
}
