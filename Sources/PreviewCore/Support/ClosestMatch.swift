/// The "did you mean" of every program: the known name a mistyped one was
/// most likely meant to be (previewctl's commands, previewd's options and
/// settings keys, country names).
public enum ClosestMatch {
    /// The name in `names` closest to `word` by edit distance (insertions,
    /// deletions, substitutions and swaps of neighbours), when it is close
    /// enough to be a slip: at most 1 edit for words up to 4 letters, 2 beyond.
    public static func closest(to word: String, among names: [String]) -> String? {
        let limit = word.count <= 4 ? 1 : 2
        // A word longer than every name by more than the limit matches none,
        // and a 10 MB key would need a 10 MB-row table per name.
        guard word.utf8.count <= (names.map(\.utf8.count).max() ?? 0) + limit else { return nil }
        var best: (name: String, distance: Int)?
        for name in names {
            let d = distance(Array(word.lowercased()), Array(name))
            if d <= limit, d < (best?.distance ?? Int.max) { best = (name, d) }
        }
        return best?.name
    }

    /// Optimal string alignment distance (Damerau-Levenshtein without
    /// repeated edits of one substring).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
