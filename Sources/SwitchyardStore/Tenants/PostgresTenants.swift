import Foundation
import SwitchyardCore
import SwitchyardCrypto

/// Tenants, their API keys, policies and audit log, over the shared ``PostgresDatabase``.
public struct PostgresTenants: TenantRepository, PostgresRepository {
    let database: PostgresDatabase
}

extension PostgresTenants {
    // MARK: Tenants

    public func createTenant(name: String, actor: String) async throws -> Tenant {
        let tenant = Tenant(id: UUID(), name: name, createdAt: clock())
        try await system { c in
            try await c.query(
                "INSERT INTO tenants (id, name, created_at) VALUES ($1::uuid, $2, $3::timestamptz)",
                [.uuid(tenant.id), .text(name), .timestamp(tenant.createdAt)])
            try await Self.audit(
                c, tenant: tenant.id, actor: actor, action: "tenant.create", target: tenant.id.uuidString,
                details: ["name": name], at: tenant.createdAt)
        }
        return tenant
    }

    public func tenants() async throws -> [Tenant] {
        try await system { c in
            try await c.query("SELECT id, name, created_at, api_version FROM tenants ORDER BY created_at, id").rows.map(
                Self.tenant)
        }
    }

    /// The rows of `page` of every tenant.
    public func tenants(page: PageRequest) async throws -> [Tenant] {
        try await system { c in try await Self.tenantPages.rows(c, page).map(Self.tenant) }
    }

    public func tenant(id: UUID) async throws -> Tenant? {
        try await system { c in
            try await c.query(
                "SELECT id, name, created_at, api_version FROM tenants WHERE id = $1::uuid", [.uuid(id)]
            ).rows.first.map(Self.tenant)
        }
    }

    static func tenant(_ row: PGRow) throws -> Tenant {
        Tenant(
            id: try row.uuid("id"), name: try row.string("name"), createdAt: try row.date("created_at"),
            apiVersion: row.optionalString("api_version"))
    }

    // MARK: API keys

    /// Creates an API key, test unless `livemode`; only its SHA-256 is stored.
    public func setAPIVersion(tenant: UUID, version: String, actor: String) async throws -> Tenant? {
        let now = clock()
        return try await system { c in
            guard
                let before = try await c.query(
                    "SELECT api_version FROM tenants WHERE id = $1::uuid FOR UPDATE", [.uuid(tenant)]
                ).first
            else { return nil }
            let row = try await c.query(
                "UPDATE tenants SET api_version = $2 WHERE id = $1::uuid RETURNING id, name, created_at, api_version",
                [.uuid(tenant), .text(version)])
            try await Self.audit(
                c, tenant: tenant, actor: actor, action: "tenant.api_version", target: tenant.uuidString.lowercased(),
                details: ["from": before.optionalString("api_version") ?? "", "to": version], at: now)
            return try row.first.map(Self.tenant)
        }
    }

    public func createAPIKey(
        tenant: UUID, name: String, scopes: [APIKeyScope], expiresAt: Date?, livemode: Bool, actor: String
    ) async throws -> CreatedAPIKey {
        let secret = APIKey.secret(livemode: livemode, random: SecureRandom.token(bytes: 24))
        let key = APIKey(
            id: UUID(), tenantId: tenant, prefix: APIKey.shownPrefix(of: secret, livemode: livemode), name: name,
            scopes: scopes, createdAt: clock(), expiresAt: expiresAt, livemode: livemode)
        let hash = Self.hashKey(secret)
        // A tenant's first key pins it to the current version; a tenant that already has keys keeps its
        // version (NULL, the oldest, for keys made before versions existed).
        try await system { c in
            try await c.query(
                """
                UPDATE tenants SET api_version = $2
                WHERE id = $1::uuid AND api_version IS NULL
                    AND NOT EXISTS (SELECT 1 FROM api_keys WHERE tenant_id = $1::uuid)
                """, [.uuid(tenant), .text(APIVersion.current.name)])
        }
        try await tenantScoped(tenant) { c in
            try await Self.insert(key, hash: hash, into: c)
            try await Self.audit(
                c, tenant: tenant, actor: actor, action: "api_key.create", target: key.id.uuidString,
                details: ["prefix": key.prefix, "livemode": "\(key.livemode)"], at: key.createdAt)
        }
        return CreatedAPIKey(key: key, secret: secret)
    }

    public func apiKeys(tenant: UUID) async throws -> [APIKey] {
        try await tenantScoped(tenant) { c in
            try await c.query("SELECT * FROM api_keys ORDER BY created_at, id").rows.map(Self.apiKey)
        }
    }

