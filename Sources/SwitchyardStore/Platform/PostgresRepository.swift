import Foundation
import Logging
import SwitchyardCore

/// A repository over the shared ``PostgresDatabase``: what it holds and its transactions, read as the
/// repository's own.
protocol PostgresRepository: Sendable {
    var database: PostgresDatabase { get }
}

extension PostgresRepository {
    var pool: PGPool { database.pool }
    var secrets: SecretBox { database.secrets }
    var clock: @Sendable () -> Date { database.clock }
    var logger: Logger { database.logger }
    var apiKeys: APIKeyCache { database.apiKeys }
    var configurationChanges: ConfigurationChanges { database.configurationChanges }

    /// Runs `body` in a transaction where row-level security restricts every tenant table to `tenant`.
    @discardableResult
    func tenantScoped<T: Sendable>(_ tenant: UUID, _ body: @escaping @Sendable (PGConnection) async throws -> T)
        async throws -> T
    {
        try await database.tenantScoped(tenant, body)
    }

    /// Runs `body` like ``tenantScoped(_:_:)`` in a read-only transaction whose statements all read one
    /// snapshot: for reads of several statements that must agree (a row and its children).
    func tenantSnapshot<T: Sendable>(_ tenant: UUID, _ body: @escaping @Sendable (PGConnection) async throws -> T)
        async throws -> T
    {
        try await database.tenantSnapshot(tenant, body)
    }

    /// Runs `body` in a transaction with the system's own rights (operator actions, workers, lookups by
    /// provider reference). Callers must scope their queries themselves.
    @discardableResult
    func system<T: Sendable>(_ body: @escaping @Sendable (PGConnection) async throws -> T) async throws -> T {
        try await database.system(body)
    }

    /// Runs one `repeatable` statement like ``tenantScoped(_:_:)`` in one round trip: the transaction's
    /// opening, the statement and `COMMIT` go together (see ``PGConnection/commit(after:repeatable:)``).
    /// Only for a statement whose second run, after the first committed, changes nothing and gives an answer
    /// the caller may take as the first's: a read, an upsert that returns its row, an update whose own
    /// condition excludes what it changed (when the caller does not use its count).
    func tenantScoped(_ tenant: UUID, repeatable statement: PGStatement) async throws -> PGResult {
        try await tenantScoped(tenant) { c in try await Self.single(statement, on: c) }
    }

    /// Runs one `repeatable` statement like ``system(_:)`` in one round trip (see
    /// ``tenantScoped(_:repeatable:)``).
    func system(repeatable statement: PGStatement) async throws -> PGResult {
        try await system { c in try await Self.single(statement, on: c) }
    }

    private static func single(_ statement: PGStatement, on c: PGConnection) async throws -> PGResult {
        guard let result = try await c.commit(after: [statement], repeatable: true).first else {
            throw PGError(code: .unexpectedResult, message: "the statement returned no result")
        }
        return result
    }
}
