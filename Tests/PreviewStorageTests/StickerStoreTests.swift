import Glibc
import PreviewCore
import PreviewPlatform
import Testing
@testable import PreviewStorage

/// `sticker.sqlite`: what is set is read back, after a reopen too; `find`
/// compares as mpd's SQL does; the count is bounded.
@Suite struct StickerStoreTests {
    static func path(_ name: String) -> String {
        let path = "/tmp/previewd-stickers-\(getpid())-\(name).sqlite"
        try? FileSystem.remove(path)
        return path
    }

    @Test func setGetListDeleteAndReopen() throws {
        let path = Self.path("basic")
        defer { try? FileSystem.remove(path) }
        do {
            let store = try StickerStore(path: path)
            try store.set(uri: "deezer:track:1", name: "rating", value: "5")
            try store.set(uri: "deezer:track:1", name: "a b", value: "x=y")
            try store.set(uri: "deezer:track:1", name: "rating", value: "4")
            #expect(try store.value(uri: "deezer:track:1", name: "rating") == "4")
            #expect(try store.value(uri: "deezer:track:2", name: "rating") == nil)
        }
        let store = try StickerStore(path: path)
        #expect(try store.list(uri: "deezer:track:1") == [.init(name: "a b", value: "x=y"), .init(name: "rating", value: "4")])
        #expect(try store.delete(uri: "deezer:track:1", name: "nosuch") == false)
        #expect(try store.delete(uri: "deezer:track:1", name: "a b") == true)
        #expect(try store.delete(uri: "deezer:track:1", name: nil) == true)
        #expect(try store.delete(uri: "deezer:track:1", name: nil) == false)
        #expect(try store.count() == 0)
    }

    @Test func findComparesAsTextUnderABase() throws {
        let path = Self.path("find")
        defer { try? FileSystem.remove(path) }
        let store = try StickerStore(path: path)
        try store.set(uri: "deezer:track:2", name: "rating", value: "2")
        try store.set(uri: "deezer:track:1", name: "rating", value: "5")
        try store.set(uri: "dir/a%b", name: "rating", value: "3")
        try store.set(uri: "dirx/c", name: "rating", value: "3")
        let all = try store.find(base: "", name: "rating", comparison: nil)
        #expect(all.map(\.uri) == ["deezer:track:1", "deezer:track:2", "dir/a%b", "dirx/c"])
        #expect(try store.find(base: "", name: "rating", comparison: .greaterThan("3")).map(\.uri) == ["deezer:track:1"])
        #expect(try store.find(base: "", name: "rating", comparison: .lessThan("3")).map(\.uri) == ["deezer:track:2"])
        #expect(try store.find(base: "", name: "rating", comparison: .equals("3")).map(\.uri) == ["dir/a%b", "dirx/c"])
        #expect(try store.find(base: "dir", name: "rating", comparison: nil).map(\.uri) == ["dir/a%b"])
        #expect(try store.find(base: "deezer:track:1", name: "rating", comparison: nil).map(\.value) == ["5"])
        #expect(try store.find(base: "", name: "nosuch", comparison: nil).isEmpty)
    }

    @Test func incrementAndDecrementStartFromTheValueOrZero() throws {
        let path = Self.path("add")
        defer { try? FileSystem.remove(path) }
        let store = try StickerStore(path: path)
        #expect(try store.add(uri: "deezer:track:1", name: "plays", delta: 3) == 3)
        #expect(try store.add(uri: "deezer:track:1", name: "plays", delta: -5) == -2)
        try store.set(uri: "deezer:track:1", name: "word", value: "abc")
        #expect(try store.add(uri: "deezer:track:1", name: "word", delta: 1) == 1)
        try store.set(uri: "deezer:track:1", name: "big", value: String(Int64.max))
        #expect(try store.add(uri: "deezer:track:1", name: "big", delta: 1) == Int64.max)
        #expect(try store.value(uri: "deezer:track:1", name: "plays") == "-2")
    }

    @Test func aNewStickerPastTheBoundIsRefusedAndAChangeIsNot() throws {
        let path = Self.path("bound")
        defer { try? FileSystem.remove(path) }
        let store = try StickerStore(path: path, maxStickers: 3)
        for i in 1...3 { try store.set(uri: "deezer:track:\(i)", name: "rating", value: "1") }
        #expect(throws: StorageError.stickerLimit(3)) { try store.set(uri: "deezer:track:4", name: "rating", value: "1") }
        #expect(throws: StorageError.stickerLimit(3)) { try store.add(uri: "deezer:track:1", name: "plays", delta: 1) }
        try store.set(uri: "deezer:track:1", name: "rating", value: "2")
        #expect(try store.add(uri: "deezer:track:2", name: "rating", delta: 1) == 2)
        #expect(try store.count() == 3)
    }
}
