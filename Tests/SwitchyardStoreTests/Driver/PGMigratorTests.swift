import Foundation
import SwitchyardStore
import SwitchyardTestSupport
import Testing

@Suite("Migrator")
struct PGMigratorTests {
    private static let base = [
        Migration(version: 1, name: "accounts", sql: "CREATE TABLE accounts (id int PRIMARY KEY, name text)"),
        Migration(
            version: 2, name: "seed",
            sql: "INSERT INTO accounts VALUES (1, 'first'); CREATE TABLE applied_log (version int)"),
    ]

    private static func versions(_ pool: PGPool) async throws -> [Int64] {
        try await pool.withConnection { connection in
            try await connection.query("SELECT version FROM schema_migrations ORDER BY version").rows.map {
                try $0.int64("version")
            }
        }
    }

    @Test func appliesOnceAndIsIdempotent() async throws {
        try await DriverFixture.withPool(size: 2) { pool in
            let first = try await Migrator.migrate(pool, migrations: Self.base, logger: DriverFixture.logger)
            #expect(first == [1, 2])
            let second = try await Migrator.migrate(pool, migrations: Self.base, logger: DriverFixture.logger)
            #expect(second == [])
            let third = try await Migrator.migrate(
                pool,
                migrations: Self.base.reversed()
                    + [Migration(version: 3, name: "more", sql: "INSERT INTO accounts VALUES (2, 'second')")],
                logger: DriverFixture.logger)
            #expect(third == [3])
            #expect(try await Self.versions(pool) == [1, 2, 3])
            let (accounts, recorded) = try await pool.withConnection { connection in
                let accounts = try await connection.query("SELECT count(*) AS n FROM accounts").first.driverUnwrap()
                    .int64(
                        "n")
                let row = try await connection.query(
                    "SELECT name, applied_at FROM schema_migrations WHERE version = $1", [.int(2)]
                ).first.driverUnwrap()
                return (accounts, (try row.string("name"), try row.date("applied_at")))
            }
            #expect(accounts == 2)
            #expect(recorded.0 == "seed")
            #expect(abs(recorded.1.timeIntervalSinceNow) < 120)
        }
    }

    @Test func concurrentMigrationsApplyEachVersionOnce() async throws {
        let connectionString = try await TestPostgres.freshDatabase()
        let pools = try (0..<2).map { _ in
            try PGPool(
                PostgresConfiguration(connectionString: connectionString, poolSize: 2), logger: DriverFixture.logger)
        }
        let migrations = [
            Migration(version: 1, name: "log", sql: "CREATE TABLE log (version int); SELECT pg_sleep(0.2)"),
            Migration(version: 2, name: "two", sql: "INSERT INTO log VALUES (2); SELECT pg_sleep(0.1)"),
            Migration(version: 3, name: "three", sql: "INSERT INTO log VALUES (3)"),
        ]
        async let left = Migrator.migrate(pools[0], migrations: migrations, logger: DriverFixture.logger)
        async let right = Migrator.migrate(pools[1], migrations: migrations, logger: DriverFixture.logger)
        let (a, b) = try await (left, right)
        #expect((a + b).sorted() == [1, 2, 3])
        #expect(Set(a).isDisjoint(with: b))
        let logged = try await pools[0].withConnection { connection in
            try await connection.query("SELECT version FROM log ORDER BY version").rows.map { try $0.int64("version") }
        }
        #expect(logged == [2, 3])
        #expect(try await Self.versions(pools[0]) == [1, 2, 3])
        for pool in pools { await pool.shutdown() }
    }

    @Test func failingMigrationIsRolledBackAndStopsTheRun() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let migrations = [
                Self.base[0],
                Migration(version: 2, name: "broken", sql: "CREATE TABLE half (id int); SELECT * FROM missing_table"),
                Migration(version: 3, name: "after", sql: "CREATE TABLE after_broken (id int)"),
            ]
            let error = await #expect(throws: PGError.self) {
                try await Migrator.migrate(pool, migrations: migrations, logger: DriverFixture.logger)
            }
            #expect(error?.sqlState == "42P01")
            #expect(try await Self.versions(pool) == [1])
            let tables = try await pool.withConnection { connection in
                try await connection.query(
                    "SELECT to_regclass('half') IS NULL AS no_half, to_regclass('after_broken') IS NULL AS no_after"
                ).first.driverUnwrap()
            }
            #expect(try tables.bool("no_half"))
            #expect(try tables.bool("no_after"))
        }
    }

    @Test func duplicateVersionsAreRejected() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let error = await #expect(throws: PGError.self) {
                try await Migrator.migrate(
                    pool, migrations: Self.base + [Migration(version: 2, name: "again", sql: "SELECT 1")],
                    logger: DriverFixture.logger)
            }
            #expect(error?.code == .invalidMigrations)
        }
    }
}
