import CFLAC
import CLame
import PreviewCore

/// An encoder for one of the HTTP stream's formats, fed 44,100 Hz stereo
/// s16. What it gives is whole frames only, so a listener may join
/// between any two results and decode from its first byte.
protocol StreamEncoder: AnyObject {
    /// What a listener needs before any frame (FLAC's `fLaC` and
    /// metadata); empty for MP3, whose frames stand alone.
    var header: [UInt8] { get }
    /// Encodes `samples` (interleaved stereo s16; whole frames).
    /// - Returns: the frames completed, possibly none (the encoder holds
    ///   back a block's worth of samples).
    func encode(_ samples: UnsafeBufferPointer<Int16>) -> [UInt8]
    /// Encodes what is held back and ends the stream.
    /// - Returns: the last frames.
    func finish() -> [UInt8]
}

/// MP3 by LAME (`lame_init`, `lame_encode_buffer_interleaved`,
/// `lame_encode_flush`): MPEG-1 Layer III, CBR 128 kbit/s, 44.1 kHz joint
/// stereo, LAME's quality 5 (its fast good setting), no Xing/LAME header
/// (a stream has no length to announce). LAME hands out bytes as its bit
/// reservoir allows, not frame by frame: `MP3FrameCutter` keeps the tail
/// of a frame for the next call.
final class MP3Encoder: StreamEncoder {
    /// The bitrate, in kbit/s: 16,000 bytes a second.
    static let kilobitsPerSecond = 128
    private let lame: lame_t
    private var out: [UInt8] = []
    private var cutter = MP3FrameCutter()
    let header: [UInt8] = []

    /// - Throws: `StreamFailure.output` when `lame_init` or `lame_init_params` fails.
    init() throws(StreamFailure) {
        guard let lame = lame_init() else { throw .output("lame_init failed") }
        lame_set_in_samplerate(lame, 44100)
        lame_set_out_samplerate(lame, 44100)
        lame_set_num_channels(lame, 2)
        lame_set_mode(lame, JOINT_STEREO)
        lame_set_brate(lame, Int32(MP3Encoder.kilobitsPerSecond))
        lame_set_VBR(lame, vbr_off)
        lame_set_quality(lame, 5)
        lame_set_bWriteVbrTag(lame, 0)
        guard lame_init_params(lame) >= 0 else {
            lame_close(lame)
            throw .output("lame_init_params refused CBR 128 kbit/s, 44.1 kHz stereo")
        }
        self.lame = lame
    }

    deinit { lame_close(lame) }

    func encode(_ samples: UnsafeBufferPointer<Int16>) -> [UInt8] {
        let frames = samples.count / 2
        // lame.h's bound for the worst case: 1.25 × samples + 7,200.
        let room = frames + frames / 4 + 7200
        if out.count < room { out = [UInt8](repeating: 0, count: room) }
        let n = out.withUnsafeMutableBufferPointer { buffer in
            // LAME reads the samples only; its prototype lacks the const.
            lame_encode_buffer_interleaved(
                lame, UnsafeMutablePointer(mutating: samples.baseAddress), Int32(frames),
                buffer.baseAddress, Int32(room))
        }
        return cutter.cut(out[0..<max(0, Int(n))])
    }

    func finish() -> [UInt8] {
        if out.count < 7200 { out = [UInt8](repeating: 0, count: 7200) }
        let n = out.withUnsafeMutableBufferPointer { lame_encode_flush(lame, $0.baseAddress, Int32($0.count)) }
        return cutter.cut(out[0..<max(0, Int(n))]) + cutter.rest()
    }
}

