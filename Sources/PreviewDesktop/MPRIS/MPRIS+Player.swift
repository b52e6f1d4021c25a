import PreviewCore
import PreviewDBus

extension MPRISAdapter {
    /// `org.mpris.MediaPlayer2.Player`'s methods, each the operation of
    /// the MPD command named beside it. A refusal the protocol would ACK
    /// becomes `org.freedesktop.DBus.Error.Failed` with the ACK's text.
    func player(_ member: String, _ args: [DBusValue]) -> DBusReply {
        do throws(ProtocolError) {
            switch member {
            case "Play": try play()
            case "Pause": pause()
            case "PlayPause": try controller.playPause()
            case "Stop": controller.stop()
            case "Next": try skip(forward: true)
            case "Previous": try skip(forward: false)
            case "Seek":
                guard args.count == 1, let offset = args[0].number else { return .invalidArguments("Seek takes an offset in µs") }
                try seek(by: offset / 1_000_000)
            case "SetPosition":
                guard args.count == 2, let track = args[0].text, let at = args[1].number else {
                    return .invalidArguments("SetPosition takes a track id and a position in µs")
                }
                try setPosition(track: track, seconds: at / 1_000_000)
            case "OpenUri":
                guard args.count == 1, let uri = args[0].text else { return .invalidArguments("OpenUri takes a URI") }
                return open(uri)
            default:
                return .unhandled
            }
        } catch {
            return .failed(error.message)
        }
        return .values([])
    }

    /// `play`: resumes a pause, or starts the current (else the first) song.
    private func play() throws(ProtocolError) {
        try controller.play(position: nil)
    }

    /// `pause 1`.
    private func pause() {
        controller.pause(true)
    }

    /// `next` or `previous`, which do nothing while stopped (CanGoNext is false then).
    private func skip(forward: Bool) throws(ProtocolError) {
        guard controller.state != .stop else { return }
        if forward { try controller.next() } else { try controller.previous() }
    }

    /// `seekcur +/-S`; past the end is `Next` and before the start is the
    /// start, as the spec says.
    private func seek(by seconds: Double) throws(ProtocolError) {
        guard controller.state != .stop else { return }
        try controller.seekCurrent(by: seconds, pastEnd: .next)
    }

    /// `seekid`, for the current song only: the spec ignores a stale track
    /// id (the song changed meanwhile) and a position outside the song.
    private func setPosition(track: String, seconds: Double) throws(ProtocolError) {
        guard controller.state != .stop, let id = controller.currentID, MPRIS.trackID(id) == track,
            let entry = controller.queuedSong(withID: id), seconds >= 0
        else { return }
        if let duration = entry.song.duration, seconds > duration { return }
        try controller.seekCurrent(to: seconds)
    }

    /// `addid URI` then `playid`: what `add` takes (deezer: URIs, web and
    /// share links, stream URLs). A URI `add` would refuse at once is
    /// refused here; one that fails later (a track the catalog does not
    /// have) is logged, as the call has already returned.
    private func open(_ uri: String) -> DBusReply {
        if !ShareLink.isShareLink(uri) {
            do { _ = try CatalogURI(parsing: uri) } catch { return .failed(error.message) }
        }
        let controller = self.controller
        let log = self.log
        controller.add(uri: uri, position: nil) { result in
            switch result {
            case .failure(let error): log.warning("MPRIS: OpenUri \(uri): \(error.message)")
            case .success(let ids):
                guard let first = ids.first else { return }
                do throws(ProtocolError) {
                    try controller.play(id: first)
                } catch {
                    log.warning("MPRIS: OpenUri \(uri): \(error.message)")
                }
            }
        }
        return .values([])
    }
}
