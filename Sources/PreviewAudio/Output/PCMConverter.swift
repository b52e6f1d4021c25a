import CSoxr
import PreviewCore

/// Converts interleaved s16 PCM of the decoder's rate and channels (1 or 2)
/// to one fixed format, for outputs that need one whatever the song (the
/// HTTP stream's encoders, a FIFO read as `44100:16:2`). The rate goes
/// through libsoxr (`soxr_create`, `soxr_process`; high quality, TPDF
/// dither on the 16-bit result) rather than a resampler of our own; mono
/// is duplicated to both channels, stereo to mono is the rounded mean.
/// When the rates and channels agree the samples pass through untouched
/// (bit-exact). Not thread-safe: one thread feeds it.
final class PCMConverter {
    /// What `convert` takes.
    let input: AudioFormat
    /// What `convert` gives.
    let output: AudioFormat
    /// nil when the rates agree: no resampler, the samples are only remapped.
    private var soxr: soxr_t?
    /// The resampler's output, in the input's channels (grown as needed).
    private var resampled: [Int16] = []
    /// The result in the output's channels (grown as needed).
    private var mapped: [Int16] = []

    /// - Parameters: input: the decoder's format; output: the one wanted.
    /// - Throws: `StreamFailure.output` for a channel count other than 1
    ///   or 2, a rate outside 1...768,000 Hz, or `soxr_create`'s error.
    init(from input: AudioFormat, to output: AudioFormat = AudioFormat(sampleRate: 44100, channels: 2)) throws(StreamFailure) {
        for format in [input, output] {
            guard (1...2).contains(format.channels), (1...768_000).contains(format.sampleRate) else {
                throw .output("cannot convert PCM from \(input) to \(output)")
            }
        }
        self.input = input
        self.output = output
        guard input.sampleRate != output.sampleRate else { return }
        var io = soxr_io_spec(SOXR_INT16_I, SOXR_INT16_I)
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        var error: soxr_error_t?
        soxr = soxr_create(
            Double(input.sampleRate), Double(output.sampleRate), UInt32(input.channels),
            &error, &io, &quality, nil)
        guard soxr != nil, error == nil else {
            throw .output("cannot resample \(input) to \(output): \(error.map { String(cString: $0) } ?? "soxr_create failed")")
        }
    }

    deinit { soxr_delete(soxr) }

    /// Converts `pcm` (whole frames of s16 in `input`) and hands the result
    /// to `body` (interleaved s16 in `output`; it may be empty, as the
    /// resampler keeps a few milliseconds back, and is valid only during
    /// the call).
    func convert(_ pcm: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<Int16>) -> Void) {
        let samples = pcm.bindMemory(to: Int16.self)
        guard let soxr else {
            remap(samples, body)
            return
        }
        let frames = samples.count / input.channels
        var done = 0
        repeat {
            var taken = 0
            let made = process(soxr, samples.baseAddress.map { $0 + done * input.channels }, frames - done, &taken)
            done += taken
            resampled.withUnsafeBufferPointer { remap(UnsafeBufferPointer(rebasing: $0[0..<made * input.channels]), body) }
            if taken == 0, made == 0 { break }
        } while done < frames
    }

    /// Ends the input: hands the resampler's last output to `body` (a song
    /// whose successor has another format), then starts afresh.
    func flush(_ body: (UnsafeBufferPointer<Int16>) -> Void) {
        guard let soxr else { return }
        var taken = 0
        while true {
            let made = process(soxr, nil, 0, &taken)
            guard made > 0 else { break }
            resampled.withUnsafeBufferPointer { remap(UnsafeBufferPointer(rebasing: $0[0..<made * input.channels]), body) }
        }
        soxr_clear(soxr)
    }

    /// Forgets the input held back (a skip: it belongs to the song left).
    func reset() {
        if let soxr { soxr_clear(soxr) }
    }

    /// One `soxr_process` call into `resampled`: `frames` input frames at
    /// `samples` (nil: the input ended).
    /// - Returns: output frames made; `taken` is set to input frames used.
    private func process(_ soxr: soxr_t, _ samples: UnsafePointer<Int16>?, _ frames: Int, _ taken: inout Int) -> Int {
        // The ratio's worth and a margin: soxr makes no more than it has room for.
        let room = frames * output.sampleRate / input.sampleRate + 1024
        if resampled.count < room * input.channels { resampled = [Int16](repeating: 0, count: room * input.channels) }
        var used = 0
        var made = 0
        resampled.withUnsafeMutableBufferPointer { out in
            _ = soxr_process(soxr, samples, frames, &used, out.baseAddress, room, &made)
        }
        taken = used
        return made
    }

    /// Hands `samples` (in the input's channels, the output's rate) to
    /// `body` in the output's channels.
    private func remap(_ samples: UnsafeBufferPointer<Int16>, _ body: (UnsafeBufferPointer<Int16>) -> Void) {
        guard input.channels != output.channels else {
            body(samples)
            return
        }
        let frames = samples.count / input.channels
        if mapped.count < frames * output.channels { mapped = [Int16](repeating: 0, count: frames * output.channels) }
        mapped.withUnsafeMutableBufferPointer { out in
            if input.channels == 1 {
                for i in 0..<frames {
                    out[2 * i] = samples[i]
                    out[2 * i + 1] = samples[i]
                }
            } else {
                for i in 0..<frames { out[i] = Int16((Int32(samples[2 * i]) + Int32(samples[2 * i + 1]) + 1) >> 1) }
            }
        }
        mapped.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<frames * output.channels])) }
    }
}
