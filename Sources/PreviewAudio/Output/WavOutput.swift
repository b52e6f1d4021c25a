import Glibc
import PreviewPlatform
import PreviewCore

/// Writes exactly the decoded PCM to RIFF/WAVE files (s16 LE, the stream's
/// own rate and channels). The header is rewritten after every track end and
/// on close, so the file is valid whenever no track is mid-way. A format
/// change closes the file and continues in `NAME-2.EXT`, `NAME-3.EXT`, ...
final class WavOutput: AudioOutput, @unchecked Sendable {
    private let basePath: String
    private let paced: Bool
    private let clock = PacingClock()
    private var fd: Int32 = -1
    private var fileIndex = 0
    private var format: AudioFormat?
    private var dataBytes = 0

    /// - Parameters: path: the first file; paced: real-time speed or instant.
    init(path: String, paced: Bool) {
        basePath = path
        self.paced = paced
    }

    /// The path of the `index`-th file (1-based): PATH, then NAME-2.EXT, ...
    static func path(base: String, index: Int) -> String {
        guard index > 1 else { return base }
        let slash = base.lastIndex(of: "/")
        if let dot = base.lastIndex(of: "."), slash.map({ dot > $0 }) ?? true, dot != base.startIndex {
            return String(base[..<dot]) + "-\(index)" + String(base[dot...])
        }
        return base + "-\(index)"
    }

    func configure(_ newFormat: AudioFormat) throws(StreamFailure) {
        // The file opens with the first PCM, so a stream skipped before it
        // played leaves no empty file behind.
        pendingFormat = (fd >= 0 && newFormat == format) ? nil : newFormat
    }

    private var pendingFormat: AudioFormat?

    private func openPending() throws(StreamFailure) {
        guard let newFormat = pendingFormat else { return }
        pendingFormat = nil
        if fd >= 0, newFormat == format { return }
        if fd >= 0 { finishFile() }
        fileIndex += 1
        let path = WavOutput.path(base: basePath, index: fileIndex)
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .output("cannot create \(path): \(String(cString: strerror(errno)))") }
        format = newFormat
        dataBytes = 0
        try writeHeader()
        // pwrite leaves the file offset alone: PCM starts after the header.
        lseek(fd, 44, SEEK_SET)
    }

    func write(_ pcm: UnsafeRawBufferPointer, interrupted: () -> Bool) throws(StreamFailure) -> Int {
        try openPending()
        guard fd >= 0, let format else { throw .output("WAV output written before configure") }
        do { try FileDescriptor(rawValue: fd).writeAll(pcm) } catch {
            throw .output("write failed: \(error.reason)")
        }
        dataBytes += pcm.count
        if paced {
            clock.consume(frames: pcm.count / format.bytesPerFrame, rate: format.sampleRate, interrupted: interrupted)
        }
        return pcm.count
    }

    func setPaused(_ paused: Bool) { clock.reset() }
    func discard() { clock.reset() }
    func trackEnded() { try? writeHeader() }
    func setVolume(_ percent: Int) {}
    var hasMixer: Bool { false }
    func wake() { clock.wake() }

    func close() {
        if fd >= 0 { finishFile() }
    }

    private func finishFile() {
        try? writeHeader()
        fsync(fd)
        Glibc.close(fd)
        fd = -1
    }

    /// The 44-byte canonical header, written at offset 0 with the current sizes.
    private func writeHeader() throws(StreamFailure) {
        guard let format else { return }
        var h: [UInt8] = []
        func u32(_ v: Int) { h += [UInt8(v & 0xff), UInt8((v >> 8) & 0xff), UInt8((v >> 16) & 0xff), UInt8((v >> 24) & 0xff)] }
        func u16(_ v: Int) { h += [UInt8(v & 0xff), UInt8((v >> 8) & 0xff)] }
        h += Array("RIFF".utf8); u32(36 + dataBytes); h += Array("WAVE".utf8)
        h += Array("fmt ".utf8); u32(16); u16(1); u16(format.channels); u32(format.sampleRate)
        u32(format.sampleRate * format.bytesPerFrame); u16(format.bytesPerFrame); u16(16)
        h += Array("data".utf8); u32(dataBytes)
        let n = h.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, 0) }
        guard n == h.count else { throw .output("cannot write WAV header: \(String(cString: strerror(errno)))") }
    }
}
