import PreviewPlatform

/// Temporary files a save leaves behind when previewd is killed between
/// writing `NAME.tmp-PID` and renaming it over `NAME` (`AtomicFile`).
/// Nothing else removes them, so each kill -9 during a save would keep one
/// for ever.
package enum StaleTemporaryFiles {
    /// Removes every `*.tmp-PID` in `directories` whose PID is not this
    /// process's. Call it holding the state directory's lock: no other
    /// previewd can be writing there then.
    /// - Returns: the paths removed.
    package static func remove(in directories: [String]) -> [String] {
        let own = ThisProcess.id
        var removed: [String] = []
        for directory in directories {
            for name in (try? FileSystem.entries(ofDirectory: directory)) ?? [] {
                guard let pid = pid(ofTemporary: name), pid != own else { continue }
                let path = directory + "/" + name
                guard FileSystem.kind(ofLink: path) == .regular, (try? FileSystem.remove(path)) != nil else { continue }
                removed.append(path)
            }
        }
        return removed
    }

    /// The PID of a name `BASE.tmp-PID`, or nil for any other name.
    static func pid(ofTemporary name: String) -> Int32? {
        guard let mark = name.ranges(of: ".tmp-").last, mark.lowerBound > name.startIndex else { return nil }
        let digits = name[mark.upperBound...]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int32(digits)
    }
}
