import Logging

/// Applies ``Migration``s to a database, each at most once.
///
/// Applied versions are recorded in `schema_migrations(version, name, applied_at)`. Every migration
/// runs in its own transaction together with its record, under a transaction-scoped advisory lock, so
/// several processes may migrate the same database at once: each version is applied exactly once.
public enum Migrator {
    /// The advisory lock key shared by every process migrating a database.
    static let lockKey: Int64 = 0x5359_4D49_4752_4154

    /// Applies the migrations not yet recorded, in version order.
    ///
    /// - Returns: the versions applied by this call (empty when the schema was up to date).
    /// - Throws: ``PGError`` with code ``PGError/Code/invalidMigrations`` for duplicate versions, or the
    ///   error of the first failing migration (which is rolled back; earlier ones stay applied).
    @discardableResult
    public static func migrate(_ pool: PGPool, migrations: [Migration], logger: Logger) async throws -> [Int] {
        let ordered = migrations.sorted { $0.version < $1.version }
        for (previous, next) in zip(ordered, ordered.dropFirst()) where previous.version == next.version {
            throw PGError(code: .invalidMigrations, message: "migration version \(next.version) is duplicated")
        }
        if try await pending(pool, migrations: ordered).isEmpty { return [] }
        try await pool.transaction { connection in
            try await lock(connection)
            try await connection.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
        }
        var applied: [Int] = []
        for migration in ordered {
            let didApply = try await pool.transaction { connection in
                try await lock(connection)
                let existing = try await connection.query(
                    "SELECT 1 FROM schema_migrations WHERE version = $1", [.int(Int64(migration.version))])
                guard existing.rows.isEmpty else { return false }
                try await connection.execute(migration.sql)
                try await connection.query(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, now())",
                    [.int(Int64(migration.version)), .text(migration.name)])
                return true
            }
            if didApply {
                applied.append(migration.version)
                logger.info(
                    "migration applied",
                    metadata: ["migration.version": "\(migration.version)", "migration.name": "\(migration.name)"])
            }
        }
        return applied
    }

    /// The versions not yet recorded, read without taking the lock or creating anything, so that a role
    /// that may not change the schema can still find out that there is nothing to do.
    public static func pending(_ pool: PGPool, migrations: [Migration]) async throws -> [Int] {
        let recorded: Set<Int64> = try await pool.withConnection { connection in
            let table = try await connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")
            guard table.first?["present"] == "t" else { return [] }
            return Set(
                try await connection.query("SELECT version FROM schema_migrations").rows.map {
                    try $0.int64("version")
                })
        }
        return migrations.map(\.version).filter { !recorded.contains(Int64($0)) }.sorted()
    }

    private static func lock(_ connection: PGConnection) async throws {
        // A migration may rewrite large tables or wait for another process's: no session timeout applies.
        try await connection.execute("SET LOCAL statement_timeout TO 0; SET LOCAL lock_timeout TO 0")
        try await connection.query("SELECT pg_advisory_xact_lock($1::bigint)", [.int(lockKey)])
    }
}
