import Foundation
import SwitchyardCore
import Testing

@Suite struct AuthorizationStatsIntervalTests {
    private func stats(_ approved: Int, _ declined: Int) -> AuthorizationStats {
        AuthorizationStats(accountId: UUID(), method: "card", currency: "EUR", approved: approved, declined: declined)
    }

    @Test func noAnswersHaveNoInterval() {
        #expect(stats(0, 0).wilsonInterval(z: 1.96) == nil)
    }

    @Test func knownValueAndBoundsStayInRange() throws {
        // 8 of 10 at 95 %: the Wilson interval is about 0.490…0.943.
        let interval = try #require(stats(8, 2).wilsonInterval(z: 1.96))
        #expect(abs(interval.rate - 0.8) < 1e-12)
        #expect(abs(interval.lower - 0.4902) < 1e-3)
        #expect(abs(interval.upper - 0.9433) < 1e-3)
        let all = try #require(stats(50, 0).wilsonInterval(z: 1.96))
        #expect(all.upper <= 1 && all.lower > 0.9)
        let none = try #require(stats(0, 50).wilsonInterval(z: 1.96))
        #expect(none.lower >= 0 && none.upper < 0.1)
    }

    @Test func moreAnswersNarrowTheInterval() throws {
        let few = try #require(stats(4, 1).wilsonInterval(z: 1.96))
        let many = try #require(stats(400, 100).wilsonInterval(z: 1.96))
        #expect(many.upper - many.lower < few.upper - few.lower)
        #expect(many.lower > few.lower)
    }
}
