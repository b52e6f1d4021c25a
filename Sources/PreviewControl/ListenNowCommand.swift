import PreviewCore

/// `previewctl now [--play N | --add N] [--json]`: Listen Now's sections
/// (`catalognow`), numbered from 1 across all of them, so that one number
/// picks an entry to queue.
public struct ListenNowSections: Equatable, Sendable {
    /// Each section's title and records, in the daemon's order.
    public var sections: [(title: String, records: [CatalogRecord])]

    public static func == (a: ListenNowSections, b: ListenNowSections) -> Bool {
        a.sections.elementsEqual(b.sections) { $0.title == $1.title && $0.records == $1.records }
    }

    /// Splits `catalognow`'s fields at each `section:` line.
    public init(_ fields: [(String, String)]) {
        var out: [(title: String, fields: [(String, String)])] = []
        for (k, v) in fields {
            if k == "section" { out.append((v, [])) } else if !out.isEmpty { out[out.count - 1].fields.append((k, v)) }
        }
        sections = out.map { ($0.title, CatalogRecord.split($0.fields)) }
    }

    /// Entries in all sections.
    public var count: Int { sections.reduce(0) { $0 + $1.records.count } }

    /// Entry `number` (from 1, across sections), or nil.
    public func entry(_ number: Int) -> CatalogRecord? {
        var n = number
        for section in sections {
            if n >= 1, n <= section.records.count { return section.records[n - 1] }
            n -= section.records.count
        }
        return nil
    }

    /// Section titles, then `  N. Artist - Title  URI` lines.
    public func text() -> String {
        guard count > 0 else { return "nothing to show yet\n" }
        var out = ""
        var n = 0
        for section in sections {
            out += (out.isEmpty ? "" : "\n") + section.title + "\n"
            for record in section.records {
                n += 1
                let note = record.unplayable == nil ? "" : "  (not playable)"
                out += "\(String(n).leftPadded(to: String(count).count + 2)). \(record.label)  \(record.uri)\(note)\n"
            }
        }
        return out
    }

    /// `{"sections":[{"title":…,"results":[…]}]}`: each section is the
    /// catalog commands' document with its title.
    public func json() -> String {
        let parts = sections.map { section -> String in
            let doc = CatalogFormat.json(section.records, total: nil)
            return "{\"title\":" + CatalogFormat.jsonString(section.title) + "," + doc.dropFirst().dropLast()
        }
        return "{\"sections\":[" + parts.joined(separator: ",") + "]}\n"
    }
}

/// What `now` does with one entry.
public struct ListenNowPick: Equatable, Sendable {
    /// The entry's number, from 1.
    public var number: Int
    /// Play it (else only queue it).
    public var play: Bool
}

extension Subcommand {
    /// `now [--play N | --add N] [--json]`.
    func now() throws(UsageError) -> ControlCommand {
        var pick: ListenNowPick?
        var json = false
        var i = 0
        while i < args.count {
            switch args[i] {
            case "--json": json = true
            case "--play", "--add":
                guard pick == nil else { throw UsageError(message: "now takes one of --play N and --add N") }
                guard i + 1 < args.count, let n = Int(args[i + 1]), n >= 1, n <= Int(Int32.max) else {
                    throw UsageError(message: "\(args[i]) takes an entry number from 1")
                }
                pick = ListenNowPick(number: n, play: args[i] == "--play")
                i += 1
            default: throw UsageError(message: "now takes --play N, --add N or --json, not \"\(args[i])\"")
            }
            i += 1
        }
        return .now(pick, json: json)
    }
}

extension String {
    /// The string with spaces before it, to `width` characters.
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
