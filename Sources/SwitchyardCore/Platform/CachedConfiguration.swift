import Foundation

/// A tenant's configuration kept in memory in front of a ``ConfigurationRepository``: its policy, its
/// routing, its accounts without their secrets, and the accounts whose secrets were opened (only those
/// a payment was routed to).
///
/// Entries live in ``TenantCache``s that are invalidated through ``ConfigurationChanges``; system-scope
/// look-ups (``account(id:)``) always go to the repository.
public final class CachedConfiguration: ConfigurationRepository {
    private struct AccountKey: Hashable, Sendable {
        var tenant: UUID
        var id: UUID
    }

    private let base: any ConfigurationRepository
    private let policies: TenantCache<UUID, TenantPolicy>
    private let routings: TenantCache<UUID, RoutingConfiguration>
    private let descriptors: TenantCache<UUID, [ProviderAccount]>
    private let accounts: TenantCache<AccountKey, ProviderAccount>

    /// Caches `base`'s answers, registering with `changes` to learn of writes.
    public init(
        _ base: any ConfigurationRepository, changes: ConfigurationChanges, settings: CacheSettings,
        clock: @escaping @Sendable () -> Date
    ) {
        self.base = base
        policies = TenantCache(settings: settings, clock: clock)
        routings = TenantCache(settings: settings, clock: clock)
        descriptors = TenantCache(settings: settings, clock: clock)
        accounts = TenantCache(settings: settings, clock: clock)
        for cache in observers { changes.add(cache) }
    }

    private var observers: [any ConfigurationChangeObserver] { [policies, routings, descriptors, accounts] }

    /// Applies new settings (a reloaded policy); everything held is dropped.
    public func configure(_ settings: CacheSettings) {
        policies.configure(settings)
        routings.configure(settings)
        descriptors.configure(settings)
        accounts.configure(settings)
    }

    /// Look-ups served from memory and not, over all of this cache's parts.
    public var statistics: (hits: Int, misses: Int) {
        [policies.statistics, routings.statistics, descriptors.statistics, accounts.statistics].reduce((0, 0)) {
            ($0.0 + $1.hits, $0.1 + $1.misses)
        }
    }

    public func account(tenant: UUID, id: UUID) async throws -> ProviderAccount? {
        let key = AccountKey(tenant: tenant, id: id)
        if let account = accounts.value(for: key) { return account }
        let ticket = accounts.ticket(tenant: tenant)
        guard let account = try await base.account(tenant: tenant, id: id) else { return nil }
        if let ticket { accounts.insert(account, for: key, tenant: tenant, ticket: ticket) }
        return account
    }

    public func accounts(tenant: UUID) async throws -> [ProviderAccount] {
        try await base.accounts(tenant: tenant)
    }

    public func accountDescriptors(tenant: UUID) async throws -> [ProviderAccount] {
        try await descriptors.value(for: tenant, tenant: tenant) { try await base.accountDescriptors(tenant: tenant) }
    }

    public func account(id: UUID) async throws -> ProviderAccount? {
        try await base.account(id: id)
    }

    public func routingRules(tenant: UUID) async throws -> [RoutingRule] {
        try await routingConfiguration(tenant: tenant).rules
    }

    public func routingConfiguration(tenant: UUID) async throws -> RoutingConfiguration {
        try await routings.value(for: tenant, tenant: tenant) { try await base.routingConfiguration(tenant: tenant) }
    }

    public func tenantPolicy(tenant: UUID) async throws -> TenantPolicy {
        try await policies.value(for: tenant, tenant: tenant) { try await base.tenantPolicy(tenant: tenant) }
    }
}
