import Foundation
import Glibc
import PreviewCore
import PreviewTestSupport
import Testing
import PreviewFuzz
import PreviewPlatform
@testable import PreviewStorage

/// Every fuzzing seed and every input that once crashed (contrib/fuzz),
/// replayed through the same entry points the fuzzer drives.
@Suite struct FuzzRegressionTests {
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/contrib/fuzz"
    }()

    static func files(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if !name.hasPrefix(".") { out.append(directory + "/" + name) }
        }
        return out.sorted()
    }

    @Test(arguments: FuzzEntry.targets)
    func seedsAndRegressionsRunClean(target: String) throws {
        let inputs = Self.files(in: Self.root + "/seeds/" + target) + Self.files(in: Self.root + "/regressions/" + target)
        #expect(!Self.files(in: Self.root + "/seeds/" + target).isEmpty, "every target has seeds")
        // One directory per target (they run at once), removed at the end.
        let directory = "/tmp/previewd-fuzz-regressions-\(getpid())-\(target)"
        mkdir(directory, 0o700)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for path in inputs {
            let bytes = try #require(try AtomicFile.read(path))
            #expect(FuzzEntry.run(target, bytes, engine: FakeEngine(), directory: directory) == .clean, "\(path)")
        }
    }

    /// The targets that start from a state file get past its checks with
    /// their seeds, so they reach the restore and the formatting behind it.
    @Test func stateSeedsReachTheRestore() throws {
        let state = try #require(try AtomicFile.read(Self.root + "/seeds/state/state.json"))
        let record = try #require(try AtomicFile.read(Self.root + "/seeds/events/record"))
        for bytes in [state, Array(record.drop { $0 != 0x0A }.dropFirst())] {
            let saved = try JSONDecoder().decode(SavedState.self, from: Data(bytes))
            #expect(saved.problem == nil)
            #expect(!saved.queue.isEmpty)
        }
    }

    @Test func unknownTargetsAreRefused() {
        #expect(FuzzEntry.run("nope", [], engine: FakeEngine(), directory: "/tmp") == .unknownTarget)
    }
}
