import Glibc
import PreviewCore
import PreviewPlatform
import Testing
@testable import PreviewStorage

/// `want.json`: the names the catalog gave are kept with their entries
/// and read back; an entry whose kept name is out of bounds is refused.
@Suite struct WantListTests {
    @Test func namesAreKeptOnceAndReadBack() throws {
        let path = "/tmp/previewd-want-\(getpid()).json"
        try? FileSystem.remove(path)
        defer { try? FileSystem.remove(path) }
        let log = Log(level: .error)
        let wants = WantList(file: JSONFile(path: path, log: log))
        #expect(try wants.add("deezer:album:302127", at: 100))
        #expect(try wants.add("deezer:track:3135556", at: 200))
        try wants.remember(["deezer:album:302127": ("Discovery", "Daft Punk"), "deezer:album:1": ("X", nil)])
        // A name once kept is not replaced by a later description.
        try wants.remember(["deezer:album:302127": ("Other", nil)])
        let again = WantList(file: JSONFile(path: path, log: log))
        #expect(
            again.entries == [
                WantList.Entry(uri: "deezer:track:3135556", added: 200),
                WantList.Entry(uri: "deezer:album:302127", added: 100, name: "Discovery", artist: "Daft Punk"),
            ])
        var long = WantList.Entry(uri: "deezer:album:1", added: 1, name: String(repeating: "n", count: WantList.maxNameBytes + 1))
        #expect(long.problem == "name longer than 1024 bytes")
        long.name = nil
        #expect(long.problem == nil)
    }
}