    /// The rows of `page` of the tenant's keys (row-level security keeps them to the tenant).
    public func apiKeys(tenant: UUID, page: PageRequest) async throws -> [APIKey] {
        try await tenantScoped(tenant) { c in try await Self.keyPages.rows(c, page).map(Self.apiKey) }
    }

    /// Revokes a key of this tenant; false if there is none.
    public func revokeAPIKey(tenant: UUID, id: UUID, actor: String) async throws -> Bool {
        let now = clock()
        defer { configurationChanges.changed(tenant: tenant) }
        return try await tenantScoped(tenant) { c in
            let result = try await c.query(
                "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2::timestamptz) WHERE id = $1::uuid",
                [.uuid(id), .timestamp(now)])
            guard result.affectedRows == 1 else { return false }
            try await Self.audit(
                c, tenant: tenant, actor: actor, action: "api_key.revoke", target: id.uuidString, details: [:], at: now)
            return true
        }
    }

    /// Rotates a usable key: a new key with the same name and scopes is created, and the old one stays
    /// valid for `grace` more seconds (or until its own earlier expiry). Nil when the key is unknown; throws
    /// `key_not_usable` (409) for a revoked or expired key.
    public func rotateAPIKey(tenant: UUID, id: UUID, grace: TimeInterval, expiresAt: Date?, actor: String)
        async throws -> CreatedAPIKey?
    {
        let now = clock()
        let graceUntil = now.addingTimeInterval(grace)
        let random = SecureRandom.token(bytes: 24)
        defer { configurationChanges.changed(tenant: tenant) }
        return try await tenantScoped(tenant) { c in
            guard
                let old = try await c.query("SELECT * FROM api_keys WHERE id = $1::uuid FOR UPDATE", [.uuid(id)]).first
                    .map(Self.apiKey)
            else { return nil }
            guard old.isUsable(at: now) else {
                throw CoreError(.keyNotUsable, "a revoked or expired key cannot be rotated")
            }
            let secret = APIKey.secret(livemode: old.livemode, random: random)
            let key = APIKey(
                id: UUID(), tenantId: tenant, prefix: APIKey.shownPrefix(of: secret, livemode: old.livemode),
                name: old.name, scopes: old.scopes, createdAt: now, expiresAt: expiresAt, livemode: old.livemode)
            try await Self.insert(key, hash: Self.hashKey(secret), into: c)
            let oldExpiry = min(old.expiresAt ?? graceUntil, graceUntil)
            try await c.query(
                "UPDATE api_keys SET expires_at = $2::timestamptz WHERE id = $1::uuid",
                [.uuid(id), .timestamp(oldExpiry)])
            try await Self.audit(
                c, tenant: tenant, actor: actor, action: "api_key.rotate", target: id.uuidString,
                details: ["new_key": key.id.uuidString, "prefix": key.prefix], at: now)
            return CreatedAPIKey(key: key, secret: secret)
        }
    }

    /// Finds the usable key with this secret and records its use; nil when unknown, revoked or expired.
    ///
    /// A key found recently is taken from memory (see ``apiKeys``); its use is then recorded at most once
    /// a minute.
    public func authenticate(secret: String) async throws -> APIKey? {
        let hash = Self.hashKey(secret)
        let now = clock()
        if let cached = apiKeys.value(for: hash) {
            guard cached.key.isUsable(at: now) else { return nil }
            if now.timeIntervalSince(cached.usedAt) < 60 { return cached.key }
        }
        let ticket = apiKeys.ticket(tenant: nil)
        let key = try await system { c in
            try await c.query("SELECT * FROM api_keys WHERE key_hash = $1", [.text(hash)]).rows.first.map(Self.apiKey)
        }
        guard let key else { return nil }
        if let ticket { apiKeys.insert(key, hash: hash, usedAt: now, ticket: ticket) }
        guard key.isUsable(at: now) else { return nil }
        try await system { c in
            try await c.query(
                "UPDATE api_keys SET last_used_at = $2::timestamptz WHERE id = $1::uuid AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')",
                [.uuid(key.id), .timestamp(now)])
        }
        return key
    }

    /// Stores a new key (its secret only as `hash`).
    static func insert(_ key: APIKey, hash: String, into c: PGConnection) async throws {
        try await c.query(
            """
            INSERT INTO api_keys (id, tenant_id, prefix, key_hash, name, scopes, created_at, expires_at, livemode)
            VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6::text[], $7::timestamptz, $8::timestamptz, $9::boolean)
            """,
            [
                .uuid(key.id), .uuid(key.tenantId), .text(key.prefix), .text(hash), .text(key.name),
                .text("{" + key.scopes.map(\.rawValue).joined(separator: ",") + "}"), .timestamp(key.createdAt),
                key.expiresAt.pg, .bool(key.livemode),
            ])
    }

    static func hashKey(_ secret: String) -> String {
        Hex.encode(SHA2.sha256(Array(secret.utf8)))
    }

