import Foundation
import SwitchyardCore
import Synchronization

/// Provider accounts, routing rules and tenants' own limits, kept in memory; reads are scoped by tenant
/// and ordered as the PostgreSQL store orders them.
public final class InMemoryConfiguration: ConfigurationRepository, Sendable {
    private struct State {
        var storedAccounts: [UUID: ProviderAccount] = [:]
        var routing: [UUID: RoutingConfiguration] = [:]
        var policies: [UUID: TenantPolicy] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Adds or replaces an account.
    public func put(_ account: ProviderAccount) {
        state.withLock { $0.storedAccounts[account.id] = account }
    }

    /// Replaces a tenant's routing rules, as a new version.
    public func setRules(_ rules: [RoutingRule], tenant: UUID) {
        state.withLock { state in
            let version = (state.routing[tenant]?.version ?? 0) + 1
            state.routing[tenant] = RoutingConfiguration(version: version, rules: rules)
        }
    }

    /// Sets a tenant's own limits.
    public func setPolicy(_ policy: TenantPolicy, tenant: UUID) {
        state.withLock { $0.policies[tenant] = policy }
    }

    public func account(tenant: UUID, id: UUID) async throws -> ProviderAccount? {
        state.withLock { $0.storedAccounts[id].flatMap { $0.tenantId == tenant ? $0 : nil } }
    }

    public func accounts(tenant: UUID) async throws -> [ProviderAccount] {
        state.withLock { state in
            state.storedAccounts.values.filter { $0.tenantId == tenant }.sorted {
                ($0.createdAt, $0.id.uuidString.lowercased()) < ($1.createdAt, $1.id.uuidString.lowercased())
            }
        }
    }

    public func account(id: UUID) async throws -> ProviderAccount? {
        state.withLock { $0.storedAccounts[id] }
    }

    public func routingRules(tenant: UUID) async throws -> [RoutingRule] {
        try await routingConfiguration(tenant: tenant).rules
    }

    public func routingConfiguration(tenant: UUID) async throws -> RoutingConfiguration {
        state.withLock { $0.routing[tenant] ?? RoutingConfiguration(version: 0, rules: []) }
    }

    public func tenantPolicy(tenant: UUID) async throws -> TenantPolicy {
        state.withLock { $0.policies[tenant] ?? TenantPolicy() }
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
