import PreviewCore
import PreviewFetch
import PreviewPlatform

// The decode thread's side of the outputs: which one it writes to, opening
// it for the stream's format, and riding out a sound server that went away.
extension Engine {
    /// Asked by the output's write while it waits for the device: a new
    /// stream, a pause or a switch of output ends the wait at once. It runs
    /// on the decode thread with the output's lock held, so it must not
    /// take `monitor`.
    private func isInterrupted() -> Bool {
        interruptFlag.load(ordering: .acquiring) || pausedFlag.load(ordering: .acquiring)
            || (configuredOutput != nil && selectedOutput() !== configuredOutput)
    }

    /// The output that sets the pace now (`leader`).
    func selectedOutput() -> AudioOutput { leader() }

    /// How a `write` ended: with `n` bytes taken, the output failed for good,
    /// or the stream was dropped while the output was being waited for.
    enum WriteOutcome {
        case wrote(Int)
        case failed(StreamFailure)
        case cancelled
    }

    /// Writes `chunk` to the output that sets the pace, opening it for
    /// `format` first when it is new or the format changed, and hands what
    /// it took to the other enabled outputs. A lost output that can come
    /// back (the sound server restarting) holds the stream's place, tries
    /// again with back-off, and the same samples go out once it is back.
    func write(_ chunk: UnsafeRawBufferPointer, format: AudioFormat, source: StreamInput) -> WriteOutcome {
        while true {
            let out = selectedOutput()
            do {
                if out !== configuredOutput || format != configuredFormat {
                    if let old = configuredOutput, old !== out { old.release() }
                    if out !== configuredOutput { takeLead(out) }
                    configuredOutput = nil
                    try out.configure(format)
                    configuredOutput = out
                    configuredFormat = format
                }
                let n = try out.write(chunk, interrupted: isInterrupted)
                reportOutput(lost: nil)
                feedFollowers(UnsafeRawBufferPointer(rebasing: chunk[..<n]), format: format, leader: out)
                return .wrote(n)
            } catch {
                guard out.canReconnect else { return .failed(error) }
                reportOutput(lost: error)
                configuredOutput = nil
                if !backOff(source) { return .cancelled }
            }
        }
    }

    /// Reports the output lost (with why) or back (nil), once per change.
    func reportOutput(lost failure: StreamFailure?) {
        if let failure {
            guard !outputLost else { return }
            outputLost = true
            reconnectDelay = 0
            let why: String
            if case .output(let text) = failure { why = text } else { why = "\(failure)" }
            events?(.outputChanged(lost: why))
        } else if outputLost {
            outputLost = false
            events?(.outputChanged(lost: nil))
        }
    }

    /// Waits before the next reconnection attempt: 0.1 s, doubling to at
    /// most 1 s so a restarted server is heard again within about a second.
    /// - Returns: false when the stream was dropped meanwhile.
    private func backOff(_ source: StreamInput) -> Bool {
        reconnectDelay = min(max(reconnectDelay * 2, 0.1), 1)
        let deadline = SystemClock.monotonicSeconds() + reconnectDelay
        return monitor.locked {
            while !source.isCancelled && !stopping {
                let left = deadline - SystemClock.monotonicSeconds()
                if left <= 0 { break }
                monitor.wait(seconds: left)
            }
            return !source.isCancelled && !stopping
        }
    }

    /// Blocks while paused. - Returns: true when the stream was cancelled meanwhile.
    func waitWhilePaused(_ source: StreamInput) -> Bool {
        if source.isCancelled { return true }
        guard pausedFlag.load(ordering: .acquiring) else { return false }
        return monitor.locked {
            while pausedFlag.load(ordering: .acquiring) && currentInput === source && !stopping && !source.isCancelled {
                // Every way out (resume, play, stop, shutdown) broadcasts: no timed wake-ups.
                monitor.wait()
            }
            return source.isCancelled || stopping
        }
    }
}
