import PreviewCore

// The decode thread's body: it waits for the next step (a request to play,
// an output to let go or to empty, the shutdown), plays one stream at a
// time to its end or its crossfade into the next, and reports how it ended.
extension Engine {
    /// What the decode thread does next.
    enum NextStep {
        case play(Request, Feed)
        /// Let the output go after a `stop`: play out what it holds
        /// (the end of the queue's last song), then close it.
        case stopOutput
        /// Drop what the output holds (`dropBuffered`), first of all.
        case drop
        case exit
    }

    /// Waits for the next step; call locked.
    func nextStepLocked() -> NextStep {
        while pending == nil && !outputToStop && !stopping && !dropPending { monitor.wait() }
        if stopping { return .exit }
        if dropPending {
            dropPending = false
            return .drop
        }
        if let request = pending {
            pending = nil
            return .play(request, openFeed(request))
        }
        outputToStop = false
        return .stopOutput
    }

    /// A stream begins: the output that leads hears of it now, the others
    /// in order with their PCM (the clock and the idle outputs too, for
    /// the sound server's stream name when they lead next).
    private func songStarts(_ info: StreamInfo) {
        let lead = leader()
        lead.nowPlaying(info)
        for slot in slots where slot.output !== lead {
            if slot.branch.isActive { slot.branch.mark(.songStarts(info)) } else { slot.output.nowPlaying(info) }
        }
    }

    /// The decode thread's body: one request at a time, played to its end
    /// (or its crossfade into the next) and reported, until `shutdown`.
    func decodeLoop() {
        var handover: Handover?
        while true {
            var outcome: Outcome
            var feed: Feed
            let id: StreamID
            if var next = handover {
                // The crossfade's incoming stream plays on from its first
                // mixed frames; one not measured yet is first decoded whole
                // (its body is in memory) and measured, as any other.
                handover = nil
                (id, feed) = (next.request.id, next.feed)
                songStarts(next.request.info)
                outcome = playThrough(&next.pass, feed: &feed, plan: next.request.info.measure)
            } else {
                let step = monitor.locked { nextStepLocked() }
                let request: Request
                switch step {
                case .exit: return
                case .drop:
                    configuredOutput?.discard()
                    markFollowers(nil, discard: true)
                    continue
                case .stopOutput:
                    configuredOutput?.stopped()
                    markFollowers(.stopped)
                    configuredFormat = nil
                    continue
                case .play(let r, let opened): (request, feed) = (r, opened)
                }
                id = request.id
                if let t = feed.transfer { startTransfer(t) }
                songStarts(request.info)
                outcome = decode(request, feed: &feed)
            }
            if let t = feed.transfer { stopTransfer(t) }
            monitor.locked { if currentInput === feed.input { currentInput = nil } }
            switch outcome {
            case .finished(let frames):
                configuredOutput?.trackEnded()
                markFollowers(.trackEnded)
                events?(.streamFinished(id, frames: frames))
            case .failed(let failure, let frames):
                configuredOutput?.trackEnded()
                markFollowers(.trackEnded)
                events?(.streamFailed(id, failure, frames: frames))
            case .cancelled:
                configuredOutput?.discard()
                markFollowers(nil, discard: true)
            case .faded(let next):
                events?(.streamFaded(id, frames: next.fadedAt, into: next.request.id))
                handover = next
            }
        }
    }
}
