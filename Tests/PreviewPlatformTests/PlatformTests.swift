import Glibc
@testable import PreviewPlatform
import Testing

/// A fresh directory under /tmp (mkdtemp), removed with its files by `clean`.
func temporaryDirectory() -> String {
    var template = Array("/tmp/previewplatform-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
}

func clean(_ dir: String) {
    for name in (try? FileSystem.entries(ofDirectory: dir)) ?? [] where name != "." && name != ".." {
        try? FileSystem.remove(dir + "/" + name)
    }
    try? FileSystem.removeDirectory(dir)
}

/// Listening sets the process's umask around bind(2), and the file tests
/// check the modes of what they create: the two must not run at once.
@Suite(.serialized) struct UmaskSensitiveTests {}

extension UmaskSensitiveTests {
    @Suite struct SocketTests {
        @Test func anOverLongSocketPathIsRefusedWithAClearError() throws {
            let long = "/tmp/" + String(repeating: "x", count: 200)
            let error = try #require(throws: SystemError.self) { try UnixSocketAddress(path: long) }
            #expect(error.function == "sockaddr_un")
            #expect(error.errno == ENAMETOOLONG)
            #expect(error.description == "sockaddr_un \(long): File name too long")
            // The longest path sun_path holds with its NUL is fine.
            let longest = "/" + String(repeating: "y", count: UnixSocketAddress.maxPathBytes - 1)
            #expect(try UnixSocketAddress(path: longest).path == longest)
            #expect(throws: SystemError.self) { try UnixSocketAddress(path: longest + "y") }
        }

        @Test func listenConnectAndPeerCredentialsRoundTrip() throws {
            let dir = temporaryDirectory()
            defer { clean(dir) }
            let address = try UnixSocketAddress(path: dir + "/socket")
            let listener = try UnixSocket.listen(at: address)
            // The umask during bind makes the file 0600 from the start.
            var st = stat()
            #expect(stat(dir + "/socket", &st) == 0)
            #expect(st.st_mode & 0o777 == 0o600)
            #expect(FileSystem.kind(ofLink: dir + "/socket") == .socket)

            let client = try UnixSocket.connect(to: address)
            let server = try listener.descriptor.accept()
            defer { server.close() }
            let credentials = try #require(server.peerCredentials())
            #expect(credentials.userID == geteuid())
            #expect(credentials.processID == getpid())

            try client.descriptor.sendAll(Array("ping\n".utf8))
            var fds = [PollDescriptor(server, events: .readable)]
            #expect(try PollDescriptor.poll(&fds, timeout: 5000) == 1)
            var buffer = [UInt8](repeating: 0, count: 16)
            let n = try server.read(into: &buffer)
            #expect(String(decoding: buffer[..<n], as: UTF8.self) == "ping\n")
            // Accepting is non-blocking: nothing more is pending.
            let none = try #require(throws: SystemError.self) { try listener.descriptor.accept() }
            #expect(none.wouldBlock)
        }

        @Test func bindingATakenPathNamesBindAndThePath() throws {
            let dir = temporaryDirectory()
            defer { clean(dir) }
            let address = try UnixSocketAddress(path: dir + "/socket")
            let first = try UnixSocket.listen(at: address)
            let error = try #require(throws: SystemError.self) { _ = try UnixSocket.listen(at: address) }
            #expect(error.description == "bind \(dir)/socket: Address already in use")
            first.close()
            let refused = try #require(throws: SystemError.self) { _ = try UnixSocket.connect(to: address) }
            #expect(refused.function == "connect")
            #expect(refused.errno == ECONNREFUSED)
        }

        @Test func aDatagramReachesAnAbstractName() throws {
            let name = Array("previewplatform-test-\(getpid())".utf8)
            let address = try UnixSocketAddress(abstractName: name)
            #expect(address.path == "@previewplatform-test-\(getpid())")
            // A datagram socket bound to the name receives what is sent to it.
            let receiver = try UnixSocket.make(.datagram)
            var raw = sockaddr_un()
            raw.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &raw.sun_path) { for (i, b) in name.enumerated() { $0[i + 1] = b } }
            let rc = withUnsafePointer(to: &raw) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(receiver.descriptor.rawValue, $0, socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.count))
                }
            }
            #expect(rc == 0)
            let sender = try UnixSocket.make(.datagram)
            try sender.descriptor.send(Array("READY=1".utf8), to: address)
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = try receiver.descriptor.receive(into: &buffer, dontWait: true)
            #expect(String(decoding: buffer[..<n], as: UTF8.self) == "READY=1")
        }
    }
}

