import Foundation

/// Authorisation statistics read through a per-tenant cache, so a replica reads the database at most once
/// per tenant per `adaptive_routing.stats_cache_ms`. Concurrent readers of a tenant whose entry is missing
/// or expired share one read; a failed read is not kept.
public actor CachedRoutingStats: RoutingStatsRepository {
    struct Entry {
        var id: UInt64
        var attempts: Int
        var readAt: Date
        var read: Task<[AuthorizationStats], any Error>
    }

    let base: any RoutingStatsRepository
    let ttl: @Sendable () -> TimeInterval
    let clock: @Sendable () -> Date
    var entries: [UUID: Entry] = [:]
    var nextId: UInt64 = 0

    /// Statistics from `base`, kept for the current policy's `statsCacheMs` as `clock` counts time.
    public init(_ base: any RoutingStatsRepository, policy: PolicyCenter, clock: @escaping @Sendable () -> Date) {
        self.init(base, ttl: { Double(policy.platform.adaptiveRouting.statsCacheMs) / 1000 }, clock: clock)
    }

    /// Statistics from `base`, kept for `ttl()` seconds as `clock` counts time.
    public init(
        _ base: any RoutingStatsRepository, ttl: @escaping @Sendable () -> TimeInterval,
        clock: @escaping @Sendable () -> Date
    ) {
        self.base = base
        self.ttl = ttl
        self.clock = clock
    }

    public func authorizationStats(tenant: UUID, window: AuthorizationStatsWindow) async throws
        -> [AuthorizationStats]
    {
        let now = clock()
        let lifetime = ttl()
        if let entry = entries[tenant], entry.attempts == window.attempts, entry.readAt <= now,
            now.timeIntervalSince(entry.readAt) < lifetime
        {
            return try await entry.read.value
        }
        dropExpired(now: now, lifetime: lifetime)
        nextId &+= 1
        let id = nextId
        let base = self.base
        let read = Task { try await base.authorizationStats(tenant: tenant, window: window) }
        entries[tenant] = Entry(id: id, attempts: window.attempts, readAt: now, read: read)
        do {
            return try await read.value
        } catch {
            if entries[tenant]?.id == id { entries[tenant] = nil }
            throw error
        }
    }

    /// Forgets entries that can no longer be used, so the cache holds only recently read tenants.
    func dropExpired(now: Date, lifetime: TimeInterval) {
        entries = entries.filter { _, entry in entry.readAt <= now && now.timeIntervalSince(entry.readAt) < lifetime }
    }
}
