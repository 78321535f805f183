import Foundation
import Synchronization

/// How long a cache keeps an entry and how many it holds.
public struct CacheSettings: Sendable, Equatable {
    /// Longest time an entry is served, in seconds; 0 or less turns the cache off.
    public var ttl: TimeInterval
    /// Most entries held; inserting past it drops the oldest entry.
    public var maxEntries: Int

    public init(ttl: TimeInterval, maxEntries: Int) {
        self.ttl = ttl
        self.maxEntries = maxEntries
    }
}

/// A bounded in-memory cache whose entries belong to tenants, invalidated per tenant or as a whole.
///
/// It serves entries only while it is *live*, that is while the source of invalidations (the database's
/// change notifications) is known to be listening; otherwise every look-up misses and nothing is kept.
/// A value read before an invalidation of its tenant is never stored after it: callers take a
/// ``Ticket`` before reading the source and hand it back with the value.
public final class TenantCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Proof of when a read of the source began, compared on insertion.
    public struct Ticket: Sendable {
        let epoch: UInt64
        /// The tenant's generation, or the count of all invalidations for a read whose tenant is not
        /// known before it is done.
        let generation: UInt64
        let tenant: UUID?
    }

    private struct Entry {
        var tenant: UUID
        var value: Value
        var storedAt: Date
    }

    private struct State {
        var settings: CacheSettings
        var live = false
        var entries: [Key: Entry] = [:]
        /// Bumped by every invalidation of one tenant.
        var generations: [UUID: UInt64] = [:]
        /// Bumped when everything is dropped.
        var epoch: UInt64 = 0
        /// Bumped by every invalidation of any tenant.
        var invalidations: UInt64 = 0
        var hits = 0
        var misses = 0

        /// The generation a ticket for `tenant` carries (see ``Ticket/generation``).
        func generation(of tenant: UUID?) -> UInt64 {
            tenant.map { generations[$0, default: 0] } ?? invalidations
        }

        mutating func dropAll() {
            epoch &+= 1
            entries = [:]
            // Older tickets are refused by their epoch, so the generations can start afresh.
            generations = [:]
        }

        mutating func evictOldest() {
            guard let oldest = entries.min(by: { $0.value.storedAt < $1.value.storedAt })?.key else { return }
            entries[oldest] = nil
        }
    }

    private let clock: @Sendable () -> Date
    private let state: Mutex<State>

    public init(settings: CacheSettings, clock: @escaping @Sendable () -> Date) {
        self.state = Mutex(State(settings: settings))
        self.clock = clock
    }

    /// The number of entries held.
    public var count: Int { state.withLock { $0.entries.count } }

    /// How many look-ups were served from memory, and how many were not.
    public var statistics: (hits: Int, misses: Int) { state.withLock { (hits: $0.hits, misses: $0.misses) } }

    /// Whether entries are served and stored.
    public var isLive: Bool { state.withLock { $0.live } }

    /// The value cached for `key`, if it is still fresh (stored less than `ttl` ago and not after the
    /// clock's present: a clock set back drops what was stored before).
    public func value(for key: Key) -> Value? {
        state.withLock { state -> Value? in
            guard state.live, state.settings.ttl > 0, let entry = state.entries[key] else {
                state.misses += 1
                return nil
            }
            // An entry stored "in the future" means the clock went back: its age cannot be told, so it is
            // dropped rather than served until the clock catches up with when it was stored.
            let age = clock().timeIntervalSince(entry.storedAt)
            guard age >= 0, age < state.settings.ttl else {
                state.entries[key] = nil
                state.misses += 1
                return nil
            }
            state.hits += 1
            return entry.value
        }
    }

    /// Taken before reading the source for a value of `tenant` (nil: a tenant known only once the value
    /// is read); nil when nothing would be stored.
    public func ticket(tenant: UUID?) -> Ticket? {
        state.withLock { state -> Ticket? in
            guard state.live, state.settings.ttl > 0 else { return nil }
            return Ticket(epoch: state.epoch, generation: state.generation(of: tenant), tenant: tenant)
        }
    }

    /// Stores a value of `tenant` read with `ticket`, unless that tenant (or, for a ticket taken without
    /// a tenant, any tenant) was invalidated since the ticket was taken.
    public func insert(_ value: Value, for key: Key, tenant: UUID, ticket: Ticket) {
        state.withLock { state in
            guard state.live, state.settings.ttl > 0, ticket.epoch == state.epoch else { return }
            let current = state.generation(of: ticket.tenant)
            guard ticket.tenant == nil || ticket.tenant == tenant, ticket.generation == current else { return }
            if state.entries[key] == nil, state.entries.count >= state.settings.maxEntries { state.evictOldest() }
            state.entries[key] = Entry(tenant: tenant, value: value, storedAt: clock())
        }
    }

    /// The cached value for `key`, or `load`'s result (stored when no invalidation happened meanwhile).
    public func value(for key: Key, tenant: UUID, load: () async throws -> Value) async rethrows -> Value {
        if let value = value(for: key) { return value }
        let ticket = ticket(tenant: tenant)
        let value = try await load()
        if let ticket { insert(value, for: key, tenant: tenant, ticket: ticket) }
        return value
    }

    /// Drops every entry of `tenant`, and keeps out values read before now.
    public func invalidate(tenant: UUID) {
        state.withLock { state in
            state.generations[tenant, default: 0] &+= 1
            state.invalidations &+= 1
            state.entries = state.entries.filter { $0.value.tenant != tenant }
        }
    }

    /// Drops every entry, and keeps out values read before now.
    public func invalidateAll() {
        state.withLock { $0.dropAll() }
    }

    /// Starts or stops serving entries; either way everything held is dropped.
    public func setLive(_ live: Bool) {
        state.withLock { state in
            state.live = live
            state.dropAll()
        }
    }

    /// Replaces the settings; everything held is dropped.
    public func configure(_ settings: CacheSettings) {
        state.withLock { state in
            state.settings = settings
            state.dropAll()
        }
    }
}

extension TenantCache: ConfigurationChangeObserver {}
