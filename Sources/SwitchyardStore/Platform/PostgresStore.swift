import Foundation
import Logging
import SwitchyardCore

/// Switchyard's storage over PostgreSQL: every repository port of the core, scoped by tenant with
/// row-level security as a second wall.
public final class PostgresStore: Sendable {
    let pool: PGPool
    let secrets: SecretBox
    let clock: @Sendable () -> Date
    let logger: Logger
    /// Where this store reports its own configuration writes, and a listener every replica's.
    public let configurationChanges = ConfigurationChanges()
    /// API keys found recently (served only while configuration changes are reported).
    let apiKeys: APIKeyCache

    public init(pool: PGPool, secrets: SecretBox, clock: @escaping @Sendable () -> Date, logger: Logger) {
        self.pool = pool
        self.secrets = secrets
        self.clock = clock
        self.logger = logger
        // Entries age by the wall clock: their lifetime is a safety net, not business time.
        self.apiKeys = APIKeyCache(settings: PlatformPolicy.Caching().settings, clock: { Date() })
        configurationChanges.add(apiKeys.entries)
    }

    /// Applies pending migrations; returns the versions applied now.
    ///
    /// A role that does not own the tables cannot migrate: when migrations are pending it fails with a
    /// message naming `switchyard migrate`. A server that connects as the tables' owner (older
    /// deployments) still works: the owner is made a member of ``Schema/systemRole`` so that forced
    /// row-level security lets its cross-tenant work through, and a warning says to use a separate role.
    @discardableResult
    public func migrate() async throws -> [Int] {
        let applied: [Int]
        do {
            applied = try await Migrator.migrate(pool, migrations: Schema.migrations, logger: logger)
        } catch let error as PGError where error.sqlState == "42501" {
            throw PGError(
                code: .server, sqlState: error.sqlState,
                message: "this database role may not change the schema; run `switchyard migrate` with the "
                    + "owner's connection string first (\(error.message))")
        }
        try await grantSystemRightsIfOwner()
        return applied
    }

    /// Fails when migrations are pending; applies nothing (`serve --no-migrate`).
    public func requireMigrated() async throws -> [Int] {
        let pending = try await Migrator.pending(pool, migrations: Schema.migrations)
        guard pending.isEmpty else {
            throw PGError(
                code: .invalidMigrations,
                message:
                    "migrations \(pending.map(String.init).joined(separator: ", ")) are pending; run `switchyard migrate` with the owner's connection string"
            )
        }
        return []
    }

    private func grantSystemRightsIfOwner() async throws {
        let owner = try await pool.withConnection { c in
            try await c.query(
                """
                SELECT pg_get_userbyid(relowner) = current_user AND NOT pg_has_role(current_user, $1, 'MEMBER')
                    AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS legacy
                FROM pg_class WHERE oid = to_regclass('tenants')
                """, [.text(Schema.systemRole)]
            ).first?["legacy"] == "t"
        }
        guard owner else { return }
        logger.warning(
            "serving as the owner of the tables; connect as a role that does not own them (see switchyard migrate)")
        try await pool.withConnection { c in
            try await c.execute("DO $$ BEGIN EXECUTE format('GRANT \(Schema.systemRole) TO %I', current_user); END $$")
        }
    }

    /// Runs `body` in a transaction where row-level security restricts every tenant table to `tenant`.
    @discardableResult
    func tenantScoped<T: Sendable>(_ tenant: UUID, _ body: @escaping @Sendable (PGConnection) async throws -> T)
        async throws -> T
    {
        try await pool.transaction(
            role: Schema.tenantRole, settings: [Schema.tenantSetting: tenant.uuidString.lowercased()], body)
    }

    /// Runs `body` like ``tenantScoped(_:_:)`` in a read-only transaction whose statements all read one
    /// snapshot: for reads of several statements that must agree (a row and its children).
    func tenantSnapshot<T: Sendable>(_ tenant: UUID, _ body: @escaping @Sendable (PGConnection) async throws -> T)
        async throws -> T
    {
        try await pool.transaction(
            role: Schema.tenantRole, settings: [Schema.tenantSetting: tenant.uuidString.lowercased()], snapshot: true,
            body)
    }

    /// Runs `body` in a transaction with the system's own rights (operator actions, workers, lookups by
    /// provider reference). Callers must scope their queries themselves.
    @discardableResult
    func system<T: Sendable>(_ body: @escaping @Sendable (PGConnection) async throws -> T) async throws -> T {
        try await pool.transaction(body)
    }

    /// Whether the database answers.
    public func ping() async -> Bool {
        (try? await pool.withConnection { try await $0.query("SELECT 1 AS one").rows.count == 1 }) ?? false
    }
}

/// JSON helpers for jsonb columns.
enum StoreJSON {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.timeIntervalSince1970)
        }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self))
        }
        return try decoder.decode(type, from: Data(text.utf8))
    }
}

extension Optional where Wrapped == String {
    /// A text parameter, or SQL NULL.
    var pg: PGValue { map { .text($0) } ?? .null }
}

extension Optional where Wrapped == Date {
    var pg: PGValue { map { .timestamp($0) } ?? .null }
}

extension Optional where Wrapped == Int64 {
    var pg: PGValue { map { .int($0) } ?? .null }
}

extension Optional where Wrapped == UUID {
    var pg: PGValue { map { .uuid($0) } ?? .null }
}
