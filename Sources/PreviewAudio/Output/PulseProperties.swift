import CPulse
import PreviewCore

// What PulseAudio is told about previewd and the song playing, for the
// sound server's volume controls (pavucontrol, desktop applets).
extension StreamInfo {
    /// The client's properties (PA_PROP_APPLICATION_NAME, _ICON_NAME).
    static let pulseClientProperties = [
        ("application.name", "previewd"),
        ("application.icon_name", "multimedia-audio-player"),
    ]

    /// The stream's properties for this song (PA_PROP_MEDIA_NAME, _ROLE,
    /// _ARTIST, _TITLE): "Artist – Title" as its name, or "previewd".
    var pulseProperties: [(String, String)] {
        var props = [("media.name", mediaName ?? "previewd"), ("media.role", "music")]
        if let artist { props.append(("media.artist", artist)) }
        if let title { props.append(("media.title", title)) }
        return props
    }

    /// The keys this song has no value for, to remove from the stream so
    /// that the last song's artist or title does not stay on it.
    var pulseKeysUnset: [String] {
        [artist == nil ? "media.artist" : nil, title == nil ? "media.title" : nil].compactMap { $0 }
    }
}

/// Calls `body` with a pa_proplist holding `pairs` (pa_proplist_new and
/// pa_proplist_sets), freed after it: the calls it is for copy it.
func withProplist<R>(_ pairs: [(String, String)], _ body: (OpaquePointer) -> R) -> R {
    let list = pa_proplist_new()!
    defer { pa_proplist_free(list) }
    for (key, value) in pairs { pa_proplist_sets(list, key, value) }
    return body(list)
}