    static func apiKey(_ row: PGRow) throws -> APIKey {
        let scopesText = try row.string("scopes").trimmingCharacters(in: CharacterSet(charactersIn: "{}"))
        return APIKey(
            id: try row.uuid("id"), tenantId: try row.uuid("tenant_id"), prefix: try row.string("prefix"),
            name: try row.string("name"),
            scopes: scopesText.split(separator: ",").compactMap { APIKeyScope(rawValue: String($0)) },
            createdAt: try row.date("created_at"), revokedAt: row.optionalDate("revoked_at"),
            expiresAt: row.optionalDate("expires_at"), lastUsedAt: row.optionalDate("last_used_at"),
            livemode: try row.bool("livemode"))
    }

    // MARK: Audit

    /// Writes an audit entry. While an admin request runs (``AuditContext/current``), the entry names its
    /// operator (an `operator` actor becomes `operator:<name>`), role, request id and source address.
    static func audit(
        _ c: PGConnection, tenant: UUID?, actor: String, action: String, target: String, details: [String: String],
        at: Date
    ) async throws {
        let context = AuditContext.current
        let shown = context.map { actor == "operator" ? $0.identity.actor : actor } ?? actor
        try await c.query(
            """
            INSERT INTO audit_log (tenant_id, actor, action, target, details, at, operator_id, operator_name,
                operator_role, request_id, source_address)
            VALUES ($1::uuid, $2, $3, $4, $5::jsonb, $6::timestamptz, $7::uuid, $8, $9, $10, $11)
            """,
            [
                tenant.pg, .text(shown), .text(action), .text(target), .json(try StoreJSON.encode(details)),
                .timestamp(at), context?.identity.id.map(PGValue.uuid) ?? .null, PGValue(context?.identity.name),
                PGValue(context?.identity.role.rawValue), PGValue(context?.requestId),
                PGValue(context?.sourceAddress),
            ])
    }

    /// The rows of `page` of the audit log; for one tenant or all, and one operator or all.
    public func auditLog(tenant: UUID?, operatorId: UUID?, page: PageRequest) async throws -> [AuditEntry] {
        try await system { c in
            var scope: [String] = []
            var params: [PGValue] = []
            if let tenant {
                params.append(.uuid(tenant))
                scope.append("tenant_id = $\(params.count)::uuid")
            }
            if let operatorId {
                params.append(.uuid(operatorId))
                scope.append("operator_id = $\(params.count)::uuid")
            }
            let rows = try await Self.auditPages.rows(c, page, scope: scope, params: params)
            return try rows.map { row in
                var entry = AuditEntry(
                    id: try row.int64("id"), tenantId: row["tenant_id"].flatMap(UUID.init(uuidString:)),
                    actor: try row.string("actor"), action: try row.string("action"), target: try row.string("target"),
                    details: (try? StoreJSON.decode([String: String].self, try row.string("details"))) ?? [:],
                    at: try row.date("at"))
                entry.operatorId = row["operator_id"].flatMap(UUID.init(uuidString:))
                entry.operatorName = row.optionalString("operator_name")
                entry.operatorRole = row.optionalString("operator_role")
                entry.requestId = row.optionalString("request_id")
                entry.sourceAddress = row.optionalString("source_address")
                return entry
            }
        }
    }
}

extension PostgresTenants {
    static let tenantPages = PageQuery(
        table: "tenants", columns: "id, name, created_at, api_version", idType: "uuid", statusColumn: nil)
    static let keyPages = PageQuery(table: "api_keys", idType: "uuid", statusColumn: nil)
    static let auditPages = PageQuery(table: "audit_log", idType: "bigint", createdColumn: "at", statusColumn: nil)

    // MARK: Tenant policy

    public func tenantPolicy(tenant: UUID) async throws -> TenantPolicy {
        try await system { c in
            guard
                let text = try await c.query("SELECT policy FROM tenants WHERE id = $1::uuid", [.uuid(tenant)]).first?
                    .optionalString("policy")
            else { return TenantPolicy() }
            return try StoreJSON.decode(TenantPolicy.self, text)
        }
    }

    /// Replaces a tenant's own limits (audited).
    public func setTenantPolicy(tenant: UUID, policy: TenantPolicy, actor: String) async throws {
        let now = clock()
        let encoded = try StoreJSON.encode(policy)
        try await system { c in
            try await c.query(
                "UPDATE tenants SET policy = $2::jsonb WHERE id = $1::uuid", [.uuid(tenant), .json(encoded)])
            try await Self.audit(
                c, tenant: tenant, actor: actor, action: "tenant.policy", target: tenant.uuidString,
                details: ["policy": encoded], at: now)
        }
        configurationChanges.changed(tenant: tenant)
    }
}
