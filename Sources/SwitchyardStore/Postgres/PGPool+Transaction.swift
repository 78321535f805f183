import Foundation
import Tracing

extension PGPool {
    /// Runs `body` in a transaction on a borrowed connection.
    ///
    /// Issues `BEGIN`; then, for a `snapshot`, `SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`;
    /// then `SET LOCAL ROLE` when `role` is given; then `set_config(name, value, true)`
    /// for each setting (in name order), so both end with the transaction (with the values quoted as
    /// literals); then `body`; then `COMMIT`. The opening goes out with the first statement of `body`, in
    /// its round trip; a `body` that runs no statement sends nothing at all.
    /// Any error thrown by these steps rolls the transaction back and is rethrown. A transaction that
    /// had already failed inside `body` is reported by ``PGError/Code/transactionAborted``.
    ///
    /// - Parameters:
    ///   - role: a role to act as for this transaction only (e.g. one subject to row-level security).
    ///   - settings: configuration parameters for this transaction only, e.g. `["app.tenant_id": "…"]`.
    ///   - snapshot: whether every statement of `body` reads the same snapshot (a read-only transaction
    ///     at REPEATABLE READ, which never fails to serialise): for reads made of several statements.
    @discardableResult
    public func transaction<T: Sendable>(
        role: String? = nil,
        settings: [String: String] = [:],
        snapshot: Bool = false,
        _ body: (PGConnection) async throws -> T
    ) async throws -> T {
        try await withSpan("db.transaction", ofKind: .client) { span in
            span.attributes["db.system"] = "postgresql"
            return try await transactionUntraced(role: role, settings: settings, snapshot: snapshot, body)
        }
    }

    private func transactionUntraced<T: Sendable>(
        role: String?, settings: [String: String], snapshot: Bool,
        _ body: (PGConnection) async throws -> T
    ) async throws -> T {
        try await withConnection { connection in
            do {
                connection.begin(then: try Self.transactionSetup(role: role, settings: settings, snapshot: snapshot))
                let before = connection.counters.statements
                let result = try await body(connection)
                try await connection.commit()
                self.noteCommit(
                    settings: settings, statements: connection.counters.statements - before,
                    wrote: connection.wroteSinceBegin)
                return result
            } catch {
                await connection.rollbackQuietly()
                throw error
            }
        }
    }

    /// The statements that follow `BEGIN` (sent with it and the transaction's first statement in one round
    /// trip): the snapshot's isolation, `SET LOCAL ROLE` and one `SELECT` of a `set_config(name, value, true)`
    /// per setting, in name order.
    static func transactionSetup(role: String?, settings: [String: String], snapshot: Bool = false) throws
        -> [String]
    {
        var statements: [String] = []
        if snapshot { statements.append("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY") }
        if let role { statements.append("SET LOCAL ROLE \(try quoteIdentifier(role))") }
        if !settings.isEmpty {
            let calls = try settings.sorted(by: { $0.key < $1.key }).map { name, value in
                "set_config(\(try quoteLiteral(name)), \(try quoteLiteral(value)), true)"
            }
            statements.append("SELECT " + calls.joined(separator: ", "))
        }
        return statements
    }

    /// Quotes an SQL string literal as an escape string (`E'…'`, backslashes and quotes doubled), which
    /// means the same whatever `standard_conforming_strings` says.
    static func quoteLiteral(_ value: String) throws -> String {
        var plain = true
        for byte in value.utf8 {
            if byte == 0 { throw PGError(code: .invalidParameter, message: "a setting must not contain NUL") }
            if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "'") { plain = false }
        }
        // Most settings (tenant ids, roles) hold neither character: no search-and-replace for them.
        guard !plain else { return "E'" + value + "'" }
        return "E'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''")
            + "'"
    }

    /// Quotes an SQL identifier: `"name"` with inner double quotes doubled.
    package static func quoteIdentifier(_ name: String) throws -> String {
        guard !name.isEmpty, !name.utf8.contains(0) else {
            throw PGError(code: .invalidParameter, message: "an identifier must be non-empty and without NUL")
        }
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
