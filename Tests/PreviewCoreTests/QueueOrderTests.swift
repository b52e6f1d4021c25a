import Testing
@testable import PreviewCore

/// The stored queue's order keys: what changes gets new keys, the rest keeps theirs.
@Suite struct QueueOrderTests {
    let step = QueueOrder.step

    /// Keys after applying `plan`, checked to increase.
    func apply(_ keys: [Int64?]) -> (keys: [Int64], changed: Int) {
        let plan = QueueOrder.plan(keys)
        let result = keys.indices.map { plan[$0] ?? keys[$0]! }
        #expect(zip(result, result.dropFirst()).allSatisfy { $0 < $1 } && (result.first ?? 1) > 0, "\(result)")
        return (result, plan.count)
    }

    @Test func aFreshQueueGetsStepsAndAnAddOneKey() {
        let fresh = apply([nil, nil, nil])
        #expect(fresh.keys == [step, 2 * step, 3 * step])
        let added = apply(fresh.keys.map { $0 } + [nil])
        #expect(added.changed == 1 && added.keys.last == 4 * step)
    }

    @Test func removalsAndInsertsAtTheFrontTouchOnlyThemselves() {
        let keys: [Int64?] = (1...1000).map { Int64($0) * step }
        #expect(apply(Array(keys.dropFirst(10))).changed == 0)
        let front = apply([nil, nil] + keys)
        #expect(front.changed == 2 && front.keys[1] < step)
        let middle = apply(Array(keys[..<500]) + [nil] + Array(keys[500...]))
        #expect(middle.changed == 1)
    }

    @Test func movingTheLastSongToTheFrontRekeysOneSong() {
        let keys: [Int64?] = (1...1000).map { Int64($0) * step }
        let moved = [keys.last!] + keys.dropLast()
        #expect(apply(moved).changed == 1)
        let swapped = [keys[1], keys[0]] + keys.dropFirst(2)
        #expect(apply(swapped).changed == 1)
    }

    @Test func repeatedInsertsAtOnePlaceWidenTheWindowNotTheWholeQueue() {
        var keys: [Int64?] = (1...10_000).map { Int64($0) * step }
        var total = 0
        // 200 songs, each inserted right after position 5000 ("play next").
        for _ in 0..<200 {
            keys.insert(nil, at: 5001)
            let result = apply(keys)
            total += result.changed
            keys = result.keys.map { $0 }
        }
        #expect(total < 200 * 20, "rows rewritten: \(total)")
    }

    @Test func aShuffleKeepsTheLongestRunInOrder() {
        var rng = SplitMix64(seed: 7)
        let keys: [Int64?] = (1...2000).map { Int64($0) * step }
        let shuffled = keys.shuffled(using: &rng)
        let kept = QueueOrder.longestIncreasingRun(shuffled).filter { $0 }.count
        #expect(apply(shuffled).changed == 2000 - kept)
        #expect(kept > 40)  // about 2√n for a random order
    }
}
