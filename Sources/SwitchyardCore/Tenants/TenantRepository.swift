import Foundation

/// Finds the API key a bearer secret belongs to.
public protocol APIKeyAuthenticating: Sendable {
    /// The usable key with this secret (its use recorded); nil when unknown, revoked or expired.
    func authenticate(secret: String) async throws -> APIKey?
}

/// Storage of tenants, their API keys, their own policies and the audit log. Every change is audited
/// with its actor.
public protocol TenantRepository: APIKeyAuthenticating {
    func createTenant(name: String, actor: String) async throws -> Tenant
    func tenants() async throws -> [Tenant]
    /// The rows of `page` (see ``PageRequest/page(_:)``) of every tenant.
    func tenants(page: PageRequest) async throws -> [Tenant]
    func tenant(id: UUID) async throws -> Tenant?
    /// Pins the tenant to the merchant API version `version` (audited as `tenant.api_version`); returns the
    /// tenant, nil when there is none.
    func setAPIVersion(tenant: UUID, version: String, actor: String) async throws -> Tenant?
    /// Creates a key, live or test; only a hash of its secret is stored.
    func createAPIKey(
        tenant: UUID, name: String, scopes: [APIKeyScope], expiresAt: Date?, livemode: Bool, actor: String
    ) async throws -> CreatedAPIKey
    func apiKeys(tenant: UUID) async throws -> [APIKey]
    /// The rows of `page` (see ``PageRequest/page(_:)``) of a tenant's keys, revoked and expired ones included.
    func apiKeys(tenant: UUID, page: PageRequest) async throws -> [APIKey]
    /// Revokes a key of this tenant; false if there is none.
    func revokeAPIKey(tenant: UUID, id: UUID, actor: String) async throws -> Bool
    /// Rotates a usable key (the new one has its name, scopes and mode; the old one stays valid for `grace`
    /// seconds); nil when the key is unknown;
    /// throws `409 key_not_usable` for a revoked or expired key.
    func rotateAPIKey(tenant: UUID, id: UUID, grace: TimeInterval, expiresAt: Date?, actor: String)
        async throws -> CreatedAPIKey?
    /// The rows of `page` (see ``PageRequest/page(_:)``) of the audit log; for one tenant or all.
    func auditLog(tenant: UUID?, operatorId: UUID?, page: PageRequest) async throws -> [AuditEntry]
    /// The tenant's own limits (empty when it has none).
    func tenantPolicy(tenant: UUID) async throws -> TenantPolicy
    /// Replaces a tenant's own limits.
    func setTenantPolicy(tenant: UUID, policy: TenantPolicy, actor: String) async throws
}
