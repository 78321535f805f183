import Foundation

/// What `switchyard doctor` reads of a deployment's database through the server's own connection: who it
/// connects as, whether row-level security binds every tenant table, which migrations are applied, and
/// whether the key-encryption key opens a secret stored there.
public struct DatabaseDiagnosis: Sendable, Equatable {
    /// The role the connection logs in as.
    public var role: String
    /// Whether that role is a superuser (which bypasses row-level security).
    public var superuser: Bool
    /// Whether that role has BYPASSRLS.
    public var bypassesRowSecurity: Bool
    /// Whether that role owns the tables (an owner could alter them and is the migrations' role).
    public var ownsTables: Bool
    /// Tables with a `tenant_id` column where row-level security is not enabled or not forced.
    public var unconfinedTables: [String]
    /// Migration versions recorded as applied, ascending (empty when the schema was never migrated).
    public var appliedMigrations: [Int]
    /// Whether the key-encryption key opened a secret stored in the database; nil when none is stored yet.
    public var keyOpensStoredSecret: Bool?

    public init(
        role: String, superuser: Bool, bypassesRowSecurity: Bool, ownsTables: Bool, unconfinedTables: [String],
        appliedMigrations: [Int], keyOpensStoredSecret: Bool?
    ) {
        self.role = role
        self.superuser = superuser
        self.bypassesRowSecurity = bypassesRowSecurity
        self.ownsTables = ownsTables
        self.unconfinedTables = unconfinedTables
        self.appliedMigrations = appliedMigrations
        self.keyOpensStoredSecret = keyOpensStoredSecret
    }
}

extension PostgresStore {
    /// Reads the ``DatabaseDiagnosis`` through this store's connection and key-encryption key. Changes
    /// nothing.
    public func diagnose() async throws -> DatabaseDiagnosis {
        let facts = try await pool.withConnection { c in
            let role = try await c.query(
                """
                SELECT current_user AS role, r.rolsuper, r.rolbypassrls,
                    COALESCE((SELECT pg_get_userbyid(relowner) = current_user FROM pg_class
                        WHERE oid = to_regclass('payments')), false) AS owns
                FROM pg_roles r WHERE r.rolname = current_user
                """
            ).first
            let unconfined = try await c.query(
                """
                SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema()
                    AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id'
                        AND NOT a.attisdropped)
                    AND NOT (c.relrowsecurity AND c.relforcerowsecurity)
                ORDER BY c.relname
                """
            ).rows.map { try $0.string("relname") }
            let migrated =
                try await c.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS present").first?["present"]
                == "t"
            let applied =
                migrated
                ? try await c.query("SELECT version FROM schema_migrations ORDER BY version").rows.map {
                    Int(try $0.int64("version"))
                } : []
            return DatabaseDiagnosis(
                role: role?["role"] ?? "?", superuser: role?["rolsuper"] == "t",
                bypassesRowSecurity: role?["rolbypassrls"] == "t", ownsTables: role?["owns"] == "t",
                unconfinedTables: unconfined, appliedMigrations: applied, keyOpensStoredSecret: nil)
        }
        var diagnosis = facts
        // Without the schema there is no secret to try.
        if !facts.appliedMigrations.isEmpty { diagnosis.keyOpensStoredSecret = try await opensAStoredSecret() }
        return diagnosis
    }

    /// Whether the key-encryption key opens one secret stored in the database (a webhook endpoint's
    /// signing secret, else a provider account's secret credential field); nil when none is stored.
    func opensAStoredSecret() async throws -> Bool? {
        do {
            return try await openStoredSecret() ? true : nil
        } catch is StoreError {
            return false
        }
    }

    /// Opens one secret stored in the database (as ``opensAStoredSecret()`` chooses it) with the keyring:
    /// true when it opens, false when none is stored; a ``StoreError`` when the keyring cannot open it
    /// (``StoreError/unknownKey(_:)`` names a key id it lacks). `serve` calls it at start.
    public func openStoredSecret() async throws -> Bool {
        let sample = try await system { c -> (sealed: String, context: String)? in
            if let row = try await c.query("SELECT id, secret_encrypted FROM webhook_endpoints LIMIT 1").first {
                return (try row.string("secret_encrypted"), SealContext.webhook(try row.string("id")))
            }
            let accounts = try await c.query(
                "SELECT id, secret_credentials FROM provider_accounts WHERE secret_credentials <> '{}' LIMIT 1")
            if let row = accounts.first {
                let sealed = try StoreJSON.decode([String: String].self, try row.string("secret_credentials"))
                if let (name, value) = sealed.min(by: { $0.key < $1.key }) {
                    return (value, SealContext.accountCredential(try row.uuid("id"), field: name))
                }
            }
            return nil
        }
        guard let sample else { return false }
        _ = try secrets.open(sample.sealed, context: sample.context)
        return true
    }
}
