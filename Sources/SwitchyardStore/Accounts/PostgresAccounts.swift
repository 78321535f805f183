import Foundation
import SwitchyardCore

/// Tenants' provider accounts, their secret credential fields sealed, over the shared ``PostgresDatabase``.
public struct PostgresAccounts: AccountRepository, PostgresRepository {
    let database: PostgresDatabase
}

extension PostgresAccounts {
    /// Creates a provider account; secret credential fields are encrypted before they are stored.
    public func createAccount(_ account: ProviderAccount, actor: String) async throws -> ProviderAccount {
        let columns = try sealColumns(account)
        try await tenantScoped(account.tenantId) { c in
            try await c.query(
                """
                INSERT INTO provider_accounts (id, tenant_id, name, plugin_id, environment, base_url, credentials,
                    secret_credentials, options, enabled, created_at, updated_at, fees)
                VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9::jsonb, $10::boolean,
                    $11::timestamptz, $11::timestamptz, $12::jsonb)
                """,
                [
                    .uuid(account.id), .uuid(account.tenantId), .text(account.name), .text(account.pluginId),
                    .text(account.environment), .text(account.baseURL), .json(columns.plain), .json(columns.sealed),
                    .json(try StoreJSON.encode(account.options)), .bool(account.enabled), .timestamp(account.createdAt),
                    .json(try StoreJSON.encode(account.fees)),
                ])
            try await PostgresTenants.audit(
                c, tenant: account.tenantId, actor: actor, action: "provider_account.create",
                target: account.id.uuidString, details: ["plugin": account.pluginId, "name": account.name],
                at: account.createdAt)
        }
        configurationChanges.changed(tenant: account.tenantId)
        return account
    }

    /// Replaces an account's settings (credentials merged by the caller).
    public func updateAccount(_ account: ProviderAccount, actor: String, changed: [String]) async throws {
        let columns = try sealColumns(account)
        let now = clock()
        try await tenantScoped(account.tenantId) { c in
            try await c.query(
                """
                UPDATE provider_accounts SET name = $2, environment = $3, base_url = $4, credentials = $5::jsonb,
                    secret_credentials = $6::jsonb, options = $7::jsonb, enabled = $8::boolean, updated_at = $9::timestamptz,
                    fees = $10::jsonb
                WHERE id = $1::uuid
                """,
                [
                    .uuid(account.id), .text(account.name), .text(account.environment), .text(account.baseURL),
                    .json(columns.plain), .json(columns.sealed), .json(try StoreJSON.encode(account.options)),
                    .bool(account.enabled), .timestamp(now), .json(try StoreJSON.encode(account.fees)),
                ])
            try await PostgresTenants.audit(
                c, tenant: account.tenantId, actor: actor, action: "provider_account.update",
                target: account.id.uuidString, details: ["fields": changed.sorted().joined(separator: ",")], at: now)
        }
        configurationChanges.changed(tenant: account.tenantId)
    }

    public func account(tenant: UUID, id: UUID) async throws -> ProviderAccount? {
        let rows = try await tenantScoped(
            tenant, repeatable: PGStatement("SELECT * FROM provider_accounts WHERE id = $1::uuid", [.uuid(id)])
        ).rows
        return try rows.first.map(openAccount)
    }

    public func accounts(tenant: UUID) async throws -> [ProviderAccount] {
        let rows = try await tenantScoped(
            tenant, repeatable: PGStatement("SELECT * FROM provider_accounts ORDER BY created_at, id")
        ).rows
        return try rows.map(openAccount)
    }

    /// The rows of `page` of the tenant's accounts, secrets decrypted (`status` is `enabled` or `disabled`).
    public func accounts(tenant: UUID, page: PageRequest) async throws -> [ProviderAccount] {
        let rows = try await tenantScoped(tenant) { c in try await Self.accountPages.rows(c, page) }
        return try rows.map(openAccount)
    }

    static let accountPages = PageQuery(
        table: "provider_accounts", idType: "uuid",
        statusColumn: "CASE WHEN enabled THEN 'enabled' ELSE 'disabled' END")

    /// All of a tenant's accounts for routing, their secret credential fields left out (not decrypted).
    public func accountDescriptors(tenant: UUID) async throws -> [ProviderAccount] {
        let rows = try await tenantScoped(
            tenant, repeatable: PGStatement("SELECT * FROM provider_accounts ORDER BY created_at, id")
        ).rows
        return try rows.map { try openAccount($0, decrypt: false) }
    }

    public func account(id: UUID) async throws -> ProviderAccount? {
        let rows = try await system(
            repeatable: PGStatement("SELECT * FROM provider_accounts WHERE id = $1::uuid", [.uuid(id)])
        ).rows
        return try rows.first.map(openAccount)
    }

    private func sealColumns(_ account: ProviderAccount) throws -> (plain: String, sealed: String) {
        var plain: [String: String] = [:]
        var sealed: [String: String] = [:]
        for (name, value) in account.credentials {
            if account.secretFields.contains(name) {
                sealed[name] = try secrets.seal(value, context: SealContext.accountCredential(account.id, field: name))
            } else {
                plain[name] = value
            }
        }
        return (try StoreJSON.encode(plain), try StoreJSON.encode(sealed))
    }

    private func openAccount(_ row: PGRow) throws -> ProviderAccount {
        try openAccount(row, decrypt: true)
    }

    private func openAccount(_ row: PGRow, decrypt: Bool) throws -> ProviderAccount {
        let id = try row.uuid("id")
        var credentials = try StoreJSON.decode([String: String].self, try row.string("credentials"))
        let sealed = try StoreJSON.decode([String: String].self, try row.string("secret_credentials"))
        for (name, value) in sealed where decrypt {
            credentials[name] = try secrets.open(value, context: SealContext.accountCredential(id, field: name))
        }
        var account = ProviderAccount(
            id: id, tenantId: try row.uuid("tenant_id"), name: try row.string("name"),
            pluginId: try row.string("plugin_id"), environment: try row.string("environment"),
            baseURL: try row.string("base_url"), credentials: credentials, secretFields: sealed.keys.sorted(),
            options: try StoreJSON.decode([String: String].self, try row.string("options")),
            enabled: try row.bool("enabled"), createdAt: try row.date("created_at"))
        account.fees = try StoreJSON.decode([String: FeeModel].self, try row.string("fees"))
        return account
    }
}

extension PostgresAccounts {
    /// System scope: every tenant's accounts whose environment moves real money (``Livemode``), credentials
    /// opened, for `switchyard doctor`'s check against the plugins' published test values. Fails with a
    /// ``StoreError`` when the key-encryption key cannot open one.
    public func liveAccounts() async throws -> [ProviderAccount] {
        let environments = Livemode.liveEnvironments.sorted().map { "'\($0)'" }.joined(separator: ", ")
        let rows = try await system { c in
            try await c.query(
                "SELECT * FROM provider_accounts WHERE environment IN (\(environments)) ORDER BY tenant_id, id"
            ).rows
        }
        return try rows.map(openAccount)
    }
}
