import CLibPQ
import Foundation
import Logging

/// One libpq connection.
///
/// A connection is handed to a closure by ``PGPool`` and runs on that pool's dedicated thread for the
/// duration of the closure; it must not escape it. Calls block that thread, never a Swift concurrency
/// thread.
public final class PGConnection {
    private let connectionString: String
    private let connectTimeoutSeconds: Int
    private let keepalive: PostgresConfiguration.Keepalive
    /// `SET` statements for the server-side timeouts, run on every new session (nil: server defaults).
    private let timeoutSetup: String?
    let logger: Logger
    private(set) var handle: OpaquePointer?
    /// SQL text to the name of its server-side prepared statement on the current session.
    private var preparedStatements: [String: String] = [:]
    private var statementCounter = 0
    /// What this connection did since it was created (across sessions).
    public internal(set) var counters = Counters()
    /// Whether a statement since the last `BEGIN` inserted, updated or deleted rows.
    var wroteSinceBegin = false
    /// Counts the sessions opened, so a caller holding session state can tell it was lost.
    private(set) var sessionNumber = 0
    /// Whether ``begin(then:)`` may reopen a broken session; off while a ``PGLease`` relies on its state.
    var mayReopenAtBegin = true

    /// Running totals of one connection's work.
    public struct Counters: Sendable, Equatable {
        /// Statements run with ``query(_:_:)``.
        public var statements = 0
        /// Statements prepared on the server (`PQprepare`), at most once per SQL text and session.
        public var prepares = 0
    }

    /// Settings applied to every new session so that text output has one known form.
    private static let sessionSetup =
        "SET TimeZone TO 'UTC'; SET DateStyle TO 'ISO, MDY'; SET bytea_output TO 'hex'; SET extra_float_digits TO 3"

    init(
        connectionString: String, connectTimeoutSeconds: Int,
        sessionTimeouts: PostgresConfiguration.SessionTimeouts? = nil,
        keepalive: PostgresConfiguration.Keepalive = PostgresConfiguration.Keepalive(), logger: Logger
    ) {
        self.connectionString = connectionString
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.keepalive = keepalive
        self.timeoutSetup = sessionTimeouts?.setup
        self.logger = logger
    }

    deinit { close() }

    /// Runs a statement with parameters, preparing it on first use on this session.
    ///
    /// Each distinct SQL text is prepared once per session (`PQprepare`, cached by text) and then run
    /// with `PQexecPrepared`; parameters are sent as text. The text must hold a single statement.
    @discardableResult
    public func query(_ sql: String, _ params: [PGValue] = []) throws -> PGResult {
        let encoded = try params.enumerated().map { try $1.encoded(position: $0 + 1) }
        let conn = try liveHandle()
        let name = try statementName(for: sql, on: conn)
        let result = PGCStrings.withArray(encoded) { values in
            PQexecPrepared(conn, name, Int32(values.count), values, nil, nil, 0)
        }
        counters.statements += 1
        if let result, Self.writes(result) { wroteSinceBegin = true }
        do {
            return try Self.makeResult(result, connection: conn)
        } catch {
            forgetStalePlan(of: sql, after: error)
            throw error
        }
    }

    /// Forgets the prepared statement of `sql` when `error` says its plan is stale ("cached plan must not
    /// change result type" after a schema change) or it was deallocated (DISCARD ALL), so it is prepared
    /// afresh next time.
    func forgetStalePlan(of sql: String, after error: any Error) {
        guard let error = error as? PGError, error.sqlState == "0A000" || error.sqlState == "26000" else { return }
        preparedStatements[sql] = nil
    }

    /// Runs simple SQL text without parameters (`PQexec`); it may hold several statements.
    ///
    /// Meant for migrations, `SET` and transaction control.
    public func execute(_ sql: String) throws {
        let conn = try liveHandle()
        _ = try Self.makeResult(PQexec(conn, sql), connection: conn)
    }

    /// Starts a transaction: `BEGIN`, then `setup` (simple SQL, may be empty) in the same round trip.
    ///
    /// When the connection turns out broken at `BEGIN` (it idled through a server restart or failover),
    /// nothing of the transaction was applied: the connection is reopened (following a multi-host
    /// connection string to the current primary) and `BEGIN` sent once more.
    func begin(then setup: String = "") throws {
        let sql = setup.isEmpty ? "BEGIN" : "BEGIN; " + setup
        do {
            try execute(sql)
        } catch let error as PGError where error.isUnavailable && mayReopenAtBegin {
            logger.info("reopening PostgreSQL connection lost before BEGIN", metadata: ["db.error": "\(error.code)"])
            close()
            try connect()
            try execute(sql)
        }
        wroteSinceBegin = false
    }

