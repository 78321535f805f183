import CLibPQ
import Foundation

/// One statement of a pipeline: SQL text (a single statement) and its parameters.
public struct PGStatement: Sendable {
    public var sql: String
    public var params: [PGValue]

    public init(_ sql: String, _ params: [PGValue] = []) {
        self.sql = sql
        self.params = params
    }
}

extension PGConnection {
    /// The most parameter bytes one pipeline sends. libpq's pipeline runs here in blocking mode, which is
    /// safe only while what is sent fits in the sockets' buffers; a larger batch runs one statement at a
    /// time instead.
    public static let pipelineByteLimit = 64 << 10

    /// Runs `statements` in order in one round trip (libpq's pipeline mode) and returns their results.
    ///
    /// Each statement is prepared as ``query(_:_:)`` prepares it (the first use of a text on a session costs
    /// a round trip of its own). Inside a transaction the statements behave as if run one after another:
    /// the first error is thrown once every result was read, and the statements after it did not run (the
    /// transaction is aborted, as it would be after that error anyway). Outside a transaction the pipeline
    /// is one implicit transaction.
    @discardableResult
    public func pipeline(_ statements: [PGStatement]) throws -> [PGResult] {
        guard statements.count > 1 else { return try statements.map { try query($0.sql, $0.params) } }
        let encoded = try statements.map { statement in
            try statement.params.enumerated().map { try $1.encoded(position: $0 + 1) }
        }
        let bytes = encoded.reduce(0) { total, values in
            values.reduce(total) { $0 &+ ($1?.utf8.count ?? 0) }
        }
        guard bytes <= Self.pipelineByteLimit else {
            return try statements.map { try query($0.sql, $0.params) }
        }
        let conn = try liveHandle()
        let names = try statements.map { try statementName(for: $0.sql, on: conn) }
        guard PQenterPipelineMode(conn) == 1 else {
            return try statements.map { try query($0.sql, $0.params) }
        }
        // A connection that cannot leave pipeline mode (results left unread after a failure) is closed, so
        // the next user reconnects rather than finding it unusable.
        defer { if PQexitPipelineMode(conn) != 1 { close() } }
        for (name, values) in zip(names, encoded) {
            let sent = PGCStrings.withArray(values) { pointers in
                PQsendQueryPrepared(conn, name, Int32(pointers.count), pointers, nil, nil, 0)
            }
            guard sent == 1 else {
                throw PGError(code: .connectionFailed, message: Self.connectionErrorMessage(conn))
            }
        }
        guard PQpipelineSync(conn) == 1 else {
            throw PGError(code: .connectionFailed, message: Self.connectionErrorMessage(conn))
        }
        counters.statements += statements.count
        return try collect(statements, on: conn)
    }

    /// Reads the results of the pipelined `statements` and the pipeline's sync.
    private func collect(_ statements: [PGStatement], on conn: OpaquePointer) throws -> [PGResult] {
        var results: [PGResult] = []
        results.reserveCapacity(statements.count)
        var failure: (any Error)?
        for statement in statements {
            guard let result = PQgetResult(conn) else {
                throw PGError(code: .connectionFailed, message: Self.connectionErrorMessage(conn))
            }
            if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                PQclear(result)
                failure =
                    failure
                    ?? PGError(
                        code: .transactionAborted, sqlState: "25P02",
                        message: "an earlier statement of the pipeline failed")
            } else {
                if Self.writes(result) { wroteSinceBegin = true }
                do {
                    results.append(try Self.makeResult(result, connection: conn))
                } catch {
                    forgetStalePlan(of: statement.sql, after: error)
                    failure = failure ?? error
                }
            }
            // Each statement's results end with a NULL.
            while let extra = PQgetResult(conn) { PQclear(extra) }
        }
        // The sync's own result.
        while let result = PQgetResult(conn) {
            let status = PQresultStatus(result)
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        if let failure { throw failure }
        return results
    }
}
