import Foundation
import Logging
import ProviderKit
import SwitchyardCore

/// Switchyard's storage over PostgreSQL, built once by the server: the migrations, and one repository per
/// capability over a shared ``PostgresDatabase`` (`store.payments`, `store.routing`, …) that together
/// implement every repository port of the core, scoped by tenant with row-level security as a second wall.
public final class PostgresStore: Sendable, PostgresRepository {
    /// The connection layer the repositories share.
    let database: PostgresDatabase
    /// Where this store reports its own configuration writes, and a listener every replica's.
    public var configurationChanges: ConfigurationChanges { database.configurationChanges }

    /// Tenants, their API keys, policies and audit log.
    public let tenants: PostgresTenants
    /// Tenants' provider accounts.
    public let accounts: PostgresAccounts
    /// Customers' stored credentials.
    public let credentials: PostgresCredentials
    /// Provider access tokens and their refresh locks.
    public let accessTokens: PostgresAccessTokens
    /// Routing rules, rollouts, outcomes, statistics and logged decisions.
    public let routing: PostgresRouting
    /// Payments and their attempts, refunds and operations.
    public let payments: PostgresPayments
    /// `Idempotency-Key` claims and answers.
    public let idempotencyKeys: PostgresIdempotencyKeys
    /// Webhook endpoints, events and deliveries.
    public let webhooks: PostgresWebhooks
    /// Inbound provider notifications.
    public let notifications: PostgresNotifications
    /// The settlement janitor's claims.
    public let settlement: PostgresSettlement
    /// Server incarnations and their heartbeats.
    public let instances: PostgresInstances
    /// The retention deletes of finished rows.
    public let retention: PostgresRetention
    /// The operator's review queues, probes and payment search.
    public let operators: PostgresOperators
    /// The sealed values and their rotation to the current key.
    public let keyRotation: PostgresKeyRotation
    /// Disputes of payments and the funds they move.
    public let disputes: PostgresDisputes

    public init(pool: PGPool, secrets: SecretBox, clock: @escaping @Sendable () -> Date, logger: Logger) {
        let database = PostgresDatabase(pool: pool, secrets: secrets, clock: clock, logger: logger)
        self.database = database
        tenants = PostgresTenants(database: database)
        accounts = PostgresAccounts(database: database)
        credentials = PostgresCredentials(database: database)
        accessTokens = PostgresAccessTokens(database: database)
        routing = PostgresRouting(database: database)
        payments = PostgresPayments(database: database)
        idempotencyKeys = PostgresIdempotencyKeys(database: database)
        webhooks = PostgresWebhooks(database: database)
        notifications = PostgresNotifications(database: database)
        settlement = PostgresSettlement(database: database)
        instances = PostgresInstances(database: database)
        retention = PostgresRetention(database: database)
        operators = PostgresOperators(database: database)
        keyRotation = PostgresKeyRotation(database: database)
        disputes = PostgresDisputes(database: database)
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

    /// Whether the database answers.
    public func ping() async -> Bool {
        await operators.ping()
    }

    /// The connection pool the store works through (for diagnostics and tests).
    public var databasePool: PGPool { pool }

    /// Starts counting the transactions the store commits for `tenant` (see ``PGWatch``); end it with
    /// ``PGPool/unwatch(_:)`` on ``databasePool``.
    public func watchTenant(_ tenant: UUID) -> PGWatch {
        pool.watch(setting: Schema.tenantSetting, value: tenant.uuidString.lowercased())
    }
}

/// JSON helpers for jsonb columns.
enum StoreJSON {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try CompactJSONEncoder(dates: .secondsSince1970).encode(value), as: UTF8.self)
    }

    /// The value of a column's JSON text, dates as seconds since 1970 as ``encode(_:)`` writes them.
    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try CompactJSONDecoder(dates: .secondsSince1970).decode(type, fromText: text)
    }

    /// The `metadata` column of a row (`{}` when absent from the selection).
    static func metadata(_ row: PGRow) throws -> Metadata {
        guard let text = row.optionalString("metadata") else { return .empty }
        return Metadata(unchecked: try StoreJSON.decode([String: String].self, text))
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
