import Foundation
import SwitchyardCore

/// Tenants, API keys, tenant policies and the audit log in memory, for fast tests of the services that
/// use a ``TenantRepository``. Secrets are kept as given (this is no vault); keys are authenticated at
/// `now()`.
public actor InMemoryTenantRepository: TenantRepository {
    private var tenantList: [Tenant] = []
    private var keys: [(key: APIKey, secret: String)] = []
    private var policies: [UUID: TenantPolicy] = [:]
    private var audit: [AuditEntry] = []
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    /// Every audited change, oldest first.
    public var auditEntries: [AuditEntry] { audit }

    public func createTenant(name: String, actor: String) async throws -> Tenant {
        let tenant = Tenant(id: UUID(), name: name, createdAt: now())
        tenantList.append(tenant)
        record(tenant.id, actor, "tenant.create", tenant.id.uuidString)
        return tenant
    }

    public func tenants() async throws -> [Tenant] { tenantList }

    public func tenants(page: PageRequest) async throws -> [Tenant] {
        try page.select(tenantList, id: { $0.id.uuidString.lowercased() }, created: \.createdAt)
    }

    public func tenant(id: UUID) async throws -> Tenant? { tenantList.first { $0.id == id } }

    public func setAPIVersion(tenant: UUID, version: String, actor: String) async throws -> Tenant? {
        guard let index = tenantList.firstIndex(where: { $0.id == tenant }) else { return nil }
        tenantList[index].apiVersion = version
        record(tenant, actor, "tenant.api_version", tenant.uuidString)
        return tenantList[index]
    }

    public func createAPIKey(
        tenant: UUID, name: String, scopes: [APIKeyScope], expiresAt: Date?, livemode: Bool, actor: String
    ) async throws -> CreatedAPIKey {
        // A tenant's first key pins it to the current version.
        if !keys.contains(where: { $0.key.tenantId == tenant }),
            let index = tenantList.firstIndex(where: { $0.id == tenant }), tenantList[index].apiVersion == nil
        {
            tenantList[index].apiVersion = APIVersion.current.name
        }
        let created = newKey(tenant: tenant, name: name, scopes: scopes, expiresAt: expiresAt, livemode: livemode)
        record(tenant, actor, "api_key.create", created.key.id.uuidString)
        return created
    }

    public func apiKeys(tenant: UUID) async throws -> [APIKey] {
        keys.map(\.key).filter { $0.tenantId == tenant }
    }

    public func apiKeys(tenant: UUID, page: PageRequest) async throws -> [APIKey] {
        try page.select(try await apiKeys(tenant: tenant), id: { $0.id.uuidString.lowercased() }, created: \.createdAt)
    }

    public func revokeAPIKey(tenant: UUID, id: UUID, actor: String) async throws -> Bool {
        guard let index = keys.firstIndex(where: { $0.key.tenantId == tenant && $0.key.id == id }) else {
            return false
        }
        keys[index].key.revokedAt = keys[index].key.revokedAt ?? now()
        record(tenant, actor, "api_key.revoke", id.uuidString)
        return true
    }

    public func rotateAPIKey(tenant: UUID, id: UUID, grace: TimeInterval, expiresAt: Date?, actor: String)
        async throws -> CreatedAPIKey?
    {
        guard let index = keys.firstIndex(where: { $0.key.tenantId == tenant && $0.key.id == id }) else {
            return nil
        }
        let old = keys[index].key
        guard old.isUsable(at: now()) else {
            throw CoreError(.keyNotUsable, "a revoked or expired key cannot be rotated")
        }
        let graceUntil = now().addingTimeInterval(grace)
        keys[index].key.expiresAt = min(old.expiresAt ?? graceUntil, graceUntil)
        let created = newKey(
            tenant: tenant, name: old.name, scopes: old.scopes, expiresAt: expiresAt, livemode: old.livemode)
        record(tenant, actor, "api_key.rotate", id.uuidString)
        return created
    }

    public func authenticate(secret: String) async throws -> APIKey? {
        keys.first { $0.secret == secret && $0.key.isUsable(at: now()) }?.key
    }

    public func auditLog(tenant: UUID?, operatorId: UUID?, page: PageRequest) async throws -> [AuditEntry] {
        try page.select(
            audit.filter {
                (tenant == nil || $0.tenantId == tenant) && (operatorId == nil || $0.operatorId == operatorId)
            },
            id: { "\($0.id)" }, created: \.at)
    }

    public func tenantPolicy(tenant: UUID) async throws -> TenantPolicy { policies[tenant] ?? TenantPolicy() }

    public func setTenantPolicy(tenant: UUID, policy: TenantPolicy, actor: String) async throws {
        policies[tenant] = policy
        record(tenant, actor, "tenant.policy", tenant.uuidString)
    }

    private func newKey(tenant: UUID, name: String, scopes: [APIKeyScope], expiresAt: Date?, livemode: Bool)
        -> CreatedAPIKey
    {
        let secret = APIKey.secret(
            livemode: livemode, random: UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))
        let key = APIKey(
            id: UUID(), tenantId: tenant, prefix: APIKey.shownPrefix(of: secret, livemode: livemode), name: name,
            scopes: scopes, createdAt: now(), expiresAt: expiresAt, livemode: livemode)
        keys.append((key, secret))
        return CreatedAPIKey(key: key, secret: secret)
    }

    private func record(_ tenant: UUID, _ actor: String, _ action: String, _ target: String) {
        audit.append(
            AuditEntry(
                id: (audit.last?.id ?? 0) + 1, tenantId: tenant, actor: actor, action: action, target: target,
                details: [:], at: now()))
    }

    /// Deletes up to `limit` audit entries made before `cutoff`, oldest first; returns how many.
    func deleteAudit(before cutoff: Date, limit: Int) -> Int {
        let doomed = audit.filter { $0.at < cutoff }.prefix(max(0, limit)).map(\.id)
        audit.removeAll { doomed.contains($0.id) }
        return doomed.count
    }
}
