/// One MPEG-1 Layer III frame header (ISO/IEC 11172-3, 2.4.1.3), read from
/// its 4 bytes. Only what seeking by byte offset needs: other versions and
/// layers are not read (`init` answers nil).
public struct Layer3FrameHeader: Equatable, Sendable {
    /// Bits per second (32,000 ... 320,000).
    public let bitrate: Int
    /// PCM frames per second: 32,000, 44,100 or 48,000.
    public let sampleRate: Int
    /// Whether this frame carries the one padding byte.
    public let padded: Bool
    /// 1 (single channel) or 2.
    public let channels: Int

    private static let bitrates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    private static let sampleRates = [44_100, 48_000, 32_000]

    /// PCM frames one MPEG-1 Layer III frame decodes to.
    public static let samplesPerFrame = 1152

    /// Reads the header at `bytes[offset..<offset+4]`; nil when there is no
    /// MPEG-1 Layer III header with a usable bitrate and rate there.
    public init?(_ bytes: some RandomAccessCollection<UInt8>, at offset: Int) {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        let start = bytes.index(bytes.startIndex, offsetBy: offset)
        let b1 = bytes[bytes.index(start, offsetBy: 1)]
        let b2 = bytes[bytes.index(start, offsetBy: 2)]
        let b3 = bytes[bytes.index(start, offsetBy: 3)]
        // Sync (11 bits), MPEG-1 (11), Layer III (01); the CRC bit is free.
        guard bytes[start] == 0xFF, b1 & 0xFE == 0xFA else { return nil }
        let bitrateIndex = Int(b2 >> 4), rateIndex = Int((b2 >> 2) & 3)
        guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        bitrate = Layer3FrameHeader.bitrates[bitrateIndex] * 1000
        sampleRate = Layer3FrameHeader.sampleRates[rateIndex]
        padded = b2 & 2 != 0
        channels = b3 >> 6 == 3 ? 1 : 2
    }

    /// The frame's length in bytes, header included.
    public var byteCount: Int { 144 * bitrate / sampleRate + (padded ? 1 : 0) }

    /// Whether `other` could be the next frame of the same constant-bitrate stream.
    func continues(_ other: Layer3FrameHeader) -> Bool {
        bitrate == other.bitrate && sampleRate == other.sampleRate && channels == other.channels
    }
}

/// Where the frames of a constant-bitrate MPEG-1 Layer III stream lie, so a
/// byte offset far into the stream maps to its frame number without the
/// bytes before it: what seeking by HTTP `Range` needs.
///
/// An encoder keeps a CBR stream's padding within a byte of the exact mean
/// frame length, so frame n starts at `firstFrame + n × mean` give or take
/// a byte or two, far less than half a frame: rounding recovers n exactly
/// (checked on every CBR Layer III file of the test corpus).
public struct ConstantBitrateLayout: Equatable, Sendable {
    /// Byte offset of frame 0: the first audio frame after the ID3v2 tag and
    /// the Info frame (libmpg123 numbers frames the same way).
    public let firstFrame: Int
    /// The Info frame's header: rate, bitrate and channels of every frame.
    public let header: Layer3FrameHeader

    /// Reads the layout from the stream's first bytes (the ID3v2 tag, if any,
    /// and two frames). Nil unless the stream is MPEG-1 Layer III and its
    /// first frame is an "Info" frame, LAME's and FFmpeg's mark of constant
    /// bitrate: without that promise (VBR, or a plain stream that may switch
    /// modes) byte offsets say nothing reliable about frame numbers.
    public init?(prefix: some RandomAccessCollection<UInt8>) {
        let bytes = Array(prefix)
        var offset = 0
        if bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 {  // "ID3"
            let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
            offset = 10 + size + (bytes[5] & 0x10 != 0 ? 10 : 0)
        }
        guard let info = Layer3FrameHeader(bytes, at: offset) else { return nil }
        // The tag follows the side information: 17 bytes mono, 32 otherwise.
        let tag = offset + 4 + (info.channels == 1 ? 17 : 32)
        guard tag + 4 <= bytes.count, Array(bytes[tag..<tag + 4]) == Array("Info".utf8) else { return nil }
        let first = offset + info.byteCount
        guard let audio = Layer3FrameHeader(bytes, at: first), audio.continues(info) else { return nil }
        firstFrame = first
        header = info
    }

    /// How many of the stream's first bytes `init(prefix:)` needs to decide
    /// (the ID3v2 tag and the two longest frames); nil while fewer than the
    /// 10 that give the tag's size are known.
    public static func prefixLength(knowing prefix: some RandomAccessCollection<UInt8>) -> Int? {
        let bytes = Array(prefix.prefix(10))
        guard bytes.count == 10 else { return nil }
        var tag = 0
        if bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 {
            tag = 10 + bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) } + (bytes[5] & 0x10 != 0 ? 10 : 0)
        }
        return tag + 2 * 1441 + 4
    }

    /// Mean frame length in bytes: 144 × bitrate / sample rate.
    public var meanFrameBytes: Double { 144 * Double(header.bitrate) / Double(header.sampleRate) }

    /// The number of the frame starting at byte `offset` (a frame start).
    public func frame(startingAt offset: Int) -> Int {
        Int((Double(offset - firstFrame) / meanFrameBytes).rounded())
    }

    /// Where frame `n` starts, to within two bytes (the padding so far).
    public func approximateOffset(ofFrame n: Int) -> Int {
        firstFrame + Int(Double(n) * meanFrameBytes)
    }

    /// Frames to decode and drop before a seek target so that the bit
    /// reservoir (Layer III reaches up to 511 bytes back) and the synthesis
    /// filter are full: enough frames to cover 511 bytes, plus 3.
    public var prerollFrames: Int {
        let smallest = 144 * header.bitrate / header.sampleRate
        return (511 + smallest - 1) / smallest + 3
    }

    /// The first frame start at or after `bytes`' start, where `bytes` was
    /// fetched from stream offset `base`: a header of this stream, within
    /// two bytes of where the mean length puts a frame, followed by two more
    /// such where the lengths say (a lone 0xFFF in the audio data proves
    /// nothing).
    /// - Returns: the start's stream offset and frame number; nil when the
    ///   bytes hold no such run of three frames.
    public func locateFrame(in bytes: some RandomAccessCollection<UInt8>, base: Int) -> (offset: Int, frame: Int)? {
        let data = Array(bytes)
        var start = 0
        while start + 4 <= data.count {
            var at = start, chain = 0
            while chain < 3, let h = Layer3FrameHeader(data, at: at), h.continues(header), isFrameStart(base + at) {
                chain += 1
                at += h.byteCount
            }
            if chain == 3 {
                let offset = base + start
                return (offset, frame(startingAt: offset))
            }
            start += 1
        }
        return nil
    }

    /// Whether a frame could start at stream offset `offset`.
    private func isFrameStart(_ offset: Int) -> Bool {
        abs(Double(offset - firstFrame) - Double(frame(startingAt: offset)) * meanFrameBytes) < 2.5
    }
}