@Suite struct PipeAndPollTests {
    @Test func aByteOnAPipeWakesPoll() throws {
        let pipe = try Pipe()
        var fds = [PollDescriptor(pipe.readEnd.descriptor, events: .readable)]
        #expect(try PollDescriptor.poll(&fds, timeout: 0) == 0)
        #expect(fds[0].returnedEvents.isEmpty)

        try pipe.writeEnd.descriptor.writeAll([42])
        #expect(try PollDescriptor.poll(&fds, timeout: 5000) == 1)
        #expect(fds[0].returnedEvents.contains(.readable))
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(try pipe.readEnd.descriptor.read(into: &buffer) == 1)
        #expect(buffer[0] == 42)
        // Both ends are non-blocking: an empty pipe is EAGAIN, not a hang.
        let empty = try #require(throws: SystemError.self) { try pipe.readEnd.descriptor.read(into: &buffer) }
        #expect(empty.wouldBlock)
        #expect(empty.function == "read")
    }

    @Test func aSignalBecomesAByteAndAnIgnoredOneMayStayIgnored() throws {
        let signals = try SignalPipe(catching: [Signal(rawValue: SIGUSR1)])
        // To the process, not this thread, which the test runner may have SIGUSR1 blocked in.
        #expect(kill(getpid(), SIGUSR1) == 0)
        var fds = [PollDescriptor(signals.readEnd, events: .readable)]
        #expect(try PollDescriptor.poll(&fds, timeout: 5000) == 1)
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(try signals.readEnd.read(into: &buffer) == 1)
        signals.close()

        // One ignored when we start stays ignored when asked `unlessIgnored`
        // (nohup's SIGHUP); one that is not is caught. Here in the same test:
        // the pipe is one per process.
        Signal(rawValue: SIGUSR2).ignore()
        defer { _ = signal(SIGUSR2, SIG_DFL) }
        #expect(Signal(rawValue: SIGUSR2).isIgnored)
        #expect(!Signal(rawValue: SIGUSR1).isIgnored)
        let kept = try SignalPipe(catching: [], unlessIgnored: [Signal(rawValue: SIGUSR1), Signal(rawValue: SIGUSR2)])
        #expect(Signal(rawValue: SIGUSR2).isIgnored)
        #expect(kill(getpid(), SIGUSR2) == 0)
        var keptFDs = [PollDescriptor(kept.readEnd, events: .readable)]
        #expect(try PollDescriptor.poll(&keptFDs, timeout: 200) == 0)
        #expect(kill(getpid(), SIGUSR1) == 0)
        #expect(try PollDescriptor.poll(&keptFDs, timeout: 5000) == 1)
        kept.close()
    }

    @Test func anOwnedDescriptorClosesAtTheEndOfItsScope() throws {
        let raw: Int32
        do {
            let pipe = try Pipe()
            raw = pipe.readEnd.descriptor.rawValue
            #expect(fcntl(raw, F_GETFD) & FD_CLOEXEC != 0)
        }
        #expect(fcntl(raw, F_GETFD) == -1)
        #expect(errno == EBADF)
    }
}

extension UmaskSensitiveTests {
    @Suite struct FileTests {
        @Test func atomicWriteThenReadRoundTrips() throws {
            let dir = temporaryDirectory()
            defer { clean(dir) }
            let bytes = Array("line 1\nline 2\n".utf8) + [0, 255]
            try AtomicFile.write(bytes, to: dir + "/state.json")
            #expect(try AtomicFile.read(dir + "/state.json") == bytes)
            try AtomicFile.write([1, 2, 3], to: dir + "/state.json")
            #expect(try AtomicFile.read(dir + "/state.json") == [1, 2, 3])
            // No temporary file is left beside it.
            #expect(try FileSystem.entries(ofDirectory: dir).sorted() == [".", "..", "state.json"])
            #expect(try AtomicFile.read(dir + "/missing") == nil)
        }

