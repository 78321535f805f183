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

    public init(pool: PGPool, secrets: SecretBox, clock: @escaping @Sendable () -> Date, logger: Logger) {
        self.pool = pool
        self.secrets = secrets
        self.clock = clock
        self.logger = logger
    }

    /// Applies pending migrations; returns the versions applied now.
    @discardableResult
    public func migrate() async throws -> [Int] {
        try await Migrator.migrate(pool, migrations: Schema.migrations, logger: logger)
    }

    /// Runs `body` in a transaction where row-level security restricts every tenant table to `tenant`.
    @discardableResult
    func tenantScoped<T: Sendable>(_ tenant: UUID, _ body: @escaping @Sendable (PGConnection) throws -> T)
        async throws -> T
    {
        try await pool.transaction(
            role: Schema.tenantRole, settings: [Schema.tenantSetting: tenant.uuidString.lowercased()], body)
    }

    /// Runs `body` in a transaction with the system's own rights (operator actions, workers, lookups by
    /// provider reference). Callers must scope their queries themselves.
    @discardableResult
    func system<T: Sendable>(_ body: @escaping @Sendable (PGConnection) throws -> T) async throws -> T {
        try await pool.transaction(body)
    }

    /// Whether the database answers.
    public func ping() async -> Bool {
        (try? await pool.withConnection { try $0.query("SELECT 1 AS one").rows.count == 1 }) ?? false
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
