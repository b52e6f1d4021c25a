import Glibc
import PreviewCore
import PreviewPlatform

/// Raw PCM into a named pipe, as snapserver's `pipe` source reads it
/// (`sampleformat=44100:16:2`): signed 16-bit little-endian, 44,100 Hz,
/// stereo. As MPD's fifo output does, it holds the pipe's read end open
/// too: the write end then opens without a reader, and a reader never sees
/// the end of the stream between songs (snapserver does not reopen a pipe
/// that ended). A pipe that stays full for a second (no reader, or a
/// stalled one) is emptied of what waits in it, so the freshest PCM goes
/// in; a reader merely slowed (a busy machine) loses nothing. It follows (its branch's thread calls it); it
/// never sets the pace.
final class FifoOutput: AudioOutput, @unchecked Sendable {
    /// The pipe's path.
    let path: String
    /// The only format the pipe carries.
    static let pipeFormat = AudioFormat(sampleRate: 44100, channels: 2)
    /// The pipe's write end and our own read end (-1: not open).
    private var fd: Int32 = -1
    private var readEnd: Int32 = -1
    private var lastOpenAttempt = -Double.infinity
    /// From the decoder's format to the pipe's (nil: it is the pipe's).
    private var converter: PCMConverter?

    /// - Parameter path: the FIFO; made (mode 0600) at the first `configure`
    ///   when missing.
    init(path: String) { self.path = path }

    /// Makes the FIFO when missing (mkfifo(3)) and opens both its ends.
    /// PCM in another format than the pipe's is converted (`PCMConverter`:
    /// mono copied to both channels, another rate resampled by libsoxr).
    /// - Throws: `StreamFailure.output` when `path` is something else than
    ///   a FIFO, cannot be made or opened, or `format` cannot be converted.
    func configure(_ format: AudioFormat) throws(StreamFailure) {
        if let converter { converter.flush { send(UnsafeRawBufferPointer($0)) } }
        converter = format == FifoOutput.pipeFormat ? nil : try PCMConverter(from: format, to: FifoOutput.pipeFormat)
        var st = stat()
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFIFO else { throw .output("fifo \(path): there is something else than a FIFO there") }
        } else if mkfifo(path, 0o600) != 0, errno != EEXIST {
            throw .output("fifo \(path): cannot make it: \(String(cString: strerror(errno)))")
        }
        if fd < 0, !open() { throw .output("fifo \(path): cannot open it: \(String(cString: strerror(errno)))") }
    }

    /// Writes `pcm`, converted to the pipe's format when it is not in it.
    /// - Returns: all of `pcm`'s bytes.
    func write(_ pcm: UnsafeRawBufferPointer, interrupted: () -> Bool) throws(StreamFailure) -> Int {
        guard fd >= 0 || open() else { return pcm.count }
        if let converter {
            converter.convert(pcm) { send(UnsafeRawBufferPointer($0)) }
        } else {
            send(pcm)
        }
        return pcm.count
    }

    /// open(2) of the read end, then the write end, both non-blocking, at
    /// most once a second. - Returns: whether the pipe is open.
    private func open() -> Bool {
        let now = SystemClock.monotonicSeconds()
        guard now - lastOpenAttempt >= 1 else { return false }
        lastOpenAttempt = now
        readEnd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        guard readEnd >= 0 else { return false }
        fd = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 { close() }
        return fd >= 0
    }

    /// write(2) of all of `bytes`: a pipe full for a second is emptied first.
    private func send(_ bytes: UnsafeRawBufferPointer) {
        guard fd >= 0, !bytes.isEmpty else { return }
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n > 0 {
                offset += n
            } else if n < 0, errno == EAGAIN {
                if !waitWritable() { drain() }
            } else if n < 0, errno != EINTR {
                close()
                return
            }
        }
    }

    /// poll(2) for room in a full pipe, at most a second (a reader keeping
    /// real time takes a 64 KiB pipe's worth in 0.37 s): this runs on the
    /// branch's own thread, so the wait delays no other output, and the
    /// branch's queue (4 s) holds what comes meanwhile.
    private func waitWritable() -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return poll(&p, 1, 1000) == 1 && p.revents & Int16(POLLOUT) != 0
    }

    /// Reads out what waits in the pipe, unread by anyone else.
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
            if n <= 0 { return }
        }
    }

    func setPaused(_ paused: Bool) {}
    func discard() { converter?.reset() }
    func trackEnded() {}
    func setVolume(_ percent: Int) {}
    var hasMixer: Bool { false }
    func wake() {}

    /// Lets the pipe go (the output was turned off): the reader sees its end.
    func release() { close() }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        if readEnd >= 0 { Glibc.close(readEnd) }
        fd = -1
        readEnd = -1
    }
}
