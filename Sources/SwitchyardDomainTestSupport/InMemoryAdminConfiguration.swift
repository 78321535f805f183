import Foundation
import SwitchyardCore

/// The ``ConfigurationRepository`` the payment service reads, served from the repositories the admin
/// services write (tenants with their policies, accounts, routing), so what an admin request changes is
/// what the next payment is routed by, as with the PostgreSQL store.
public struct InMemoryAdminConfiguration: ConfigurationRepository {
    let tenants: any TenantRepository
    let accounts: any AccountRepository
    let routing: any RoutingRepository

    public init(tenants: any TenantRepository, accounts: any AccountRepository, routing: any RoutingRepository) {
        self.tenants = tenants
        self.accounts = accounts
        self.routing = routing
    }

    public func account(tenant: UUID, id: UUID) async throws -> ProviderAccount? {
        try await accounts.account(tenant: tenant, id: id)
    }

    public func accounts(tenant: UUID) async throws -> [ProviderAccount] {
        try await accounts.accounts(tenant: tenant)
    }

    public func account(id: UUID) async throws -> ProviderAccount? {
        for tenant in try await tenants.tenants() {
            if let account = try await accounts.account(tenant: tenant.id, id: id) { return account }
        }
        return nil
    }

    public func routingRules(tenant: UUID) async throws -> [RoutingRule] {
        try await routing.routingConfiguration(tenant: tenant).rules
    }

    public func routingConfiguration(tenant: UUID) async throws -> RoutingConfiguration {
        try await routing.routingConfiguration(tenant: tenant)
    }

    public func tenantPolicy(tenant: UUID) async throws -> TenantPolicy {
        try await tenants.tenantPolicy(tenant: tenant)
    }
}