        /// Issue 42: a link planted at the temporary name made a save write
        /// through it into another file of the user's.
        @Test func aLinkAtTheTemporaryNameIsRemovedNotFollowed() throws {
            let dir = temporaryDirectory()
            defer { clean(dir) }
            let victim = dir + "/precious"
            try AtomicFile.write(Array("mine\n".utf8), to: victim)
            let temp = dir + "/listing.tmp-\(getpid())"
            #expect(symlink(victim, temp) == 0)
            try AtomicFile.write(Array("listing\n".utf8), to: dir + "/listing")
            #expect(try AtomicFile.read(victim) == Array("mine\n".utf8))
            #expect(try AtomicFile.read(dir + "/listing") == Array("listing\n".utf8))
            #expect(FileSystem.kind(ofLink: dir + "/listing") == .regular)
            // A link at the target itself is replaced, not written through.
            #expect(symlink(victim, dir + "/other") == 0)
            try AtomicFile.write([1], to: dir + "/other")
            #expect(FileSystem.kind(ofLink: dir + "/other") == .regular)
            #expect(try AtomicFile.read(victim) == Array("mine\n".utf8))
        }

        @Test func aFailedWriteNamesTheFunctionAndErrnoText() throws {
            let path = "/nonexistent-\(getpid())/state.json"
            let error = try #require(throws: SystemError.self) { try AtomicFile.write([1], to: path) }
            #expect(error.function == "open")
            #expect(error.errno == ENOENT)
            #expect(error.path == path + ".tmp-\(getpid())")
            #expect(error.description == "open \(path).tmp-\(getpid()): No such file or directory")

            let dir = temporaryDirectory()
            defer { clean(dir) }
            let notAFile = try #require(throws: SystemError.self) { _ = try AtomicFile.read(dir) }
            #expect(notAFile.function == "read")
            #expect(notAFile.reason == "Is a directory")
        }

        @Test func directoriesAreMadeListedRenamedAndRemoved() throws {
            let dir = temporaryDirectory()
            defer { clean(dir) }
            try FileSystem.makeDirectories(dir + "/a/b", mode: 0o700)
            #expect(FileSystem.kind(ofLink: dir + "/a/b") == .directory)
            var st = stat()
            #expect(stat(dir + "/a/b", &st) == 0)
            #expect(st.st_mode & 0o777 == 0o700)
            try AtomicFile.write([7], to: dir + "/a/b/one")
            try FileSystem.rename(dir + "/a/b/one", to: dir + "/a/b/two")
            #expect(try FileSystem.entries(ofDirectory: dir + "/a/b").filter { !$0.hasPrefix(".") } == ["two"])
            #expect(FileSystem.exists(dir + "/a/b/two"))
            #expect(try FileSystem.modificationTime(dir + "/a/b/two") >= Int(SystemClock.unixSeconds()) - 60)
            try FileSystem.remove(dir + "/a/b/two")
            let gone = try #require(throws: SystemError.self) { try FileSystem.remove(dir + "/a/b/two") }
            #expect(gone.isNotFound)
            #expect(gone.description == "unlink \(dir)/a/b/two: No such file or directory")
            try FileSystem.removeDirectory(dir + "/a/b")
            try FileSystem.removeDirectory(dir + "/a")
            #expect(FileSystem.kind(ofLink: dir + "/a") == nil)
        }
    }
}

@Suite struct SubprocessTests {
    @Test func spawnRunsShellWithAnEnvironmentVariableAndReportsTheExitStatus() throws {
        let child = try Subprocess.spawn("/bin/sh", arguments: ["/bin/sh", "-c", "exit $CODE"], environment: ["CODE=7"])
        #expect(try child.wait() == .exited(7))
    }

