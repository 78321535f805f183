import Foundation
import Logging
import SwitchyardCrypto
import SwitchyardTestSupport
import Testing

@testable import SwitchyardStore

/// The server's role owns nothing, tenants are confined even on `tenants` and `audit_log`, and
/// row-level security binds the tables' owner too.
struct LeastPrivilegeTests {
    static let logger = Logger(label: "test")

    /// A fresh database with two tenants created through the store as the application role.
    func setUp() async throws -> (database: TestDatabase, app: PGPool, a: UUID, b: UUID) {
        let database = try await TestPostgres.freshSwitchyardDatabase()
        let app = try PGPool(
            PostgresConfiguration(connectionString: database.appURL, poolSize: 2), logger: Self.logger)
        let store = PostgresStore(
            pool: app, secrets: try SecretBox(key: SecureRandom.bytes(32)), clock: { Date() }, logger: Self.logger)
        let a = try await store.tenants.createTenant(name: "A", actor: "test").id
        let b = try await store.tenants.createTenant(name: "B", actor: "test").id
        return (database, app, a, b)
    }

    func expectDenied(_ pool: PGPool, _ sql: String, role: String? = nil, tenant: UUID? = nil) async {
        let settings = tenant.map { [Schema.tenantSetting: $0.uuidString.lowercased()] } ?? [:]
        await #expect {
            try await pool.transaction(role: role, settings: settings) { c in try await c.execute(sql) }
        } throws: { error in
            (error as? PGError)?.sqlState == "42501"
        }
    }

    @Test func theApplicationRoleCannotAlterOrDropTables() async throws {
        let (_, app, _, _) = try await setUp()
        defer { Task { await app.shutdown() } }
        await expectDenied(app, "ALTER TABLE payments ADD COLUMN extra integer")
        await expectDenied(app, "DROP TABLE audit_log")
        await expectDenied(app, "CREATE TABLE intruder (id integer)")
        await expectDenied(app, "INSERT INTO schema_migrations (version, name) VALUES (999, 'forged')")
        let flags = try await app.withConnection { c in
            try await c.query(
                """
                SELECT r.rolsuper, r.rolbypassrls, pg_get_userbyid(c.relowner) = current_user AS owns
                FROM pg_roles r, pg_class c WHERE r.rolname = current_user AND c.oid = 'payments'::regclass
                """
            ).first
        }
        #expect(flags?["rolsuper"] == "f")
        #expect(flags?["rolbypassrls"] == "f")
        #expect(flags?["owns"] == "f")
    }

    @Test func aTenantSeesOnlyItsOwnTenantRowAndAuditEntries() async throws {
        let (_, app, a, b) = try await setUp()
        defer { Task { await app.shutdown() } }
        let visible = try await app.transaction(
            role: Schema.tenantRole, settings: [Schema.tenantSetting: a.uuidString.lowercased()]
        ) { c in
            try await c.query("SELECT id FROM tenants").rows.compactMap { $0["id"] }
        }
        #expect(visible == [a.uuidString.lowercased()])
        await expectDenied(
            app,
            "INSERT INTO audit_log (tenant_id, actor, action, target, details, at) "
                + "VALUES ('\(b.uuidString.lowercased())', 'x', 'forged', 'x', '{}', now())",
            role: Schema.tenantRole, tenant: a)
        let ownAudit = try await app.transaction(
            role: Schema.tenantRole, settings: [Schema.tenantSetting: a.uuidString.lowercased()]
        ) { c in
            try await c.execute(
                "INSERT INTO audit_log (tenant_id, actor, action, target, details, at) "
                    + "VALUES ('\(a.uuidString.lowercased())', 'x', 'own', 'x', '{}', now())")
            return try await c.query("SELECT DISTINCT tenant_id FROM audit_log").rows.compactMap { $0["tenant_id"] }
        }
        #expect(ownAudit == [a.uuidString.lowercased()])
        // The system (the application role itself) still sees every tenant.
        let all = try await app.transaction { c in try await c.query("SELECT id FROM tenants").rows.count }
        #expect(all == 2)
    }

    @Test func theOwnerIsSubjectToRowLevelSecurity() async throws {
        let (database, app, a, _) = try await setUp()
        defer { Task { await app.shutdown() } }
        let owner = try PGPool(
            PostgresConfiguration(connectionString: database.ownerURL, poolSize: 1), logger: Self.logger)
        defer { Task { await owner.shutdown() } }
        let seen = try await owner.transaction { c in
            (
                tenants: try await c.query("SELECT count(*)::bigint AS n FROM tenants").first?.int64("n"),
                audit: try await c.query("SELECT count(*)::bigint AS n FROM audit_log").first?.int64("n"),
                unforced: try await c.query(
                    """
                    SELECT count(*)::bigint AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relrowsecurity AND NOT c.relforcerowsecurity
                    """
                ).first?.int64("n")
            )
        }
        #expect(seen.tenants == 0)
        #expect(seen.audit == 0)
        #expect(seen.unforced == 0)
        await expectDenied(
            owner,
            "INSERT INTO routing_versions (tenant_id, version, rules, actor, created_at) "
                + "VALUES ('\(a.uuidString.lowercased())', 99, '[]', 'owner', now())")
    }

    @Test func aTenantTableAddedByALaterMigrationIsForcedAndOpenToTheSystem() async throws {
        let (database, app, a, b) = try await setUp()
        defer { Task { await app.shutdown() } }
        let later = Migration(
            version: 10_000, name: "a later tenant table",
            sql: "CREATE TABLE later_things (id integer PRIMARY KEY, tenant_id uuid NOT NULL);\n"
                + Schema.tenantIsolation("later_things"))
        try await PGPool.scoped(connectionString: database.ownerURL, logger: Self.logger) { owner in
            try await Migrator.migrate(owner, migrations: Schema.migrations + [later], logger: Self.logger)
        }
        // The system writes and reads every tenant's rows; a tenant only its own.
        let counts = try await app.transaction { c in
            try await c.execute("INSERT INTO later_things VALUES (1, '\(a.uuidString.lowercased())')")
            try await c.execute("INSERT INTO later_things VALUES (2, '\(b.uuidString.lowercased())')")
            return try await c.query(
                """
                SELECT count(*)::bigint AS n, bool_and(c.relforcerowsecurity) AS forced
                FROM later_things, pg_class c WHERE c.oid = 'later_things'::regclass
                """
            ).first
        }
        #expect(counts?["n"] == "2")
        #expect(counts?["forced"] == "t")
        let seenByA = try await app.transaction(
            role: Schema.tenantRole, settings: [Schema.tenantSetting: a.uuidString.lowercased()]
        ) { c in try await c.query("SELECT id FROM later_things").rows.compactMap { $0["id"] } }
        #expect(seenByA == ["1"])
    }

    @Test func aServerStillConnectingAsTheOwnerMigratesAndKeepsWorking() async throws {
        // An older deployment: one role owns the tables and serves. It gets its own role name, so the
        // membership it is given does not touch the roles other tests share.
        let adminURL = try await TestPostgres.freshDatabase()
        let role = "legacy_" + Hex.encode(SecureRandom.bytes(6))
        try await PGPool.scoped(connectionString: adminURL, logger: Self.logger) { admin in
            try await admin.withConnection { c in
                try await c.execute(
                    """
                    CREATE ROLE \(role) LOGIN CREATEROLE PASSWORD 'legacy';
                    DO $$ BEGIN EXECUTE format('ALTER DATABASE %I OWNER TO \(role)', current_database()); END $$;
                    GRANT CREATE, USAGE ON SCHEMA public TO \(role);
                    """)
            }
        }
        let ownerURL = adminURL + " user=\(role) password=legacy"
        let pool = try PGPool(PostgresConfiguration(connectionString: ownerURL, poolSize: 2), logger: Self.logger)
        defer { Task { await pool.shutdown() } }
        let store = PostgresStore(
            pool: pool, secrets: try SecretBox(key: SecureRandom.bytes(32)), clock: { Date() }, logger: Self.logger)
        #expect(try await store.migrate() == Schema.migrations.map(\.version))
        let a = try await store.tenants.createTenant(name: "A", actor: "test")
        _ = try await store.tenants.createTenant(name: "B", actor: "test")
        #expect(try await store.tenants.tenants().count == 2)
        #expect(try await store.tenants.tenant(id: a.id)?.name == "A")
    }
}
