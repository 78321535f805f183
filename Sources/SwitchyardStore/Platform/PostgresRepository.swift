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
}
