import Foundation
import Tracing

extension PGPool {
    /// Runs `body` in a transaction on a borrowed connection.
    ///
    /// Issues `BEGIN`; then `SET LOCAL ROLE` when `role` is given; then `set_config(name, value, true)`
    /// for each setting (in name order), so both end with the transaction; then `body`; then `COMMIT`.
    /// Any error thrown by these steps rolls the transaction back and is rethrown. A transaction that
    /// had already failed inside `body` is reported by ``PGError/Code/transactionAborted``.
    ///
    /// - Parameters:
    ///   - role: a role to act as for this transaction only (e.g. one subject to row-level security).
    ///   - settings: configuration parameters for this transaction only, e.g. `["app.tenant_id": "…"]`.
    @discardableResult
    public func transaction<T: Sendable>(
        role: String? = nil,
        settings: [String: String] = [:],
        _ body: @escaping @Sendable (PGConnection) throws -> T
    ) async throws -> T {
        try await withSpan("db.transaction", ofKind: .client) { span in
            span.attributes["db.system"] = "postgresql"
            return try await transactionUntraced(role: role, settings: settings, body)
        }
    }

    private func transactionUntraced<T: Sendable>(
        role: String?, settings: [String: String], _ body: @escaping @Sendable (PGConnection) throws -> T
    ) async throws -> T {
        try await withConnection { connection in
            try connection.execute("BEGIN")
            do {
                if let role {
                    try connection.execute("SET LOCAL ROLE \(try Self.quoteIdentifier(role))")
                }
                for (name, value) in settings.sorted(by: { $0.key < $1.key }) {
                    try connection.query("SELECT set_config($1, $2, true)", [.text(name), .text(value)])
                }
                let result = try body(connection)
                try connection.commit()
                return result
            } catch {
                connection.rollbackQuietly()
                throw error
            }
        }
    }

    /// Quotes an SQL identifier: `"name"` with inner double quotes doubled.
    static func quoteIdentifier(_ name: String) throws -> String {
        guard !name.isEmpty, !name.utf8.contains(0) else {
            throw PGError(code: .invalidParameter, message: "an identifier must be non-empty and without NUL")
        }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
