import Foundation

extension PostgresStore {
    /// The connection pool the store works through (for diagnostics and tests).
    public var databasePool: PGPool { pool }

    /// Starts counting the transactions the store commits for `tenant` (see ``PGWatch``); end it with
    /// ``PGPool/unwatch(_:)`` on ``databasePool``.
    public func watchTenant(_ tenant: UUID) -> PGWatch {
        pool.watch(setting: Schema.tenantSetting, value: tenant.uuidString.lowercased())
    }
}
