import PreviewCore
import Testing

/// `Later`, the sequencing helper of the catalog's requests.
@Suite struct LaterTests {
    /// A value delivered when the test says (as an HTTP answer is), with
    /// the order things were started in.
    final class Pending {
        var waiting: [(String, (Int) -> Void)] = []
        var started: [String] = []
        func value(_ name: String) -> Later<Int> {
            Later { done in
                self.started.append(name)
                self.waiting.append((name, done))
            }
        }
        func deliver(_ name: String, _ value: Int) {
            let i = waiting.firstIndex { $0.0 == name }!
            waiting.remove(at: i).1(value)
        }
    }

    @Test func nothingStartsBeforeRun() {
        let p = Pending()
        let later = p.value("a").map { $0 + 1 }
        #expect(p.started == [])
        var got: Int?
        later.run { got = $0 }
        #expect(p.started == ["a"])
        p.deliver("a", 41)
        #expect(got == 42)
    }

    @Test func thenStartsTheNextStepOnlyWhenTheFirstHasAnswered() {
        let p = Pending()
        var got: Int?
        p.value("a").then { a in p.value("b").map { a * 10 + $0 } }.run { got = $0 }
        #expect(p.started == ["a"])
        p.deliver("a", 4)
        #expect(p.started == ["a", "b"])
        p.deliver("b", 2)
        #expect(got == 42)
    }

    @Test func allStartsEveryOneAtOnceAndKeepsTheirOrder() {
        let p = Pending()
        var got: [Int]?
        Later.all([p.value("a"), p.value("b"), p.value("c")]).run { got = $0 }
        #expect(p.started == ["a", "b", "c"])
        p.deliver("c", 3)
        p.deliver("a", 1)
        #expect(got == nil)
        p.deliver("b", 2)
        #expect(got == [1, 2, 3])
        var none: [Int]?
        Later<Int>.all([]).run { none = $0 }
        #expect(none == [])
    }

    @Test func withinDeliversWhicheverComesFirstAndDropsTheOther() {
        var timers: [(Double, () -> Void)] = []
        let schedule = { (seconds: Double, action: @escaping () -> Void) in timers.append((seconds, action)) }
        let p = Pending()
        var got: [Int] = []
        p.value("a").within(5, or: -1, schedule: schedule).run { got.append($0) }
        #expect(timers.map(\.0) == [5] && p.started == ["a"])
        p.deliver("a", 7)
        timers.removeFirst().1()
        #expect(got == [7], "in time: the value; the timer then does nothing")
        p.value("b").within(5, or: -1, schedule: schedule).run { got.append($0) }
        timers.removeFirst().1()
        p.deliver("b", 8)
        #expect(got == [7, -1], "late: the fallback; the value then does nothing")
    }

    @Test func aFailurePassesThenIfSuccessUnchanged() {
        struct Failed: Error, Equatable {}
        var steps = 0
        var got: Result<Int, Failed>?
        Later<Result<Int, Failed>>.now(.failure(Failed())).thenIfSuccess { (v: Int) -> Later<Result<Int, Failed>> in
            steps += 1
            return .now(.success(v))
        }.run { got = $0 }
        #expect(steps == 0)
        #expect(got == .failure(Failed()))
        Later<Result<Int, Failed>>.now(.success(20)).thenIfSuccess { .now(.success($0 + 22)) }.run { got = $0 }
        #expect(got == .success(42))
    }
}

@Suite struct RepeatLimiterTests {
    @Test func oneLineAKindPerIntervalWithTheCountHeldBack() {
        var limiter = RepeatLimiter(interval: 10)
        #expect(limiter.admit("full", now: 100) == 0)
        #expect(limiter.admit("full", now: 101) == nil)
        #expect(limiter.admit("uid", now: 101) == 0)  // kinds are apart
        #expect(limiter.admit("full", now: 109.9) == nil)
        #expect(limiter.admit("full", now: 110) == 2)
        #expect(limiter.suffix(held: 2) == " (and 2 more like it since the last such line)")
        #expect(limiter.suffix(held: 0) == "")
    }
}
