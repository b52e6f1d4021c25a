import FoundationEssentials
import PreviewPlatform

extension LibraryStore {
    /// What `open` gives the Library.
    struct Opened {
        /// The store, or why the database cannot be opened: the Library is
        /// then empty and each change fails with that error.
        var store: Result<LibraryStore, SQLiteError>
        var contents = Contents()
    }

    /// Opens `library.sqlite` in `directory` and reads it. A file that is
    /// no database is kept aside as `library.sqlite.corrupt-UNIXTIME`
    /// (with its `-wal`), logged, and a new one started, as `JSONFile`
    /// does with a JSON file. A `library.json` (the store before SQLite) is
    /// imported into a database that never had a change, then renamed
    /// `library.json.imported`.
    /// - Parameter warn: told of each entry left out.
    static func open(directory: String, log: Log, warn: (String) -> Void) -> Opened {
        let path = directory + "/library.sqlite"
        do {
            return try attempt(path: path, directory: directory, log: log, warn: warn)
        } catch  where error.isDamagedFile {
            DatabaseFile.setAside(path, reason: error.message, log: log)
            do { return try attempt(path: path, directory: directory, log: log, warn: warn) } catch {
                log.error("cannot open \(path): \(error); the library stays empty")
                return Opened(store: .failure(error))
            }
        } catch {
            log.error("cannot open \(path): \(error); the library stays empty")
            return Opened(store: .failure(error))
        }
    }

    private static func attempt(
        path: String, directory: String, log: Log,
        warn: (String) -> Void
    ) throws(SQLiteError) -> Opened {
        let store = try LibraryStore(path: path)
        var contents = try store.load(warn: warn)
        let json = directory + "/library.json"
        guard FileSystem.exists(json) else { return Opened(store: .success(store), contents: contents) }
        if contents.lastChange == nil {
            guard let imported = store.importJSON(json, log: log, warn: warn) else {
                return Opened(store: .success(store), contents: contents)
            }
            contents = imported
            log.info("\(json): \(contents.entries.count) entries imported into \(path)")
        } else {
            // A start that ended between the import's commit and this rename,
            // or a file put back by hand: the database is what counts now.
            log.warning("\(json) not imported: \(path) holds the library already")
        }
        do { try FileSystem.rename(json, to: json + ".imported") } catch {
            log.error("cannot rename \(json): \(error)")
        }
        return Opened(store: .success(store), contents: contents)
    }

    /// The entries of `json` saved in one transaction, its modification
    /// time as the last change; nil when nothing could be imported (the
    /// file is left where it is, for the next start).
    private func importJSON(_ json: String, log: Log, warn: (String) -> Void) -> Contents? {
        let time = (try? FileSystem.modificationTime(json)) ?? Int(clamping: SystemClock.unixSeconds(), rounding: .down)
        // A file that does not parse is kept aside by JSONFile: nothing to import.
        guard let file = JSONFile<LibraryFile>(path: json, log: log).load() else { return nil }
        let entries = file.entries(path: json, warn: warn)
        do { try insertAll(entries, at: time) } catch {
            log.error("cannot import \(json): \(error)")
            return nil
        }
        return Contents(entries: entries, lastChange: time)
    }
}

/// `library.json`'s content (the Library's file before `library.sqlite`,
/// imported once): the entries, each decoded on its own, so one damaged
/// entry is left out (`entries` says which) instead of the whole file being
/// set aside.
struct LibraryFile: StoredValue {
    /// One array element: the entry, or why it does not decode.
    enum Slot {
        case entry(Library.Entry)
        case damaged(String)
    }
    /// The array's elements, in order.
    var slots: [Slot]
    /// Entries are checked one by one in `entries`.
    package var problem: String? { nil }

    init(entries: [Library.Entry]) { slots = entries.map { .entry($0) } }

    /// The usable entries, in order. One that does not decode, has a
    /// `problem`, or repeats an earlier URI is left out and reported to
    /// `warn`, naming the file at `path` and the entry's place (from 1).
    func entries(path: String, warn: (String) -> Void) -> [Library.Entry] {
        var entries: [Library.Entry] = []
        var seen = Set<String>()
        for (n, slot) in slots.enumerated() {
            let why: String
            switch slot {
            case .damaged(let reason): why = reason
            case .entry(let entry):
                if let problem = entry.problem {
                    why = problem
                } else if !seen.insert(entry.uri).inserted {
                    why = "\(entry.uri) twice"
                } else {
                    entries.append(entry)
                    continue
                }
            }
            warn("\(path): entry \(n + 1) left out (\(why))")
        }
        return entries
    }

    init(from decoder: any Decoder) throws {
        var array = try decoder.unkeyedContainer()
        var slots: [Slot] = []
        while !array.isAtEnd { slots.append(try array.decode(Element.self).slot) }
        self.slots = slots
    }

    func encode(to encoder: any Encoder) throws {
        var array = encoder.unkeyedContainer()
        for case .entry(let entry) in slots { try array.encode(entry) }
    }

    /// One element, decoded without failing the array.
    private struct Element: Decodable {
        let slot: Slot
        init(from decoder: any Decoder) {
            do { slot = .entry(try Library.Entry(from: decoder)) } catch { slot = .damaged(LibraryFile.describe(error)) }
        }
    }

    /// A decoding error in a line: what is wrong and where (the key path).
    static func describe(_ error: any Error) -> String {
        guard let e = error as? DecodingError else { return "\(error)" }
        switch e {
        case .keyNotFound(let key, _): return "no \"\(key.stringValue)\""
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
            return c.codingPath.map(\.stringValue).joined(separator: ".") + ": " + c.debugDescription
        @unknown default: return "\(e)"
        }
    }
}
