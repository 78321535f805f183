import Logging

extension PGPool {
    /// Runs `body` with a new pool on `connectionString` and shuts the pool down afterwards, whether
    /// `body` returns or throws.
    @discardableResult
    public static func scoped<T>(
        connectionString: String, size: Int = 1, logger: Logger, _ body: (PGPool) async throws -> T
    ) async throws -> T {
        let pool = try PGPool(PostgresConfiguration(connectionString: connectionString, poolSize: size), logger: logger)
        do {
            let result = try await body(pool)
            await pool.shutdown()
            return result
        } catch {
            await pool.shutdown()
            throw error
        }
    }
}
