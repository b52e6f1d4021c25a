import PreviewCore
import PreviewFetch

// Where the decode thread's stream gets its bytes: the playing download
// or a ring of its own, and for a ring stream cut short, the rest of the
// body by Range.
extension Engine {
    /// Where a stream's bytes come from and the transfer fetching them.
    struct Feed {
        /// What the decoder reads: the download's reader or the stream's ring.
        var input: StreamInput
        /// The transfer this stream owns (ring streams); downloads own theirs.
        var transfer: Transfer?
        /// The download played from; nil for a ring stream (and after a
        /// ranged seek, which leaves it).
        var download: Download?
        /// The body offset of the input's first byte (a Range fetch's start).
        var base = 0
    }

    /// Sets up the input for `request`: its kept download (started now if
    /// missing or failed), or a fresh ring and transfer. Call locked, in the
    /// same turn that takes `pending`, so a `play` cancels the right input.
    func openFeed(_ request: Request) -> Feed {
        playingDownload?.setPlaying(false)
        playingDownload?.setCutHandler(nil)
        playingDownload = nil
        currentStream = request.id
        interruptFlag.store(false, ordering: .releasing)
        resumeURL = nil
        // A direct URL's body is kept only when prefetched whole: a radio
        // read into memory would fail at the size limit.
        guard let key = request.key, !request.info.mayBeEndless || downloads[key]?.isComplete == true else {
            let ring = ByteRing(capacity: ringCapacity)
            currentInput = ring
            return Feed(input: ring, transfer: Transfer(url: request.url, sink: .ring(ring)), download: nil)
        }
        var fresh: Transfer?
        let download: Download
        if let d = downloads[key], !d.hasFailed {
            download = d
        } else {
            download = Download(key: key, budget: budget)
            let t = Transfer(url: request.url, sink: .download(download))
            download.transfer = t
            watchEnd(of: download)
            downloads[key] = download
            fresh = t
        }
        download.setPlaying(true)
        let id = request.id
        download.setCutHandler { [weak self] failure, bytes in self?.events?(.streamCut(id, failure, bytes: bytes)) }
        playingDownload = download
        let reader = DownloadReader(download)
        currentInput = reader
        if let fresh { startTransfer(fresh) }
        return Feed(input: reader, transfer: nil, download: download)
    }

    /// Fetches the rest of a cut ring stream's body from `url`, from the
    /// first byte not yet received.
    func restart(_ feed: inout Feed, url: String) {
        let from = feed.base + feed.input.received
        if case .ring(let ring)? = feed.transfer?.sink {
            ring.reopen()
            if let old = feed.transfer { stopTransfer(old) }
            let t = Transfer(url: url, sink: .ring(ring), rangeStart: from)
            feed.transfer = t
            startTransfer(t)
        }
    }

    /// Blocks until `resume(stream: id, ...)` names a URL, or the stream is
    /// abandoned (nil).
    func awaitResume(_ id: StreamID, input: StreamInput) -> String? {
        monitor.locked {
            while resumeURL?.id != id && !input.isCancelled && !stopping { monitor.wait(seconds: 1) }
            guard !input.isCancelled, !stopping, let url = resumeURL?.url else { return nil }
            resumeURL = nil
            return url
        }
    }
}
