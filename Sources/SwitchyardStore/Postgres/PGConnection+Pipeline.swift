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
    /// Runs `statements` in order in one round trip (libpq's pipeline mode) and returns their results.
    ///
    /// Each statement is prepared as ``query(_:_:)`` prepares it (the first use of a text on a session costs
    /// a round trip of its own). Inside a transaction the statements behave as if run one after another:
    /// the first error is thrown once every result was read, and the statements after it did not run (the
    /// transaction is aborted, as it would be after that error anyway). Outside a transaction the pipeline
    /// is one implicit transaction. The connection is non-blocking, so a pipeline of any size is sent while
    /// its first answers are read.
    @discardableResult
    public func pipeline(_ statements: [PGStatement]) async throws -> [PGResult] {
        let encoded = try statements.map { try $0.params.encoded() }
        try checkNotCommitted()
        guard !statements.isEmpty else { return [] }
        if let opening = takePendingBegin() {
            return try await reopeningOnce {
                try await self.pipelined(statements, encoded: encoded, opening: opening)
            }
        }
        guard statements.count > 1 else { return try await sequentially(statements) }
        return try await pipelined(statements, encoded: encoded)
    }

    /// Runs `statements` and then `COMMIT` in one round trip (where it can), ending the transaction; returns
    /// the statements' results. The transaction's own commit then has nothing left to do, and no statement may
    /// follow in it.
    ///
    /// The result of `COMMIT` is read before this returns, so what it wrote is committed. An error in
    /// `statements` leaves the transaction open and failed (it is rolled back as after any error), and a
    /// transaction that had failed before is reported as at ``commit()``. When `statements` would be the
    /// transaction's first batch, which may be sent twice on a reopened connection, `COMMIT` follows in a
    /// round trip of its own, unless the caller says the statements are `repeatable`: running them a second
    /// time after they committed changes nothing, and the caller may take the second answer as the first's
    /// (a read, an upsert that returns its row, an update whose own condition excludes the rows it already
    /// changed when its count is not used). Then the opening, the statements and `COMMIT` go in one round
    /// trip.
    @discardableResult
    public func commit(after statements: [PGStatement], repeatable: Bool = false) async throws -> [PGResult] {
        try checkNotCommitted()
        let results: [PGResult]
        if statements.isEmpty {
            results = []
            try await commit()
        } else if pendingBegin != nil, !repeatable {
            results = try await pipeline(statements)
            try await commit()
        } else {
            let encoded = try statements.map { try $0.params.encoded() }
            if let opening = takePendingBegin() {
                results = try await reopeningOnce {
                    try await self.pipelined(statements, encoded: encoded, opening: opening, closing: ["COMMIT"])
                }
            } else {
                results = try await pipelined(statements, encoded: encoded, closing: ["COMMIT"])
            }
        }
        committed = true
        return results
    }

    /// Throws when the transaction was committed by ``commit(after:repeatable:)``: a statement now would run outside it.
    func checkNotCommitted() throws {
        guard !committed else {
            throw PGError(code: .unexpectedResult, message: "a statement followed the transaction's commit")
        }
    }

    /// Sends `opening`, `statements` and `closing` in one pipeline and returns the results of `statements`.
    ///
    /// The opening and closing statements carry no parameters and are not prepared; their results are only
    /// checked (a `COMMIT` that rolled back is reported as at ``commit()``).
    private func pipelined(
        _ statements: [PGStatement], encoded: [[String?]], opening: [String] = [], closing: [String] = []
    ) async throws -> [PGResult] {
        let conn = try liveHandle()
        var names: [String] = []
        names.reserveCapacity(statements.count)
        for statement in statements { names.append(try await statementName(for: statement.sql, on: conn)) }
        guard PQenterPipelineMode(conn) == 1 else {
            if !opening.isEmpty { try await execute(opening.joined(separator: "; ")) }
            let results = try await sequentially(statements)
            if !closing.isEmpty { try await commit() }
            return results
        }
        let raw: [OpaquePointer?]
        do {
            raw = try await exchange(until: .pipelineSync) { conn in
                for sql in opening {
                    guard PQsendQueryParams(conn, sql, 0, nil, nil, nil, nil, 0) == 1 else { return 0 }
                }
                for (name, values) in zip(names, encoded) {
                    let sent = PGCStrings.withArray(values) { pointers in
                        PQsendQueryPrepared(conn, name, Int32(pointers.count), pointers, nil, nil, 0)
                    }
                    guard sent == 1 else { return 0 }
                }
                for sql in closing {
                    guard PQsendQueryParams(conn, sql, 0, nil, nil, nil, nil, 0) == 1 else { return 0 }
                }
                return PQpipelineSync(conn)
            }
        } catch {
            // A failed exchange closed the session; one still open is left out of pipeline mode.
            if handle == conn, PQexitPipelineMode(conn) != 1 { close() }
            throw error
        }
        // A connection that cannot leave pipeline mode (results left unread) is closed, so the next user
        // reconnects rather than finding it unusable.
        defer { if handle == conn, PQexitPipelineMode(conn) != 1 { close() } }
        counters.statements += statements.count
        let sqls = opening + statements.map(\.sql) + closing
        return Array(try collect(sqls, from: raw, on: conn).dropFirst(opening.count).prefix(statements.count))
    }

    private func sequentially(_ statements: [PGStatement]) async throws -> [PGResult] {
        var results: [PGResult] = []
        for statement in statements { results.append(try await query(statement.sql, statement.params)) }
        return results
    }

    /// Turns the pipelined results into one ``PGResult`` per statement: each statement's results end with
    /// a `NULL`, and the pipeline's sync comes last. Every libpq result is cleared.
    private func collect(_ statements: [String], from raw: [OpaquePointer?], on conn: OpaquePointer) throws
        -> [PGResult]
    {
        var results: [PGResult] = []
        results.reserveCapacity(statements.count)
        var failure: (any Error)?
        var index = 0
        for statement in statements {
            guard index < raw.count, let result = raw[index] else {
                failure = failure ?? PGError(code: .connectionFailed, message: "a pipelined statement had no result")
                break
            }
            index += 1
            if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                PQclear(result)
                failure =
                    failure
                    ?? PGError(
                        code: .transactionAborted, sqlState: "25P02",
                        message: "an earlier statement of the pipeline failed")
            } else if statement == "COMMIT", let tag = PQcmdStatus(result), String(cString: tag) == "ROLLBACK" {
                PQclear(result)
                failure = failure ?? PGConnection.rolledBackAtCommit
            } else {
                if Self.writes(result) { wroteSinceBegin = true }
                do {
                    results.append(try Self.makeResult(result, connection: conn))
                } catch {
                    forgetStalePlan(of: statement, after: error)
                    failure = failure ?? error
                }
            }
            // Anything else of this statement, up to its NULL.
            while index < raw.count, let extra = raw[index] {
                PQclear(extra)
                index += 1
            }
            index += 1
        }
        // The sync's own result, and anything unread.
        while index < raw.count {
            if let result = raw[index] { PQclear(result) }
            index += 1
        }
        if let failure { throw failure }
        return results
    }
}
