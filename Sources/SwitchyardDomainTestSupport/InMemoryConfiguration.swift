import Foundation
import SwitchyardCore

/// Provider accounts, routing rules and tenants' own limits, kept in memory; reads are scoped by tenant
/// and ordered as the PostgreSQL store orders them.
public final class InMemoryConfiguration: ConfigurationRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var storedAccounts: [UUID: ProviderAccount] = [:]
    private var routing: [UUID: RoutingConfiguration] = [:]
    private var policies: [UUID: TenantPolicy] = [:]

    public init() {}

    /// Adds or replaces an account.
    public func put(_ account: ProviderAccount) {
        lock.withLock { storedAccounts[account.id] = account }
    }

    /// Replaces a tenant's routing rules, as a new version.
    public func setRules(_ rules: [RoutingRule], tenant: UUID) {
        lock.withLock {
            let version = (routing[tenant]?.version ?? 0) + 1
            routing[tenant] = RoutingConfiguration(version: version, rules: rules)
        }
    }

    /// Sets a tenant's own limits.
    public func setPolicy(_ policy: TenantPolicy, tenant: UUID) {
        lock.withLock { policies[tenant] = policy }
    }

    public func account(tenant: UUID, id: UUID) async throws -> ProviderAccount? {
        lock.withLock { storedAccounts[id].flatMap { $0.tenantId == tenant ? $0 : nil } }
    }

    public func accounts(tenant: UUID) async throws -> [ProviderAccount] {
        lock.withLock {
            storedAccounts.values.filter { $0.tenantId == tenant }.sorted {
                ($0.createdAt, $0.id.uuidString.lowercased()) < ($1.createdAt, $1.id.uuidString.lowercased())
            }
        }
    }

    public func account(id: UUID) async throws -> ProviderAccount? {
        lock.withLock { storedAccounts[id] }
    }

    public func routingRules(tenant: UUID) async throws -> [RoutingRule] {
        try await routingConfiguration(tenant: tenant).rules
    }

    public func routingConfiguration(tenant: UUID) async throws -> RoutingConfiguration {
        lock.withLock { routing[tenant] ?? RoutingConfiguration(version: 0, rules: []) }
    }

    public func tenantPolicy(tenant: UUID) async throws -> TenantPolicy {
        lock.withLock { policies[tenant] ?? TenantPolicy() }
    }

    /// The accounts without their secret credential fields, as routing reads them.
    public func accountDescriptors(tenant: UUID) async throws -> [ProviderAccount] {
        try await accounts(tenant: tenant).map { account in
            var descriptor = account
            for name in account.secretFields { descriptor.credentials[name] = nil }
            return descriptor
        }
    }
}
