import Foundation
import Glibc
import PreviewClient
import PreviewCore
import PreviewPlatform
import Testing

/// The shared MPD client against a server on a real Unix socket that
/// answers with canned text (previewd's own replies are tested through
/// previewctl and previewweb in Tests/Integration).
@Suite struct MPDConnectionTests {
    /// A one-connection server at a fresh path: it accepts, sends
    /// `greeting` + `reply` once `expected` request bytes came (at once
    /// when 0), and keeps what it was sent.
    final class CannedServer: @unchecked Sendable {
        let path: String
        private let directory: String
        private let listener: FileDescriptor
        private let lock = NSLock()
        private var got: [UInt8] = []
        private let done = DispatchSemaphore(value: 0)

        init(greeting: String, reply: String = "", expected: Int = 0) throws {
            let dir = NSTemporaryDirectory() + "mpdclient-\(getpid())-\(UUID().uuidString.prefix(8))"
            mkdir(dir, 0o700)
            directory = dir
            path = dir + "/socket"
            listener = try Self.listen(at: path)
            let fd = listener
            Thread.detachNewThread { [self] in
                defer { done.signal() }
                var fds = [PollDescriptor(fd, events: .readable)]
                guard (try? PollDescriptor.poll(&fds, timeout: 5000)) == 1, let conn = try? fd.accept() else { return }
                defer { conn.close() }
                try? conn.writeAll(Array(greeting.utf8))
                var buffer = [UInt8](repeating: 0, count: 4096)
                while received < expected {
                    var wait = [PollDescriptor(conn, events: .readable)]
                    guard (try? PollDescriptor.poll(&wait, timeout: 5000)) == 1, let n = try? conn.read(into: &buffer), n > 0 else {
                        return
                    }
                    lock.withLock { got += buffer[..<n] }
                }
                try? conn.writeAll(Array(reply.utf8))
            }
        }

        deinit {
            done.wait()
            listener.close()
            unlink(path)
            rmdir(directory)
        }

        /// socket(2), bind(2), listen(2) as they are: `UnixSocket.listen`
        /// sets the process's umask around bind, which would race the
        /// platform tests that check the modes of the files they make.
        private static func listen(at path: String) throws -> FileDescriptor {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard fd >= 0, bound == 0, Glibc.listen(fd, 8) == 0 else { throw SystemError("bind", errno: errno, path: path) }
            return FileDescriptor(rawValue: fd)
        }

        private var received: Int { lock.withLock { got.count } }

        /// What the client sent, once the server is done.
        func request() -> String {
            done.wait()
            done.signal()
            return lock.withLock { String(decoding: got, as: UTF8.self) }
        }
    }

    @Test func aCommandListComesBackAsOneReplyPerCommand() throws {
        let request = "command_list_ok_begin\nstatus\ncurrentsong\ncommand_list_end\n"
        let server = try CannedServer(
            greeting: "OK MPD 0.23.5\n", reply: "volume: 50\nlist_OK\nfile: a\nTitle: A\nlist_OK\nOK\n",
            expected: request.utf8.count)
        let mpd = try MPDConnection(path: server.path, timeout: 5)
        let replies = try mpd.requestEach(["status", "currentsong"])
        #expect(replies.count == 2)
        #expect(replies[0].elementsEqual([("volume", "50")], by: ==))
        #expect(replies[1].elementsEqual([("file", "a"), ("Title", "A")], by: ==))
        #expect(server.request() == request)
    }

    @Test func anAckInAListIsTheRefusalWithItsCodeAndCommand() throws {
        let request = "command_list_ok_begin\nclear\nadd nope\ncommand_list_end\n"
        let server = try CannedServer(
            greeting: "OK MPD 0.23.5\n", reply: "list_OK\nACK [50@1] {add} No such song\n",
            expected: request.utf8.count)
        let mpd = try MPDConnection(path: server.path, timeout: 5)
        #expect(throws: MPDClientError.refused(code: 50, command: "add", message: "No such song")) {
            try mpd.requestEach(["clear", "add nope"])
        }
        _ = server.request()
    }

    @Test func aShortListIsMalformed() throws {
        let server = try CannedServer(greeting: "OK MPD 0.23.5\n", reply: "list_OK\nOK\n", expected: 10)
        let mpd = try MPDConnection(path: server.path, timeout: 5)
        #expect(throws: MPDClientError.malformed("previewd sent 1 replies for 2 commands")) { try mpd.requestEach(["a", "b"]) }
    }

    @Test func aRefusalSentWithTheGreetingFailsTheConnection() throws {
        let server = try CannedServer(greeting: "OK MPD 0.23.5\nACK [0@0] {} too many clients (100)\n")
        #expect(throws: MPDClientError.refused(code: 0, command: "", message: "too many clients (100)")) {
            _ = try MPDConnection(path: server.path, timeout: 5)
        }
    }

    @Test func somethingElseListeningIsNoGreeting() throws {
        let server = try CannedServer(greeting: "HTTP/1.1 400 Bad Request\r\n")
        #expect(throws: MPDClientError.noGreeting(timedOut: false)) { _ = try MPDConnection(path: server.path, timeout: 5) }
    }

    @Test func nobodyListeningIsAConnectFailureWithItsReason() {
        #expect(throws: MPDClientError.connect(reason: String(cString: strerror(ENOENT)), timedOut: false)) {
            _ = try MPDConnection(path: "/nonexistent/previewd/socket", timeout: 1)
        }
        #expect(throws: MPDClientError.pathTooLong) { _ = try MPDConnection(path: "/" + String(repeating: "x", count: 200), timeout: 1) }
    }

    @Test func aBinaryReplyGivesItsFieldsAndBytes() throws {
        let request = "albumart deezer:track:1 0\n"
        let server = try CannedServer(
            greeting: "OK MPD 0.23.5\n", reply: "size: 3\nbinary: 3\n\u{1}\n\u{2}\nOK\n", expected: request.utf8.count)
        let mpd = try MPDConnection(path: server.path, timeout: 5)
        let (fields, bytes) = try mpd.requestBinary("albumart deezer:track:1 0")
        #expect(fields.elementsEqual([("size", "3")], by: ==))
        #expect(bytes == [1, 10, 2])
    }

    @Test func theServerLeavingMidReplyIsLost() throws {
        let server = try CannedServer(greeting: "OK MPD 0.23.5\n", reply: "volume: 5\n", expected: 7)
        let mpd = try MPDConnection(path: server.path, timeout: 5)
        #expect(throws: MPDClientError.lost("previewd closed the connection")) { try mpd.request(["status"]) }
    }
}
