import Foundation
import Logging
import ProviderKit
import SwitchyardCore

/// The connection layer every PostgreSQL repository works through: the pool, the sealing keys, the clock,
/// the logger and the caches of configuration, with the transactions that scope a query to one tenant
/// (row-level security) or run it with the system's own rights.
final class PostgresDatabase: Sendable {
    let pool: PGPool
    let secrets: SecretBox
    let clock: @Sendable () -> Date
    let logger: Logger
    /// Where the store reports its own configuration writes, and a listener every replica's.
    let configurationChanges = ConfigurationChanges()
    /// API keys found recently (served only while configuration changes are reported).
    let apiKeys: APIKeyCache
    /// Operators found recently by the hash of their token (dropped on any operator change, everywhere).
    let operatorTokens: TenantCache<String, OperatorHit>

    init(pool: PGPool, secrets: SecretBox, clock: @escaping @Sendable () -> Date, logger: Logger) {
        self.pool = pool
        self.secrets = secrets
        self.clock = clock
        self.logger = logger
        // Entries age by the wall clock: their lifetime is a safety net, not business time.
        self.apiKeys = APIKeyCache(settings: PlatformPolicy.Caching().settings, clock: { Date() })
        configurationChanges.add(apiKeys.entries)
        self.operatorTokens = TenantCache(settings: PlatformPolicy.Caching().settings, clock: { Date() })
        configurationChanges.add(operatorTokens)
    }

    /// Runs `body` in a transaction where row-level security restricts every tenant table to `tenant`.
    @discardableResult
    func tenantScoped<T: Sendable>(_ tenant: UUID, _ body: @escaping @Sendable (PGConnection) async throws -> T)
        async throws -> T
    {
        try await pool.transaction(
            role: Schema.tenantRole, settings: [Schema.tenantSetting: tenant.text()], body)
    }

    /// Runs `body` like ``tenantScoped(_:_:)`` in a read-only transaction whose statements all read one
    /// snapshot: for reads of several statements that must agree (a row and its children).
    func tenantSnapshot<T: Sendable>(_ tenant: UUID, _ body: @escaping @Sendable (PGConnection) async throws -> T)
        async throws -> T
    {
        try await pool.transaction(
            role: Schema.tenantRole, settings: [Schema.tenantSetting: tenant.text()], snapshot: true,
            body)
    }

    /// Runs `body` in a transaction with the system's own rights (operator actions, workers, lookups by
    /// provider reference). Callers must scope their queries themselves.
    @discardableResult
    func system<T: Sendable>(_ body: @escaping @Sendable (PGConnection) async throws -> T) async throws -> T {
        try await pool.transaction(body)
    }
}
