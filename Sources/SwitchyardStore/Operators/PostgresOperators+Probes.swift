import Foundation

extension PostgresOperators {
    /// Whether the database answers.
    public func ping() async -> Bool {
        (try? await pool.withConnection { try await $0.query("SELECT 1 AS one").rows.count == 1 }) ?? false
    }
}
