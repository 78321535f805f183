import Foundation
import Synchronization

/// Authorisation statistics read through a per-tenant ``TenantCache``, so a replica reads the database at
/// most once per tenant per `adaptive_routing.stats_cache_ms`. Concurrent readers of a tenant whose entry is
/// missing or expired share one read; a failed read is not kept. Entries expire by time only (the
/// statistics are not configuration, so configuration changes do not invalidate them).
public final class CachedRoutingStats: RoutingStatsRepository, Sendable {
    /// One tenant's read, shared by its readers while it is fresh.
    struct Entry: Sendable {
        var id: UInt64
        var attempts: Int
        var read: Task<[AuthorizationStats], any Error>
    }

    /// The most tenants whose statistics are held.
    static let maxEntries = 10_000

    let base: any RoutingStatsRepository
    let ttl: @Sendable () -> TimeInterval
    let entries: TenantCache<UUID, Entry>
    /// Makes finding or starting a tenant's read one step, so concurrent readers share it.
    private let state: Mutex<State>

    private struct State {
        var lifetime: TimeInterval
        var nextId: UInt64 = 0
    }

    /// Statistics from `base`, kept for the current policy's `statsCacheMs` as `clock` counts time.
    public convenience init(
        _ base: any RoutingStatsRepository, policy: PolicyCenter, clock: @escaping @Sendable () -> Date
    ) {
        self.init(base, ttl: { Double(policy.platform.adaptiveRouting.statsCacheMs) / 1000 }, clock: clock)
    }

    /// Statistics from `base`, kept for `ttl()` seconds as `clock` counts time.
    public init(
        _ base: any RoutingStatsRepository, ttl: @escaping @Sendable () -> TimeInterval,
        clock: @escaping @Sendable () -> Date
    ) {
        self.base = base
        self.ttl = ttl
        let lifetime = ttl()
        state = Mutex(State(lifetime: lifetime))
        entries = TenantCache(settings: CacheSettings(ttl: lifetime, maxEntries: Self.maxEntries), clock: clock)
        entries.setLive(true)
    }

    public func authorizationStats(tenant: UUID, window: AuthorizationStatsWindow) async throws
        -> [AuthorizationStats]
    {
        let entry = shared(tenant: tenant, attempts: window.attempts) { [base] in
            Task { try await base.authorizationStats(tenant: tenant, window: window) }
        }
        do {
            return try await entry.read.value
        } catch {
            state.withLock { _ in
                if entries.value(for: tenant)?.id == entry.id { entries.invalidate(tenant: tenant) }
            }
            throw error
        }
    }

    /// The fresh entry of `tenant` for windows of `attempts` answers, or a new one reading with `start`
    /// (kept unless the lifetime is 0).
    private func shared(
        tenant: UUID, attempts: Int, start: () -> Task<[AuthorizationStats], any Error>
    ) -> Entry {
        state.withLock { state -> Entry in
            let current = ttl()
            if current != state.lifetime {
                state.lifetime = current
                entries.configure(CacheSettings(ttl: current, maxEntries: Self.maxEntries))
            }
            if let entry = entries.value(for: tenant), entry.attempts == attempts { return entry }
            state.nextId &+= 1
            let entry = Entry(id: state.nextId, attempts: attempts, read: start())
            if let ticket = entries.ticket(tenant: tenant) {
                entries.insert(entry, for: tenant, tenant: tenant, ticket: ticket)
            }
            return entry
        }
    }
}