    /// Whether a result is that of an `INSERT`, `UPDATE` or `DELETE` (its command tag's first letter).
    static func writes(_ result: OpaquePointer) -> Bool {
        guard let tag = PQcmdStatus(result) else { return false }
        let first = UInt8(bitPattern: tag.pointee)
        return first == UInt8(ascii: "I") || first == UInt8(ascii: "U") || first == UInt8(ascii: "D")
    }

    // MARK: Session management (on the owning thread only)

    /// Opens the session if needed, or reopens it when it is broken or the server closed it while it was
    /// idle (see ``closedWhileIdle(_:)``), so a connection that idled through a restart or a failover is
    /// not handed out.
    func ensureReady() throws {
        guard let conn = handle else { return try connect() }
        if PQstatus(conn) == CONNECTION_OK && !Self.closedWhileIdle(conn) { return }
        logger.info("reopening broken PostgreSQL connection")
        close()
        try connect()
    }

    /// Rolls back a transaction left open (or failed) by the last user of the connection.
    func cleanUpAfterUse() {
        guard let conn = handle else { return }
        let status = PQtransactionStatus(conn)
        if status == PQTRANS_INTRANS || status == PQTRANS_INERROR {
            logger.debug("rolling back transaction left open")
            PQclear(PQexec(conn, "ROLLBACK"))
        }
    }

    /// Commits, and reports a transaction the server rolled back instead (it had failed earlier).
    func commit() throws {
        let conn = try liveHandle()
        guard let result = PQexec(conn, "COMMIT") else {
            _ = try Self.makeResult(nil, connection: conn)
            return
        }
        let status = PQcmdStatus(result).map { String(cString: $0) }
        _ = try Self.makeResult(result, connection: conn)
        if status == "ROLLBACK" {
            throw PGError(
                code: .transactionAborted, sqlState: "25P02",
                message: "the transaction had failed and was rolled back at COMMIT")
        }
    }

    /// Rolls back the current transaction, ignoring any error (the connection may be broken).
    func rollbackQuietly() {
        guard let conn = handle else { return }
        PQclear(PQexec(conn, "ROLLBACK"))
    }

    /// Closes the session.
    func close() {
        if let conn = handle { PQfinish(conn) }
        handle = nil
        preparedStatements = [:]
    }

    /// Opens a connection now (blocking the calling thread) and returns it ready for use.
    static func open(connectionString: String, connectTimeoutSeconds: Int, logger: Logger) throws -> PGConnection {
        let connection = PGConnection(
            connectionString: connectionString, connectTimeoutSeconds: connectTimeoutSeconds, logger: logger)
        try connection.ensureReady()
        return connection
    }

    // MARK: Private

    func liveHandle() throws -> OpaquePointer {
        guard let conn = handle else {
            throw PGError(code: .connectionFailed, message: "the connection is not open")
        }
        return conn
    }

    private func connect() throws {
        let parameters = Self.connectParameters(
            connectionString: connectionString, connectTimeoutSeconds: connectTimeoutSeconds, keepalive: keepalive)
        let conn = PGCStrings.withArray(parameters.map(\.0)) { keywords in
            PGCStrings.withArray(parameters.map(\.1)) { values in
                PQconnectdbParams(keywords + [nil], values + [nil], 1)
            }
        }
        guard let conn else {
            throw PGError(code: .connectionFailed, message: "could not allocate a PostgreSQL connection")
        }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = Self.connectionErrorMessage(conn)
            PQfinish(conn)
            throw PGError(code: .connectionFailed, message: "could not connect to PostgreSQL: \(message)")
        }
        cpq_silence_notices(conn)
        handle = conn
        sessionNumber += 1
        preparedStatements = [:]
        do {
            try setUpSession(conn)
        } catch {
            close()
            throw error
        }
        logger.debug("PostgreSQL connection opened")
    }

    private func setUpSession(_ conn: OpaquePointer) throws {
        _ = try Self.makeResult(PQexec(conn, Self.sessionSetup), connection: conn)
        if let timeoutSetup { _ = try Self.makeResult(PQexec(conn, timeoutSetup), connection: conn) }
    }

    func statementName(for sql: String, on conn: OpaquePointer) throws -> String {
        if let name = preparedStatements[sql] { return name }
        statementCounter += 1
        let name = "sy_\(statementCounter)"
        _ = try Self.makeResult(PQprepare(conn, name, sql, 0, nil), connection: conn)
        counters.prepares += 1
        preparedStatements[sql] = name
        return name
    }
}

@available(*, unavailable)
extension PGConnection: Sendable {}
