import Foundation

/// The operator's administration of tenants, their API keys and their own policies, with the rules
/// every change must keep. Changes are audited by the repository under the acting party's name.
public struct TenantAdminService: Sendable {
    let tenants: any TenantRepository
    let now: @Sendable () -> Date

    /// Longest grace an old key keeps after a rotation: 30 days.
    public static let maxRotationGrace = 2_592_000
    /// Grace of an old key when a rotation names none: one day.
    public static let defaultRotationGrace = 86_400

    public init(tenants: any TenantRepository, now: @escaping @Sendable () -> Date = { Date() }) {
        self.tenants = tenants
        self.now = now
    }

    /// Creates a tenant named `name` (trimmed, 1 to 200 characters: else `400 invalid_name`).
    public func createTenant(name: String, actor: String) async throws -> Tenant {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 200 else {
            throw CoreError(.invalidName, "name must be 1 to 200 characters")
        }
        return try await tenants.createTenant(name: name, actor: actor)
    }

    public func tenants() async throws -> [Tenant] {
        try await tenants.tenants()
    }

    /// A page of the tenants, newest first.
    public func tenants(page: PageRequest) async throws -> Page<Tenant> {
        page.page(try await tenants.tenants(page: page))
    }

    /// The tenant with id `id`; `404 not_found` when there is none (or no id).
    public func tenant(id: UUID?) async throws -> Tenant {
        guard let id, let tenant = try await tenants.tenant(id: id) else { throw CoreError.notFound("tenant") }
        return tenant
    }

    /// Moves the tenant's merchant API version pin to `version`, one of ``APIVersion/all``
    /// (`400 invalid_api_version` naming `api_version` otherwise; `404` for no tenant).
    public func setAPIVersion(tenant: UUID, version: String, actor: String) async throws -> Tenant {
        guard APIVersion(version) != nil else {
            let known = APIVersion.all.map(\.name).joined(separator: ", ")
            throw CoreError(.invalidAPIVersion, "api_version must be one of \(known)", param: "api_version")
        }
        guard let moved = try await tenants.setAPIVersion(tenant: tenant, version: version, actor: actor) else {
            throw CoreError.notFound("tenant")
        }
        return moved
    }

    /// Creates a key for `tenant` with `scopes` (default `payments`; none is `400 invalid_scopes`) expiring
    /// at `expiresAt` (which must be in the future: else `400 invalid_expires_at`); a test key unless
    /// `livemode`.
    public func createAPIKey(
        tenant: UUID, name: String?, scopes: [APIKeyScope]?, expiresAt: Date?, livemode: Bool = false,
        actor: String
    ) async throws -> CreatedAPIKey {
        let scopes = scopes ?? [.payments]
        guard !scopes.isEmpty else { throw CoreError(.invalidScopes, "at least one scope is required") }
        try checkExpiry(expiresAt)
        return try await tenants.createAPIKey(
            tenant: tenant, name: name ?? "api key", scopes: scopes, expiresAt: expiresAt, livemode: livemode,
            actor: actor)
    }

    public func apiKeys(tenant: UUID) async throws -> [APIKey] {
        try await tenants.apiKeys(tenant: tenant)
    }

    /// A page of the tenant's keys, newest first, revoked and expired ones included.
    public func apiKeys(tenant: UUID, page: PageRequest) async throws -> Page<APIKey> {
        page.page(try await tenants.apiKeys(tenant: tenant, page: page))
    }

    /// Revokes a key of `tenant`; `404 not_found` when it has none with id `id`.
    public func revokeAPIKey(tenant: UUID, id: UUID?, actor: String) async throws {
        guard let id, try await tenants.revokeAPIKey(tenant: tenant, id: id, actor: actor) else {
            throw CoreError.notFound("api key")
        }
    }

    /// Replaces a usable key of `tenant` by a new one with its name and scopes; the old key stays usable
    /// for `graceSeconds` (default one day, at most 30 days: else `400 invalid_grace`). `404 not_found`
    /// when the tenant has no key with id `id`, `409 key_not_usable` for a revoked or expired key.
    public func rotateAPIKey(
        tenant: UUID, id: UUID?, graceSeconds: Int?, expiresAt: Date?, actor: String
    ) async throws -> CreatedAPIKey {
        let grace = graceSeconds ?? Self.defaultRotationGrace
        guard (0...Self.maxRotationGrace).contains(grace) else {
            throw CoreError(.invalidGrace, "grace_seconds must be between 0 and 2592000 (30 days)")
        }
        try checkExpiry(expiresAt)
        guard let id,
            let created = try await tenants.rotateAPIKey(
                tenant: tenant, id: id, grace: Double(grace), expiresAt: expiresAt, actor: actor)
        else { throw CoreError.notFound("api key") }
        return created
    }

    /// A page of the audit log, newest first, of one tenant or all and one operator or all.
    public func auditLog(tenant: UUID?, operatorId: UUID? = nil, page: PageRequest) async throws -> Page<AuditEntry> {
        page.page(try await tenants.auditLog(tenant: tenant, operatorId: operatorId, page: page))
    }

    /// The tenant's own limits.
    public func tenantPolicy(tenant: UUID) async throws -> TenantPolicy {
        try await tenants.tenantPolicy(tenant: tenant)
    }

    /// Replaces the tenant's own limits, which may only tighten `platform`'s: a looser one is
    /// `422 policy_loosened`, whose `param` names the first loosening key.
    public func setTenantPolicy(tenant: UUID, policy: TenantPolicy, platform: PlatformPolicy, actor: String)
        async throws
    {
        let problems = policy.loosening(platform)
        if let first = problems.first {
            // Every problem starts with the key it is about, which the console shows the error next to.
            throw CoreError(
                .policyLoosened, problems.count == 1 ? first : "\(first) (and \(problems.count - 1) more)",
                param: first.split(separator: " ").first.map(String.init))
        }
        try await tenants.setTenantPolicy(tenant: tenant, policy: policy, actor: actor)
    }

    /// Refuses a key expiry that is not in the future: such a key would be unusable from the start.
    func checkExpiry(_ expiresAt: Date?) throws {
        if let expiresAt, expiresAt <= now() {
            throw CoreError(.invalidExpiresAt, "expires_at must be in the future")
        }
    }
}
