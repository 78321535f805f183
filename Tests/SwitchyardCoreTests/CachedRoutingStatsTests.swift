import Foundation
import SwitchyardCore
import SwitchyardDomainTestSupport
import Synchronization
import Testing

/// The statistics cache in front of a repository: one read per tenant per lifetime, whatever the number
/// of readers; a failed read is not kept.
struct CachedRoutingStatsTests {
    /// A repository that counts its reads per tenant and can be told to fail.
    final class Counting: RoutingStatsRepository {
        let reads = Mutex<[UUID: Int]>([:])
        let failing = Mutex(false)

        struct Unavailable: Error {}

        func count(_ tenant: UUID) -> Int { reads.withLock { $0[tenant, default: 0] } }

        func authorizationStats(tenant: UUID, window: AuthorizationStatsWindow) async throws -> [AuthorizationStats] {
            let n = reads.withLock { reads -> Int in
                reads[tenant, default: 0] += 1
                return reads[tenant]!
            }
            if failing.withLock({ $0 }) { throw Unavailable() }
            return [AuthorizationStats(accountId: tenant, method: "card", currency: "EUR", approved: n, declined: 0)]
        }
    }

    let window = AuthorizationStatsWindow(attempts: 200, since: Date(timeIntervalSince1970: 0))

    func cache(_ base: Counting, clock: ManualClock, ttlMs: Int = 2_000) -> CachedRoutingStats {
        var platform = PlatformPolicy()
        platform.adaptiveRouting.statsCacheMs = ttlMs
        return CachedRoutingStats(base, policy: PolicyCenter(platform), clock: clock.now)
    }

    @Test func readsEachTenantOncePerLifetime() async throws {
        let base = Counting()
        let clock = ManualClock()
        let cache = cache(base, clock: clock)
        let (a, b) = (UUID(), UUID())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask { _ = try await cache.authorizationStats(tenant: a, window: self.window) }
            }
            try await group.waitForAll()
        }
        _ = try await cache.authorizationStats(tenant: b, window: window)
        #expect(base.count(a) == 1)
        #expect(base.count(b) == 1)
        clock.advance(1.999)
        #expect(try await cache.authorizationStats(tenant: a, window: window).first?.approved == 1)
        clock.advance(0.001)
        #expect(try await cache.authorizationStats(tenant: a, window: window).first?.approved == 2)
        #expect(base.count(a) == 2)
        #expect(base.count(b) == 1)
        // A window of another size is not served from an entry read for this one.
        _ = try await cache.authorizationStats(tenant: a, window: AuthorizationStatsWindow(attempts: 50, since: .now))
        #expect(base.count(a) == 3)
    }

    @Test func aClockSetBackReadsAgainRatherThanKeepingTheOldStatistics() async throws {
        let base = Counting()
        let clock = ManualClock()
        let cache = cache(base, clock: clock)
        let tenant = UUID()
        #expect(try await cache.authorizationStats(tenant: tenant, window: window).first?.approved == 1)
        clock.advance(-86_400)
        #expect(try await cache.authorizationStats(tenant: tenant, window: window).first?.approved == 2)
        #expect(try await cache.authorizationStats(tenant: tenant, window: window).first?.approved == 2)
        clock.advance(2)
        #expect(try await cache.authorizationStats(tenant: tenant, window: window).first?.approved == 3)
        #expect(base.count(tenant) == 3)
    }

    @Test func aZeroLifetimeReadsEveryTime() async throws {
        let base = Counting()
        let cache = cache(base, clock: ManualClock(), ttlMs: 0)
        let tenant = UUID()
        for _ in 0..<3 { _ = try await cache.authorizationStats(tenant: tenant, window: window) }
        #expect(base.count(tenant) == 3)
    }

    @Test func aFailedReadIsNotKept() async throws {
        let base = Counting()
        let cache = cache(base, clock: ManualClock())
        let tenant = UUID()
        base.failing.withLock { $0 = true }
        await #expect(throws: Counting.Unavailable.self) {
            try await cache.authorizationStats(tenant: tenant, window: self.window)
        }
        base.failing.withLock { $0 = false }
        #expect(try await cache.authorizationStats(tenant: tenant, window: window).first?.approved == 2)
    }
}
