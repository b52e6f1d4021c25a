import PreviewCore
import Testing
@testable import PreviewServer

/// `IdleWait`: what a connection waits for and the changes it has not heard.
@Suite struct IdleWaitTests {
    @Test func changesWaitForTheNextIdleThatNamesThem() {
        var w = IdleWait()
        #expect(w.note(.player) == nil, "not idle: kept")
        #expect(w.note(.mixer) == nil)
        #expect(w.startIdle(.mixer) == "changed: mixer\nOK\n")
        #expect(w.pending.isEmpty, "an idle that returns forgets every change, as mpd's")
        #expect(!w.isWaiting)
    }

    @Test func anIdleReturnsOnTheFirstChangeInItsMask() {
        var w = IdleWait()
        #expect(w.startIdle([.playlist, .player]) == nil)
        #expect(w.isWaiting)
        #expect(w.note(.mixer) == nil, "outside the mask")
        #expect(w.note(.player) == "changed: player\nOK\n")
        #expect(!w.isWaiting)
    }

    @Test func noidleKeepsWhatWasPending() {
        var w = IdleWait()
        #expect(w.startIdle(.player) == nil)
        #expect(w.note(.mixer) == nil)
        w.stop()
        #expect(!w.isWaiting)
        #expect(w.startIdle(.mixer) == "changed: mixer\nOK\n")
    }

    @Test func anEventsStreamTicksFromItsStart() {
        var w = IdleWait()
        w.startEvents(tick: 2.5, now: 100)
        #expect(w.isWaiting && w.inEventStream)
        #expect(w.nextTick == 102.5)
        w.stop()
        #expect(!w.inEventStream && w.nextTick == .infinity && w.tickInterval == nil)
        w.startEvents(tick: nil, now: 100)
        #expect(w.nextTick == .infinity)
    }
}
