/// Order keys for a queue stored one row per song: each row holds a key,
/// and the queue is the rows sorted by key. Keys leave gaps, so a song
/// added, moved or removed changes its own row and not the rows of every
/// song after it (a 200,000-song queue rewrote 76 MB in 10 s as one file).
///
/// `plan` keeps the keys of the longest run of stored songs still in order
/// and gives new keys only to the others, spread in the gap they fall in;
/// where a gap is too narrow, it widens the window around it (doubling)
/// and renumbers that, so repeated inserts at one place cost O(log n)
/// rows each over time.
public enum QueueOrder {
    /// The distance between keys given at either end of the queue (and to
    /// a queue renumbered whole): 2³² leaves room for 2³¹ songs added at
    /// the end before any renumbering.
    public static let step: Int64 = 1 << 32

    /// New keys that make the keys increase along the queue.
    /// - Parameter keys: for each queue position, the stored key of the
    ///   song there, or nil for a song not stored yet. Stored keys are
    ///   positive and distinct.
    /// - Returns: for each position whose key must change (nil keys
    ///   included), its new key; every key after the change is positive,
    ///   distinct and increasing with the position.
    public static func plan(_ keys: [Int64?]) -> [Int: Int64] {
        let kept = longestIncreasingRun(keys)
        var result = keys.indices.map { kept[$0] ? keys[$0] : nil }
        var changed: [Int: Int64] = [:]
        var i = 0
        while i < result.count {
            guard result[i] == nil else { i += 1; continue }
            var end = i
            while end < result.count, result[end] == nil { end += 1 }
            let window = place(&result, from: i, to: end)
            for p in window { changed[p] = result[p]! }
            i = max(end, window.upperBound)
        }
        for (p, key) in changed where keys[p] == key { changed[p] = nil }
        return changed
    }

    /// Gives keys to positions `start..<end` (nil in `keys`), between the
    /// keys around them, widening the window over kept keys while the gap
    /// is too narrow.
    /// - Returns: the window renumbered (it contains `start..<end`).
    private static func place(_ keys: inout [Int64?], from start: Int, to end: Int) -> Range<Int> {
        var a = start, b = end
        while true {
            let lo = a > 0 ? keys[a - 1]! : 0
            let count = Int64(b - a)
            if b == keys.count {
                // At the end: steps after the last key, while they fit.
                if lo <= Int64.max - step * (count + 1) {
                    for (n, p) in (a..<b).enumerated() { keys[p] = lo + step * Int64(n + 1) }
                    return a..<b
                }
            } else {
                let hi = keys[b]!
                let gap = (hi - lo) / (count + 1)
                if gap >= 1 {
                    // At the start the keys end one step below the first kept one.
                    let spacing = a == 0 ? min(gap, step) : gap
                    let first = a == 0 ? hi - spacing * count : lo + gap
                    for (n, p) in (a..<b).enumerated() { keys[p] = first + spacing * Int64(n) }
                    return a..<b
                }
            }
            if a == 0 && b == keys.count {
                for p in keys.indices { keys[p] = step * Int64(p + 1) }
                return 0..<keys.count
            }
            // Twice as wide, to the next kept key on the right.
            let width = b - a
            a = max(0, a - width)
            b = min(keys.count, b + width)
            while b < keys.count, keys[b] == nil { b += 1 }
            for p in a..<b { keys[p] = nil }
        }
    }

    /// Which positions keep their key: those of a longest strictly
    /// increasing subsequence of the stored keys (patience sorting,
    /// O(n log n); O(n) when they are all in order already).
    static func longestIncreasingRun(_ keys: [Int64?]) -> [Bool] {
        var inOrder = true
        var last = Int64.min
        for key in keys {
            guard let key else { continue }
            if key <= last { inOrder = false; break }
            last = key
        }
        if inOrder { return keys.map { $0 != nil } }
        // tails[k]: the position ending the best run of length k + 1 found.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: keys.count)
        for (p, key) in keys.enumerated() {
            guard let key else { continue }
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if keys[tails[mid]]! < key { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[p] = tails[low - 1] }
            if low == tails.count { tails.append(p) } else { tails[low] = p }
        }
        var kept = [Bool](repeating: false, count: keys.count)
        var p = tails.last ?? -1
        while p >= 0 {
            kept[p] = true
            p = previous[p]
        }
        return kept
    }
}
