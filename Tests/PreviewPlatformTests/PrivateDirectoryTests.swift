import Glibc
@testable import PreviewPlatform
import Testing

/// The tmux-style check of `/tmp/previewd-UID`, on directories made here
/// (the integration tests run it through previewd and previewctl as
/// another user).
@Suite struct PrivateDirectoryTests {
    let uid = getuid()

    @Test func aMissingDirectoryIsMade0700OrReportedMissing() throws {
        let dir = temporaryDirectory()
        defer { clean(dir) }
        #expect(try PrivateDirectory.check(dir + "/p", owner: uid, create: false) == false)
        #expect(FileSystem.kind(ofLink: dir + "/p") == nil)
        #expect(try PrivateDirectory.check(dir + "/p", owner: uid, create: true))
        var st = stat()
        #expect(lstat(dir + "/p", &st) == 0)
        #expect(st.st_mode & 0o7777 == 0o700)
        #expect(try PrivateDirectory.check(dir + "/p", owner: uid, create: false))
    }

    @Test func aSymbolicLinkAWideModeAndAFileAreRefused() throws {
        let dir = temporaryDirectory()
        defer { clean(dir) }
        try FileSystem.makeDirectories(dir + "/real")
        #expect(symlink(dir + "/real", dir + "/link") == 0)
        #expect(throws: PrivateDirectory.Unsafe(path: dir + "/link", reason: "is a symbolic link")) {
            try PrivateDirectory.check(dir + "/link", owner: uid, create: true)
        }
        #expect(chmod(dir + "/real", 0o755) == 0)
        let wide = try #require(throws: PrivateDirectory.Unsafe.self) {
            try PrivateDirectory.check(dir + "/real", owner: uid, create: false)
        }
        #expect(wide.description == "\(dir)/real has mode 0755 (group or others may use it; 0700 is needed)")
        try AtomicFile.write([1], to: dir + "/file")
        #expect(throws: PrivateDirectory.Unsafe(path: dir + "/file", reason: "is not a directory")) {
            try PrivateDirectory.check(dir + "/file", owner: uid, create: true)
        }
        // narrow makes a wide directory of ours private, and leaves a link be.
        try PrivateDirectory.narrow(dir + "/link")
        try PrivateDirectory.narrow(dir + "/real")
        #expect(try PrivateDirectory.check(dir + "/real", owner: uid, create: false))
        try FileSystem.remove(dir + "/link")
        try FileSystem.removeDirectory(dir + "/real")
    }

    @Test func anotherOwnerIsRefused() throws {
        let dir = temporaryDirectory()
        defer { clean(dir) }
        try FileSystem.makeDirectories(dir + "/theirs")
        // Without root no directory can be given away: the owner compared
        // against is then another uid instead.
        let other: UInt32 = uid == 0 ? 65534 : uid + 1
        if uid == 0 { #expect(chown(dir + "/theirs", other, gid_t(other)) == 0) }
        let expectedOwner = uid == 0 ? other : uid
        let asked = uid == 0 ? uid : other
        #expect(throws: PrivateDirectory.Unsafe(path: dir + "/theirs", reason: "is owned by uid \(expectedOwner), not \(asked)")) {
            try PrivateDirectory.check(dir + "/theirs", owner: asked, create: true)
        }
        try FileSystem.removeDirectory(dir + "/theirs")
    }
}

@Suite struct LogRedactionTests {
    @Test func everyAPIKeyValueIsHidden() {
        #expect(
            Log.redacted("GET https://ws/2.0/?method=x&api_key=s3cret&format=json")
                == "GET https://ws/2.0/?method=x&api_key=…&format=json")
        #expect(Log.redacted("a api_key=one b api_key=two") == "a api_key=… b api_key=…")
        #expect(Log.redacted("'http://h/?api_key=k' then") == "'http://h/?api_key=…' then")
        #expect(Log.redacted("no key here") == "no key here")
    }
}

@Suite struct StaleTemporaryTests {
    @Test func onlyOtherWritersTemporariesAreRemoved() throws {
        #expect(AtomicFile.writerPID(ofTemporary: "state.json.tmp-4242") == 4242)
        #expect(AtomicFile.writerPID(ofTemporary: "mix.m3u.tmp-12") == 12)
        for name in ["keep.tmp-notapid.m3u", ".tmp-12", "state.json", "x.tmp-", "x.tmp-99999999999"] {
            #expect(AtomicFile.writerPID(ofTemporary: name) == nil, "\(name)")
        }
        let dir = temporaryDirectory()
        defer { clean(dir) }
        for name in ["a.json.tmp-4194301", "b.json.tmp-\(getpid())", "c.json"] { try AtomicFile.write([1], to: dir + "/" + name) }
        #expect(AtomicFile.removeStaleTemporaries(in: [dir, dir + "/missing"]) == [dir + "/a.json.tmp-4194301"])
        #expect(Set(try FileSystem.entries(ofDirectory: dir)) == [".", "..", "b.json.tmp-\(getpid())", "c.json"])
    }
}
