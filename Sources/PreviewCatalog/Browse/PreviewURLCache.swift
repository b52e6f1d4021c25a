import PreviewCore

/// Signed preview URLs by Deezer track id, reused while they stay valid
/// (docs/protocol.md, "Preview URLs"): a track resolved once (in an album listing, a search,
/// a prefetch) starts later without another API request.
///
/// Deezer signs each preview URL with an `exp=` Unix time; a URL within
/// `margin` seconds of it is not handed out, since a preview started on it
/// could be refused (403) halfway.
package final class PreviewURLCache {
    /// Seconds before its `exp=` time that a URL stops being handed out.
    static let margin = 60.0

    private var urls: [Int: String] = [:]
    /// Wall-clock seconds since the Unix epoch (injected for tests).
    private let wallClock: () -> Double

    /// - Parameter wallClock: the time `exp=` is compared with, Unix seconds.
    package init(wallClock: @escaping () -> Double) {
        self.wallClock = wallClock
    }

    /// Shown every track body remembered: all the catalog's track objects
    /// pass here (the replay gain keeps Deezer's `gain` from them).
    package var observer: ((DeezerTrack) -> Void)?

    /// Keeps the track's preview URL, when it has one.
    package func remember(_ track: DeezerTrack) {
        if let preview = track.preview, !preview.isEmpty { urls[track.id] = preview }
        observer?(track)
    }

    /// The track's known preview URL, unless it expires within `margin`.
    package func validURL(for trackID: Int) -> String? {
        guard let url = urls[trackID], !isExpiring(url) else { return nil }
        return url
    }

    /// Drops the track's URL (it was refused, or the track turned unplayable).
    package func forget(_ trackID: Int) { urls[trackID] = nil }

    /// Whether a signed URL expires within `margin` seconds (an unsigned one never does).
    func isExpiring(_ url: String) -> Bool {
        guard let exp = previewExpiry(of: url) else { return false }
        return Double(exp) - wallClock() < PreviewURLCache.margin
    }
}
