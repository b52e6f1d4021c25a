import CMpg123
import Glibc
import PreviewCore

/// One libmpg123 handle in feed mode (mpg123_open_feed), always producing
/// signed 16-bit native-endian PCM at the stream's own rate and channels.
/// Owns the `mpg123_handle`; not thread-safe (used by the decode thread only).
final class Mpg123Decoder {
    /// What one `decode` call produced.
    enum Output: Equatable {
        /// `bytes` of PCM were written into the buffer.
        case pcm(bytes: Int)
        /// The stream's format is known or changed; PCM follows.
        case newFormat(AudioFormat)
        /// Feed more input (nothing was written).
        case needMore
    }

    private let handle: OpaquePointer

    private static let initialised: Void = { mpg123_init() }()

    /// Creates a feed-mode decoder (mpg123_new, mpg123_param2, mpg123_format, mpg123_open_feed).
    /// - Throws: `StreamFailure.decode` with mpg123's message.
    init() throws(StreamFailure) {
        Mpg123Decoder.initialised
        var err: Int32 = 0
        guard let h = mpg123_new(nil, &err) else {
            throw .decode(String(cString: mpg123_plain_strerror(err)))
        }
        handle = h
        // Quiet: no stderr chatter. Frankenstein streams stay allowed: a
        // mid-stream channel-mode or rate switch (e.g. ISO's he_mode) is still
        // this track, and `mpg123 -s` (the corpus reference) plays it through,
        // announcing each new format, which the output follows.
        pv_mpg123_param_long(h, MPG123_ADD_FLAGS, Int(MPG123_QUIET.rawValue))
        mpg123_format_none(h)
        var rates: UnsafePointer<Int>?
        var count = 0
        mpg123_rates(&rates, &count)
        for i in 0..<count {
            mpg123_format(h, rates![i], Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue), Int32(MPG123_ENC_SIGNED_16.rawValue))
        }
        guard mpg123_open_feed(h) == MPG123_OK.rawValue else {
            let message = String(cString: mpg123_strerror(h))
            mpg123_delete(h)
            throw .decode(message)
        }
    }

    deinit { mpg123_delete(handle) }

    /// mpg123_feed: hands input bytes to the decoder. Call only after
    /// `decode` answered `.needMore`, or mpg123's buffer grows without bound.
    /// - Throws: `StreamFailure.decode`.
    func feed(_ bytes: UnsafeRawBufferPointer) throws(StreamFailure) {
        guard bytes.count > 0 else { return }
        let rc = mpg123_feed(handle, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
        guard rc == MPG123_OK.rawValue else { throw .decode(String(cString: mpg123_strerror(handle))) }
    }

    /// mpg123_read: decodes into `buffer` (its size should hold whole frames).
    /// - Throws: `StreamFailure.decode` on a hard decoder error.
    func decode(into buffer: UnsafeMutableRawBufferPointer) throws(StreamFailure) -> Output {
        var done = 0
        let rc = mpg123_read(handle, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), buffer.count, &done)
        if done > 0 {
            if rc == MPG123_NEW_FORMAT.rawValue { /* PCM before a format change is still the old format */  }
            return .pcm(bytes: done)
        }
        switch rc {
        case MPG123_NEW_FORMAT.rawValue:
            var rate = 0
            var channels: Int32 = 0
            var encoding: Int32 = 0
            mpg123_getformat(handle, &rate, &channels, &encoding)
            return .newFormat(AudioFormat(sampleRate: rate, channels: Int(channels)))
        case MPG123_NEED_MORE.rawValue, MPG123_DONE.rawValue:
            return .needMore
        case MPG123_OK.rawValue:
            return .pcm(bytes: 0)
        default:
            throw .decode(String(cString: mpg123_strerror(handle)))
        }
    }

    /// Positions the decoder at PCM frame `target` (after gapless trimming)
    /// for input that continues at stream byte `offset`, the start of MPEG
    /// frame `frame`, fetched apart from the bytes fed so far (an HTTP
    /// Range). Call after `decode` announced the format, so mpg123 has read
    /// the Info/LAME frame. Follows mpg123_set_index (a two-entry index:
    /// frame 0 at `firstFrameOffset`, frame `frame` at `offset`),
    /// MPG123_PREFRAMES and mpg123_feedseek.
    /// - Parameter preroll: frames decoded and dropped before the target's;
    ///   up to 3 more are added to align the start (the filter's phase).
    /// - Returns: whether mpg123 will decode from `offset`; when false the
    ///   decoder is unusable for this stream.
    func seek(to target: Int, resumingAt offset: Int, frame: Int, firstFrameOffset: Int, preroll: Int) -> Bool {
        guard frame > 0 else { return false }
        var index: [off_t] = [off_t(firstFrameOffset), off_t(offset)]
        guard mpg123_set_index(handle, &index, off_t(frame), 2) == MPG123_OK.rawValue else { return false }
        var input: off_t = 0
        pv_mpg123_param_long(handle, MPG123_PREFRAMES, preroll)
        guard mpg123_feedseek(handle, off_t(target), SEEK_SET, &input) >= 0 else { return false }
        // The synthesis filter's ring buffer turns a quarter round per
        // frame; decoding must start in the phase a decode from frame 0
        // has there, or some samples differ by one LSB (seen with mono).
        let targetFrame = Int(mpg123_tellframe(handle))
        let aligned = preroll + ((targetFrame - preroll) % 4 + 4) % 4
        if aligned != preroll {
            pv_mpg123_param_long(handle, MPG123_PREFRAMES, aligned)
            guard mpg123_feedseek(handle, off_t(target), SEEK_SET, &input) >= 0 else { return false }
        }
        return Int(input) == offset && targetFrame - aligned >= frame
    }

    /// The stream's length in PCM frames (mpg123_length), when the decoder
    /// knows it (from a Xing/Info header, or else an estimate); nil otherwise.
    var lengthInFrames: Int? {
        let n = mpg123_length(handle)
        return n > 0 ? Int(n) : nil
    }

    /// The current frame's bitrate in kbit/s (mpg123_info), 0 when unknown.
    var bitrate: Int {
        var info = mpg123_frameinfo2()
        guard mpg123_info2(handle, &info) == MPG123_OK.rawValue else { return 0 }
        return Int(info.bitrate)
    }
}
