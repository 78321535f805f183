import Foundation
import Testing

@testable import SwitchyardCore

struct CircuitBreakerTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    let settings = CircuitBreaker.Settings(failureThreshold: 3, window: 10, coolDown: 30)

    func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    @Test func opensAfterConsecutiveFailuresWithinTheWindow() {
        var b = CircuitBreaker(settings: settings)
        for s in [0.0, 1, 2] {
            let permitted = b.permit(at: at(s))
            #expect(permitted)
            b.record(.failure, at: at(s))
        }
        #expect(b.state == .open)
        let permitted1 = b.permit(at: at(3))
        #expect(!permitted1)
        #expect(!b.isAvailable(at: at(29)))
        #expect(b.isAvailable(at: at(33)))
        #expect(b.timesOpened == 1)
    }

    @Test func aSuccessOrAnExpiredWindowResetsTheCount() {
        var b = CircuitBreaker(settings: settings)
        b.record(.failure, at: at(0))
        b.record(.failure, at: at(1))
        b.record(.success, at: at(2))
        b.record(.failure, at: at(3))
        b.record(.failure, at: at(4))
        #expect(b.state == .closed)
        b.record(.failure, at: at(20))  // 17 s after the first of this run: a new window
        #expect(b.state == .closed)
        #expect(b.consecutiveFailures == 1)
    }

    @Test func afterTheCoolDownOneProbeDecides() {
        var b = CircuitBreaker(settings: settings)
        for s in [0.0, 1, 2] { b.record(.failure, at: at(s)) }
        let permitted2 = b.permit(at: at(31))
        #expect(!permitted2)
        let permitted3 = b.permit(at: at(32))
        #expect(permitted3)
        #expect(b.state == .halfOpen)
        let permitted4 = b.permit(at: at(32))
        #expect(!permitted4, "only one probe at a time")
        b.record(.failure, at: at(33))
        #expect(b.state == .open)
        let permitted5 = b.permit(at: at(40))
        #expect(!permitted5)
        let permitted6 = b.permit(at: at(63))
        #expect(permitted6)
        b.record(.success, at: at(64))
        #expect(b.state == .closed)
        #expect(b.timesOpened == 2)
        #expect(b.timesClosed == 1)
        let permitted7 = b.permit(at: at(65))
        #expect(permitted7)
    }

    @Test func aProbeThatNeverReportsOrSaysNothingDoesNotBlockTheBreaker() {
        var b = CircuitBreaker(settings: settings)
        for s in [0.0, 1, 2] { b.record(.failure, at: at(s)) }
        let probe = b.permit(at: at(32))
        #expect(probe)
        let second = b.permit(at: at(40))
        #expect(!second, "the probe is still in flight")
        let afterLoss = b.permit(at: at(62))
        #expect(afterLoss, "a probe unanswered for a cool-down is taken as lost")
        b.record(.neutral, at: at(63))
        #expect(b.state == .halfOpen)
        let next = b.permit(at: at(63))
        #expect(next, "a neutral answer hands the probe to the next caller")
        b.record(.success, at: at(64))
        #expect(b.state == .closed)
    }

    @Test func lateAnswersDoNotMoveAnOpenBreaker() {
        var b = CircuitBreaker(settings: settings)
        for s in [0.0, 1, 2] { b.record(.failure, at: at(s)) }
        b.record(.success, at: at(3))
        #expect(b.state == .open)
    }

    @Test func healthCountsOutcomeClasses() async {
        let health = ProviderHealth(clock: { Date(timeIntervalSince1970: 1_700_000_000) })
        let id = UUID()
        let settings = CircuitBreaker.Settings(failureThreshold: 2, window: 60, coolDown: 60)
        await health.record(id, outcome: .notSent, settings: settings)
        await health.record(id, outcome: .authExpired, settings: settings)
        #expect(await health.unavailability(of: id) == nil)
        await health.record(id, outcome: .unknown, settings: settings)
        #expect(await health.unavailability(of: id)?.hasPrefix("circuit open until") == true)
        #expect(await health.snapshot().first?.state == .open)
    }
}
