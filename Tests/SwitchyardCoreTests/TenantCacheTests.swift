import Foundation
import SwitchyardCore
import Synchronization
import Testing

/// The in-memory cache of tenants' configuration: what it serves, when it forgets, and that a value read
/// before an invalidation is never stored after it.
struct TenantCacheTests {
    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_000_000))
        func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
        var read: @Sendable () -> Date { { self.now.withLock { $0 } } }
    }

    let a = UUID()
    let b = UUID()

    func liveCache(ttl: TimeInterval = 5, maxEntries: Int = 100, clock: Clock = Clock()) -> TenantCache<String, Int> {
        let cache = TenantCache<String, Int>(
            settings: CacheSettings(ttl: ttl, maxEntries: maxEntries), clock: clock.read)
        cache.setLive(true)
        return cache
    }

    func put(_ cache: TenantCache<String, Int>, _ key: String, _ value: Int, tenant: UUID) throws {
        let ticket = try #require(cache.ticket(tenant: tenant))
        cache.insert(value, for: key, tenant: tenant, ticket: ticket)
    }

    @Test func aStoredValueIsServedUntilItsLifetimeEnds() throws {
        let clock = Clock()
        let cache = liveCache(ttl: 5, clock: clock)
        #expect(cache.value(for: "policy") == nil)
        try put(cache, "policy", 1, tenant: a)
        #expect(cache.value(for: "policy") == 1)
        clock.advance(4.9)
        #expect(cache.value(for: "policy") == 1)
        clock.advance(0.2)
        #expect(cache.value(for: "policy") == nil)
        #expect(cache.count == 0)
        #expect(cache.statistics.hits == 2)
        #expect(cache.statistics.misses == 2)
    }

    @Test func aClockSetBackDropsWhatWasStoredInsteadOfServingItUntilItCatchesUp() throws {
        let clock = Clock()
        let cache = liveCache(ttl: 5, clock: clock)
        try put(cache, "policy", 1, tenant: a)
        clock.advance(-3_600)
        #expect(cache.value(for: "policy") == nil, "an hour back: its age cannot be told")
        #expect(cache.count == 0)
        try put(cache, "policy", 2, tenant: a)
        #expect(cache.value(for: "policy") == 2, "stored again at the new present, it is served")
        clock.advance(5)
        #expect(cache.value(for: "policy") == nil)
    }

    @Test func loadRunsOnlyOnAMiss() async throws {
        let cache = liveCache()
        let loads = Mutex(0)
        for _ in 0..<3 {
            let value = await cache.value(for: "routing", tenant: a) {
                loads.withLock { $0 += 1 }
                return 7
            }
            #expect(value == 7)
        }
        #expect(loads.withLock { $0 } == 1)
    }

    @Test func invalidatingOneTenantKeepsTheOthers() throws {
        let cache = liveCache()
        try put(cache, "a.policy", 1, tenant: a)
        try put(cache, "a.routing", 2, tenant: a)
        try put(cache, "b.policy", 3, tenant: b)
        cache.invalidate(tenant: a)
        #expect(cache.value(for: "a.policy") == nil)
        #expect(cache.value(for: "a.routing") == nil)
        #expect(cache.value(for: "b.policy") == 3)
    }

    @Test func invalidatingAllDropsEverything() throws {
        let cache = liveCache()
        try put(cache, "a.policy", 1, tenant: a)
        try put(cache, "b.policy", 3, tenant: b)
        cache.invalidateAll()
        #expect(cache.value(for: "a.policy") == nil)
        #expect(cache.value(for: "b.policy") == nil)
        #expect(cache.count == 0)
    }

    @Test func aValueReadBeforeAnInvalidationIsNotStored() throws {
        let cache = liveCache()
        let stale = try #require(cache.ticket(tenant: a))
        let other = try #require(cache.ticket(tenant: b))
        let unknown = try #require(cache.ticket(tenant: nil))
        cache.invalidate(tenant: a)
        cache.insert(1, for: "a.routing", tenant: a, ticket: stale)
        #expect(cache.value(for: "a.routing") == nil)
        // Another tenant's read is unaffected by a's invalidation.
        cache.insert(2, for: "b.routing", tenant: b, ticket: other)
        #expect(cache.value(for: "b.routing") == 2)
        // A read whose tenant was not known in advance (an API key) is refused after any invalidation.
        cache.insert(3, for: "key", tenant: b, ticket: unknown)
        #expect(cache.value(for: "key") == nil)
        let clearedBefore = try #require(cache.ticket(tenant: b))
        cache.invalidateAll()
        cache.insert(4, for: "b.routing", tenant: b, ticket: clearedBefore)
        #expect(cache.value(for: "b.routing") == nil)
    }

    @Test func nothingIsKeptWhileNotLive() throws {
        let cache = TenantCache<String, Int>(settings: CacheSettings(ttl: 5, maxEntries: 10), clock: { Date() })
        #expect(cache.ticket(tenant: a) == nil)
        cache.setLive(true)
        try put(cache, "policy", 1, tenant: a)
        // The listener lost its connection: everything goes, and nothing is served or stored.
        cache.setLive(false)
        #expect(cache.value(for: "policy") == nil)
        #expect(cache.ticket(tenant: a) == nil)
        // Back: it starts empty.
        cache.setLive(true)
        #expect(cache.value(for: "policy") == nil)
    }

    @Test func aZeroLifetimeTurnsCachingOff() {
        let cache = liveCache(ttl: 0)
        #expect(cache.ticket(tenant: a) == nil)
    }

    @Test func theOldestEntryMakesRoomPastTheBound() throws {
        let clock = Clock()
        let cache = liveCache(maxEntries: 2, clock: clock)
        try put(cache, "first", 1, tenant: a)
        clock.advance(0.1)
        try put(cache, "second", 2, tenant: a)
        clock.advance(0.1)
        try put(cache, "third", 3, tenant: b)
        #expect(cache.count == 2)
        #expect(cache.value(for: "first") == nil)
        #expect(cache.value(for: "second") == 2)
        #expect(cache.value(for: "third") == 3)
    }

    @Test func changesReachEveryObserverAndLiveness() throws {
        let changes = ConfigurationChanges()
        let first = TenantCache<String, Int>(settings: CacheSettings(ttl: 5, maxEntries: 10), clock: { Date() })
        changes.add(first)
        changes.setLive(true)
        // Added after reports started: live at once.
        let second = TenantCache<String, Int>(settings: CacheSettings(ttl: 5, maxEntries: 10), clock: { Date() })
        changes.add(second)
        #expect(first.isLive && second.isLive)
        try put(first, "x", 1, tenant: a)
        try put(second, "y", 2, tenant: a)
        changes.changed(tenant: a)
        #expect(first.value(for: "x") == nil)
        #expect(second.value(for: "y") == nil)
        changes.setLive(false)
        #expect(!first.isLive && !second.isLive)
    }
}
