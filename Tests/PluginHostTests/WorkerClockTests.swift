import Foundation
import Testing

@testable import PluginWorkerCore

/// The worker's `now_ms`: the server's clock from the latest frame, advanced by monotonic time.
@Suite("Worker clock")
struct WorkerClockTests {
    @Test func beforeAnyFrameItIsTheWallClock() {
        let wall = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(abs(WorkerClock().nowMilliseconds() - wall) < 1_000)
    }

    @Test func aFrozenServerClockIsSeenAsItWasSent() {
        let clock = WorkerClock()
        clock.update(1_800_000_000_000)
        let seen = clock.nowMilliseconds()
        #expect(seen >= 1_800_000_000_000)
        #expect(seen < 1_800_000_000_000 + 500)
    }

    @Test func itAdvancesWithElapsedTimeAndFollowsTheLatestFrame() throws {
        let clock = WorkerClock()
        clock.update(5_000)
        // Time is the subject: the clock must move with real elapsed time between frames.
        Thread.sleep(forTimeInterval: 0.05)
        #expect(clock.nowMilliseconds() >= 5_050)
        // The server's clock went back (a test clock, say): the worker follows it.
        clock.update(1_000)
        #expect((1_000..<1_500).contains(clock.nowMilliseconds()))
    }
}
