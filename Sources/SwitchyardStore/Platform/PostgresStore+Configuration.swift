import Foundation
import SwitchyardCore

/// The configuration a payment is made with, gathered from the repositories that keep it: accounts,
/// routing and tenants' policies.
extension PostgresStore: ConfigurationRepository {
    public func account(tenant: UUID, id: UUID) async throws -> ProviderAccount? {
        try await accounts.account(tenant: tenant, id: id)
    }

    public func accounts(tenant: UUID) async throws -> [ProviderAccount] {
        try await accounts.accounts(tenant: tenant)
    }

    public func account(id: UUID) async throws -> ProviderAccount? {
        try await accounts.account(id: id)
    }

    public func accountDescriptors(tenant: UUID) async throws -> [ProviderAccount] {
        try await accounts.accountDescriptors(tenant: tenant)
    }

    public func routingRules(tenant: UUID) async throws -> [RoutingRule] {
        try await routing.routingRules(tenant: tenant)
    }

    public func routingConfiguration(tenant: UUID) async throws -> RoutingConfiguration {
        try await routing.routingConfiguration(tenant: tenant)
    }

    public func tenantPolicy(tenant: UUID) async throws -> TenantPolicy {
        try await tenants.tenantPolicy(tenant: tenant)
    }
}
