/// Finding a Deezer genre by the name a person types: `--genre rock`,
/// `genre "rap/hip hop"`. Deezer's `/genre` list is small (about 25), so a
/// linear scan with an edit distance is cheap.
public enum GenreMatch {
    /// What a name matched.
    public enum Outcome: Equatable, Sendable {
        /// The genre id whose name equals the text, case aside.
        case found(Int)
        /// No name equals it; `close` are the names that look like it
        /// (prefix, substring or a few typos), best first; may be empty.
        case notFound(close: [String])
    }

    /// Matches `text` against `genres` (id and name each).
    /// - Parameter text: a genre name in any case; a decimal number is an
    ///   id and is taken as it is, whether or not the list has it.
    public static func find(_ text: String, in genres: [(id: Int, name: String)]) -> Outcome {
        if let id = Int(text), id >= 0 { return .found(id) }
        let wanted = fold(text)
        if let hit = genres.first(where: { fold($0.name) == wanted }) { return .found(hit.id) }
        // Scored: 0 prefix, 1 substring, 2 + edit distance for typos.
        var scored: [(score: Int, name: String)] = []
        for g in genres {
            let name = fold(g.name)
            if name.hasPrefix(wanted) || wanted.hasPrefix(name) {
                scored.append((0, g.name))
            } else if name.contains(wanted) || wanted.contains(name) {
                scored.append((1, g.name))
            } else {
                // A few typos in the whole name or in one of its words
                // ("musik" is close to every "... Music").
                let words = name.split(whereSeparator: { $0 == " " || $0 == "/" }).map(String.init)
                let d = ([name] + words).map { distance(wanted, $0) }.min()!
                if d <= max(1, wanted.count / 3) { scored.append((2 + d, g.name)) }
            }
        }
        let close = scored.enumerated().sorted { ($0.element.score, $0.offset) < ($1.element.score, $1.offset) }
        return .notFound(close: close.map(\.element.name))
    }

    /// The text of the "unknown genre" refusal: the close names, or every
    /// name when none is close, so the user always sees what to type.
    public static func refusal(_ text: String, close: [String], all: [String]) -> String {
        if close.isEmpty { return "unknown genre \"\(text)\"; genres are: " + all.joined(separator: ", ") }
        return "unknown genre \"\(text)\"; close matches: " + close.joined(separator: ", ")
    }

    /// Lower-cased, with surrounding spaces dropped (Deezer's names carry
    /// none, but typed ones may).
    static func fold(_ s: String) -> String {
        String(s.lowercased().drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }

    /// Levenshtein distance over characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let above = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = above
            }
        }
        return row[b.count]
    }
}
