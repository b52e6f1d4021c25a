import PreviewCore
import Synchronization

/// One configured output: what it is, whether it is on, and the branch
/// that feeds it while another output sets the pace.
final class OutputSlot: Sendable {
    let kind: OutputKind
    let output: AudioOutput
    /// Written by `setOutputs` (any thread), read by the decode thread.
    let enabled = Atomic<Bool>(true)
    let branch: OutputBranch

    init(kind: OutputKind, output: AudioOutput, branch: OutputBranch) {
        self.kind = kind
        self.output = output
        self.branch = branch
    }
}

// The outputs as a set: made at start, which one sets the pace (leads),
// and the same PCM handed to every other enabled one (follows).
extension Engine {
    /// Frames handed to the output that sets the pace in one write, at
    /// most (46 ms at 44.1 kHz): what it took then goes to the others.
    static let maxWriteFrames = 2048

    /// Makes an output of each kind, each with its branch, and the clock.
    /// - Throws: `EngineError` when an output cannot be made at all (no
    ///   PulseAudio library context); a sound server not running yet is
    ///   reported as lost instead, and connected when there is something to play.
    func makeOutputs(_ kinds: [OutputKind]) throws {
        for (index, kind) in kinds.enumerated() {
            let output: AudioOutput
            switch kind {
            case .null: output = NullOutput(paced: paced)
            case .wav(let path): output = WavOutput(path: path, paced: paced)
            case .fifo(let path): output = FifoOutput(path: path)
            case .http(let host, let port):
                let log = self.log
                do {
                    let stream = try HTTPStreamOutput(
                        host: host, port: port, maxListeners: streamListeners,
                        credentials: streamCredentials
                    ) { log?($0) }
                    log?("HTTP stream on http://\(host):\(stream.port)/stream.mp3 and /stream.flac")
                    output = stream
                } catch {
                    throw EngineError("output \(kind.setting): \(error)")
                }
            case .pulse(let sink):
                let pulse: PulseOutput
                do { pulse = try PulseOutput(sink: sink) } catch { throw EngineError("\(error)") }
                output = pulse
                do { try pulse.connect() } catch { reportOutput(lost: error) }
            }
            let branch = OutputBranch(output) { [weak self] failure in
                self?.events?(.followerChanged(output: index, failed: failure.map { "\($0)" }))
            }
            slots.append(OutputSlot(kind: kind, output: output, branch: branch))
        }
        // With PulseAudio configured, the clock keeps real time even under
        // `--pace none`: turning the sound off must not race through songs.
        let hasPulse = kinds.contains { if case .pulse = $0 { return true } else { return false } }
        clock = NullOutput(paced: paced || hasPulse)
    }

    public func listeningAddress(ofOutput index: Int) -> String? {
        guard slots.indices.contains(index), case .http(let host, _) = slots[index].kind,
            let stream = slots[index].output as? HTTPStreamOutput
        else { return nil }
        return "http://\(host):\(stream.port)/"
    }

    /// The output that sets the pace: the first enabled device, else the clock.
    func leader() -> AudioOutput {
        for slot in slots where slot.kind.isDevice && slot.enabled.load(ordering: .acquiring) { return slot.output }
        return clock!
    }

    /// Hands the bytes the leader took to every other enabled output's
    /// branch (which drops what does not fit), and lets the branch of a
    /// turned-off output go. Decode thread.
    func feedFollowers(_ pcm: UnsafeRawBufferPointer, format: AudioFormat, leader: AudioOutput) {
        for slot in slots where slot.output !== leader {
            if slot.enabled.load(ordering: .acquiring) {
                if !pcm.isEmpty { slot.branch.push(pcm, format: format) }
            } else if slot.branch.isActive {
                slot.branch.suspend(release: true)
            }
        }
    }

    /// The leader changes to `next`: a follower that leads now stops being
    /// fed by its branch first (one writer at a time). Decode thread.
    func takeLead(_ next: AudioOutput) {
        for slot in slots where slot.output === next { slot.branch.suspend(release: false) }
    }

    /// Tells every follower of a song's start or end, of a discard or a
    /// stop, in order with its PCM. Decode thread.
    func markFollowers(_ item: OutputBranch.Item?, discard: Bool = false) {
        for slot in slots where slot.output !== configuredOutput {
            if discard { slot.branch.discard() }
            if let item { slot.branch.mark(item) }
        }
    }
}