/// Cuts LAME's output at MPEG-1 Layer III frame boundaries, from the
/// frame headers (sync, bitrate, sample rate, padding).
struct MP3FrameCutter {
    private var pending: [UInt8] = []
    private static let kilobits = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0]
    private static let rates = [44100, 48000, 32000, 0]

    /// The length in bytes of the MPEG-1 Layer III frame whose header
    /// starts at `offset`; nil when there is none there.
    static func frameLength(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard offset + 4 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xFE == 0xFA else { return nil }
        let kilobit = kilobits[Int(bytes[offset + 2] >> 4)]
        let rate = rates[Int((bytes[offset + 2] >> 2) & 3)]
        guard kilobit > 0, rate > 0 else { return nil }
        return 144_000 * kilobit / rate + Int((bytes[offset + 2] >> 1) & 1)
    }

    /// Appends `bytes` and returns the whole frames now complete. Bytes
    /// before a frame header (never seen from LAME) go out with the next
    /// frames rather than being lost.
    mutating func cut(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        pending.append(contentsOf: bytes)
        var end = 0
        while let length = MP3FrameCutter.frameLength(pending, at: end), end + length <= pending.count { end += length }
        if end == 0, pending.count >= 4, MP3FrameCutter.frameLength(pending, at: 0) == nil { end = pending.count }
        let whole = Array(pending[0..<end])
        pending.removeFirst(end)
        return whole
    }

    /// What is left (the end of the stream).
    mutating func rest() -> [UInt8] {
        defer { pending = [] }
        return pending
    }
}

/// FLAC by libFLAC's stream encoder (`FLAC__stream_encoder_init_stream`
/// with a write callback, `FLAC__stream_encoder_process_interleaved`,
/// `FLAC__stream_encoder_finish`): 16-bit stereo 44.1 kHz, compression
/// level 5 (libFLAC's default; 4,096-sample blocks), the streamable
/// subset, STREAMINFO with the total and MD5 unknown (no seek callback:
/// nothing is rewritten at the end). The write callback is called once
/// for each frame, so what `encode` returns is whole frames.
final class FLACEncoder: StreamEncoder {
    private let encoder: UnsafeMutablePointer<FLAC__StreamEncoder>
    private(set) var header: [UInt8] = []
    /// What the write callback gave during the current call.
    private var written: [UInt8] = []
    private var wide: [Int32] = []

    /// - Throws: `StreamFailure.output` when libFLAC cannot make or start
    ///   an encoder (with its state's name).
    init() throws(StreamFailure) {
        guard let encoder = FLAC__stream_encoder_new() else { throw .output("FLAC__stream_encoder_new failed") }
        self.encoder = encoder
        FLAC__stream_encoder_set_channels(encoder, 2)
        FLAC__stream_encoder_set_bits_per_sample(encoder, 16)
        FLAC__stream_encoder_set_sample_rate(encoder, 44100)
        FLAC__stream_encoder_set_compression_level(encoder, 5)
        FLAC__stream_encoder_set_streamable_subset(encoder, 1)
        FLAC__stream_encoder_set_total_samples_estimate(encoder, 0)
        let status = FLAC__stream_encoder_init_stream(
            encoder, flacWrite, nil, nil, nil,
            Unmanaged.passUnretained(self).toOpaque())
        guard status == FLAC__STREAM_ENCODER_INIT_STATUS_OK else {
            FLAC__stream_encoder_delete(encoder)
            throw .output("FLAC__stream_encoder_init_stream failed (status \(status.rawValue))")
        }
        // Everything written before the first frame: fLaC and the metadata blocks.
        header = written
        written = []
    }

    deinit { FLAC__stream_encoder_delete(encoder) }

    func encode(_ samples: UnsafeBufferPointer<Int16>) -> [UInt8] {
        if wide.count < samples.count { wide = [Int32](repeating: 0, count: samples.count) }
        wide.withUnsafeMutableBufferPointer { out in
            for i in 0..<samples.count { out[i] = Int32(samples[i]) }
            _ = FLAC__stream_encoder_process_interleaved(encoder, out.baseAddress, UInt32(samples.count / 2))
        }
        defer { written = [] }
        return written
    }

    func finish() -> [UInt8] {
        _ = FLAC__stream_encoder_finish(encoder)
        defer { written = [] }
        return written
    }

    /// The write callback's body: keeps the bytes for the call under way.
    fileprivate func take(_ bytes: UnsafeBufferPointer<UInt8>) { written.append(contentsOf: bytes) }
}

/// `FLAC__StreamEncoderWriteCallback`: `client_data` is the `FLACEncoder`.
private let flacWrite: FLAC__StreamEncoderWriteCallback = { _, buffer, bytes, _, _, context in
    guard let context, let buffer else { return FLAC__STREAM_ENCODER_WRITE_STATUS_FATAL_ERROR }
    Unmanaged<FLACEncoder>.fromOpaque(context).takeUnretainedValue().take(UnsafeBufferPointer(start: buffer, count: bytes))
    return FLAC__STREAM_ENCODER_WRITE_STATUS_OK
}
