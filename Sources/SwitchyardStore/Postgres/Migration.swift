/// One versioned schema change.
///
/// The SQL runs inside a transaction opened by ``Migrator``, so it must not contain transaction control
/// (`BEGIN`, `COMMIT`) or statements that cannot run in a transaction (`CREATE INDEX CONCURRENTLY`).
public struct Migration: Sendable {
    /// A unique, increasing version number.
    public var version: Int
    /// A short name, recorded with the version.
    public var name: String
    /// The SQL text; may hold several statements.
    public var sql: String

    /// Creates a migration.
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}