    @Test func theChildReadsItsStandardInputFromAPipe() throws {
        let pipe = try Pipe()
        pipe.readEnd.descriptor.setBlocking()
        let child = try Subprocess.spawn(
            "/bin/sh", arguments: ["/bin/sh", "-c", #"read line; [ "$line" = "$WANT" ] && exit 3; exit 4"#],
            environment: ["WANT=hello"], standardInput: pipe.readEnd.descriptor)
        try pipe.writeEnd.descriptor.writeAll(Array("hello\n".utf8))
        #expect(try child.wait() == .exited(3))
    }

    @Test func aProcessGroupIsKilledAndPollReportsTheSignal() throws {
        let child = try Subprocess.spawn(
            "/bin/sh", arguments: ["/bin/sh", "-c", "sleep 30"], environment: [],
            newProcessGroup: true, defaultSignals: [.pipe])
        #expect(try child.poll() == nil)
        try child.killGroup(.kill)
        #expect(try child.wait() == .signaled(SIGKILL))
        let reaped = try #require(throws: SystemError.self) { _ = try child.poll() }
        #expect(reaped.isNoSuchChild)
    }

    @Test func aMissingProgramIsAnErrorNamingPosixSpawn() throws {
        let error = try #require(throws: SystemError.self) {
            _ = try Subprocess.spawn("/nonexistent/program", arguments: ["program"], environment: [])
        }
        #expect(error.function == "posix_spawn")
        #expect(error.errno == ENOENT)
    }
}

@Suite struct ProcessAndClockTests {
    @Test func environmentValuesAreReadAndRemoved() {
        setenv("PREVIEWPLATFORM_TEST", "a=b", 1)
        #expect(Environment.value("PREVIEWPLATFORM_TEST") == "a=b")
        #expect(Environment.all.contains("PREVIEWPLATFORM_TEST=a=b"))
        Environment.remove("PREVIEWPLATFORM_TEST")
        #expect(Environment.value("PREVIEWPLATFORM_TEST") == nil)
        #expect(ThisProcess.id == getpid())
        #expect(ThisProcess.userID == getuid())
    }

    @Test func clocksAndCalendarFormatting() {
        let a = SystemClock.monotonicSeconds()
        let b = SystemClock.monotonicSeconds()
        #expect(b >= a)
        #expect(SystemClock.unixSeconds() > 1_700_000_000)
        #expect(SystemClock.format(0, "%Y-%m-%dT%H:%M:%SZ", utc: true) == "1970-01-01T00:00:00Z")
        #expect(SystemClock.format(1_796_169_600, "%Y-%m-%d", utc: true) == "2026-12-02")
    }

    @Test func exitStatusDecodesWaitStatusWords() {
        #expect(ExitStatus(waitStatus: 0x0300) == .exited(3))
        #expect(ExitStatus(waitStatus: 9) == .signaled(9))
    }
}

/// The funnel every system call goes through (`Syscall`).
@Suite struct SyscallTests {
    @Test func aCallInterruptedBySignalsIsMadeAgain() throws {
        var attempts = 0
        let result = try Syscall.call("read") { () -> Int in
            attempts += 1
            guard attempts > 2 else {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect((result, attempts) == (7, 3))
    }

    @Test func anotherFailureNamesTheFunctionErrnoAndPath() {
        var attempts = 0
        #expect(throws: SystemError("open", errno: ENOENT, path: "/nowhere")) {
            try Syscall.call("open", path: "/nowhere") { () -> Int32 in
                attempts += 1
                errno = ENOENT
                return -1
            }
        }
        #expect(attempts == 1)
    }

    @Test func onceDoesNotRepeatAnInterruptedCall() {
        var attempts = 0
        #expect(throws: SystemError("connect", errno: EINTR)) {
            try Syscall.once("connect") { () -> Int32 in
                attempts += 1
                errno = EINTR
                return -1
            }
        }
        #expect(attempts == 1)
    }

    @Test func errorNumbersReturnedAreErrorsToo() {
        #expect(throws: SystemError("sd_bus_open_user", errno: ENOMEDIUM)) {
            try Syscall.returningError("sd_bus_open_user", negated: true) { -ENOMEDIUM }
        }
        #expect(throws: SystemError("posix_spawn", errno: EAGAIN, path: "/bin/true")) {
            try Syscall.returningError("posix_spawn", path: "/bin/true", negated: false) { EAGAIN }
        }
        #expect((try? Syscall.returningError("posix_spawn", negated: false) { Int32(0) }) == 0)
    }
}
