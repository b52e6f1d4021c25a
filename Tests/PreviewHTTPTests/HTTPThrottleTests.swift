@testable import PreviewHTTP
import Testing

/// 127.0.0.1 and 127.0.0.2 as `in_addr.s_addr` stores them.
private let first = UInt32(0x7F00_0001).bigEndian
private let second = UInt32(0x7F00_0002).bigEndian

@Suite struct HTTPPasswordThrottleTests {
    @Test func eachWrongPasswordWaitsTwiceAsLongUpToFiveSecondsThenLocksOut() {
        var throttle = HTTPPasswordThrottle()
        var penalties: [HTTPPasswordThrottle.Penalty] = []
        for n in 0..<10 {
            #expect(throttle.admit(first, now: Double(n)) == .check)
            penalties.append(throttle.failed(first, now: Double(n)))
        }
        #expect(penalties == [0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 5, 5, 5].map { .delay(seconds: $0) } + [.lockedOutNow(seconds: 300)])
        // Locked out, even with the right password: 429 before any check.
        #expect(throttle.admit(first, now: 9.5) == .lockedOut(secondsLeft: 300))
        #expect(throttle.admit(first, now: 308.2) == .lockedOut(secondsLeft: 1))
        // A guess made alongside the one that locked it is refused too.
        #expect(throttle.failed(first, now: 10) == .lockedOut(secondsLeft: 299))
        // Another address is not held up.
        #expect(throttle.admit(second, now: 10) == .check)
        // The lockout ends after 5 minutes, and the count starts again.
        #expect(throttle.admit(first, now: 309) == .check)
        #expect(throttle.failed(first, now: 309) == .delay(seconds: 0.1))
    }

    @Test func theRightPasswordStartsTheCountAgain() {
        var throttle = HTTPPasswordThrottle()
        for n in 0..<9 { _ = throttle.failed(first, now: Double(n)) }
        throttle.succeeded(first)
        #expect(throttle.count == 0)
        #expect(throttle.failed(first, now: 10) == .delay(seconds: 0.1))
    }

    @Test func aCountIsForgottenFiveMinutesAfterItsLastWrongPassword() {
        var throttle = HTTPPasswordThrottle()
        for n in 0..<3 { _ = throttle.failed(first, now: Double(n)) }
        #expect(throttle.failed(first, now: 301) == .delay(seconds: 0.8))
        #expect(throttle.admit(first, now: 601) == .check)
        #expect(throttle.count == 0)
    }

    @Test func theTableKeepsTheAddressesWithTheLatestWrongPasswords() {
        var throttle = HTTPPasswordThrottle(capacity: 3)
        for address in UInt32(1)...4 { _ = throttle.failed(address, now: Double(address)) }
        #expect(throttle.count == 3)
        // Address 1, the oldest, was forgotten (back, it pushes out 2, now the oldest); 3 still counts.
        #expect(throttle.failed(1, now: 5) == .delay(seconds: 0.1))
        #expect(throttle.failed(3, now: 6) == .delay(seconds: 0.2))
    }
}

@Suite struct HTTPDeadlineTableTests {
    @Test func aConnectionOwingARequestPastItsDeadlineIsGivenOnce() {
        var table = HTTPDeadlineTable()
        table.expect(1, socket: 11, by: 10)
        table.expect(2, socket: 12, by: 12)
        table.expect(3, socket: 13, by: 10)
        table.forget(3)  // its headers came
        #expect(table.takeOverdue(now: 9.9) == [])
        #expect(table.takeOverdue(now: 10) == [11])
        #expect(table.takeOverdue(now: 11) == [])
        // Answered: it owes the next request by a new deadline.
        table.expect(2, socket: 12, by: 20)
        #expect(table.takeOverdue(now: 15) == [])
        #expect(table.takeOverdue(now: 20) == [12])
        #expect(table.count == 0)
    }
}

@Suite struct HTTPTargetTests {
    @Test func aPercentEncodedNULAnywhereIsSeen() {
        #expect(HTTPTarget.holdsNUL("/app.js%00.html"))
        #expect(HTTPTarget.holdsNUL("/api/mpd%00?c=status"))
        #expect(HTTPTarget.holdsNUL("/api/mpd?c=status%00play"))
        #expect(!HTTPTarget.holdsNUL("/api/mpd?c=setvol%2000"))
        #expect(!HTTPTarget.holdsNUL("/cover?uri=deezer:album:100"))
    }
}
