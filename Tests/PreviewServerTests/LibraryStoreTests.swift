import Glibc
import PreviewCore
import PreviewPlatform
import PreviewTestSupport
import Testing
@testable import PreviewServer
@testable import PreviewStorage

/// `library.sqlite` itself: the import of a `library.json`, a damaged
/// file, a database that cannot be opened.
@Suite struct LibraryStoreTests {
    static let song = Song(uri: "deezer:track:7", title: "T")

    @Test func aLibraryJSONIsImportedOnceAndRenamed() throws {
        let h = Harness()
        let json = h.playlistDirectory + "/library.json"
        let file =
            #"[{"uri":"deezer:track:7","added":10,"songs":[{"uri":"deezer:track:7","title":"T","addedTags":[]}]},"#
            + #"{"uri":"deezer:track:8","songs":[]},{"uri":"deezer:artist:27","added":12,"name":"Daft Punk","songs":[]}]"#
        try AtomicFile.write(Array(file.utf8), to: json)
        let mtime = try FileSystem.modificationTime(json)
        var warnings: [String] = []
        // The harness opened library.sqlite already, but it had no change yet: it imports.
        let library = Library(directory: h.playlistDirectory, log: Log(level: .error), warn: { warnings.append($0) })
        #expect(library.entries.map(\.uri) == ["deezer:artist:27", "deezer:track:7"])
        #expect(library.songs == [Self.song])
        #expect(library.lastChange == mtime)
        #expect(warnings == ["\(json): entry 2 left out (no \"added\")"])
        #expect(!FileSystem.exists(json))
        #expect(try AtomicFile.read(json + ".imported") == Array(file.utf8))
        let again = Library(directory: h.playlistDirectory, log: Log(level: .error))
        #expect(Array(again.entries) == Array(library.entries))
        #expect(again.lastChange == mtime)
    }

    @Test func aLibraryJSONBesideADatabaseInUseIsNotImported() throws {
        let h = Harness()
        let c = h.connect()
        #expect(h.send(c, "libraryadd deezer:artist:27\n") == "OK\n")
        let json = h.playlistDirectory + "/library.json"
        try AtomicFile.write(Array(#"[{"uri":"deezer:track:7","added":10,"songs":[]}]"#.utf8), to: json)
        let library = Library(directory: h.playlistDirectory, log: Log(level: .error))
        #expect(library.entries.map(\.uri) == ["deezer:artist:27"])
        #expect(FileSystem.exists(json + ".imported"))
    }

    @Test func aFileThatIsNoDatabaseIsKeptAside() throws {
        var template = Array("/tmp/previewd-library-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer {
            for name in (try? FileSystem.entries(ofDirectory: dir)) ?? [] where name != "." && name != ".." {
                unlink(dir + "/" + name)
            }
            rmdir(dir)
        }
        // A file some other program wrote under that name.
        let junk = Array(String(repeating: "not a database. ", count: 256).utf8)
        try AtomicFile.write(junk, to: dir + "/library.sqlite")
        let library = Library(directory: dir, log: Log(level: .error))
        #expect(library.entries.isEmpty)
        let aside = try FileSystem.entries(ofDirectory: dir).filter { $0.hasPrefix("library.sqlite.corrupt-") }
        #expect(aside.count == 1)
        #expect(try AtomicFile.read(dir + "/" + (aside.first ?? "")) == junk)
        let resolved = Library.Resolved(name: nil, artist: nil, songs: [Self.song])
        #expect(try library.add("deezer:track:7", resolved, at: 5))
        #expect(Library(directory: dir, log: Log(level: .error)).songs == [Self.song])
    }

    @Test func aDatabaseThatCannotBeOpenedFailsEachChangeWithSQLitesMessage() throws {
        let library = Library(directory: "/nonexistent-previewd-dir", log: Log(level: .error))
        #expect(library.entries.isEmpty && library.lastChange == 0)
        let resolved = Library.Resolved(name: nil, artist: nil, songs: [Self.song])
        let error = try #require(throws: StorageError.self) { try library.add("deezer:track:7", resolved, at: 5) }
        guard case .database(let path, let e) = error else { Issue.record("\(error)"); return }
        #expect(path == "/nonexistent-previewd-dir/library.sqlite")
        #expect(e.function == "sqlite3_open_v2" && e.message == "unable to open database file")
        #expect(error.protocolError.message == "cannot write /nonexistent-previewd-dir/library.sqlite: unable to open database file")
        #expect(!library.contains("deezer:track:7"))
    }
}
