import CLibPQ
import Foundation
import Logging

/// One libpq connection, driven without blocking by its ``PGEventLoop``.
///
/// A connection is handed to a closure by ``PGPool`` (or a ``PGLease``) and used by one task at a time; it
/// must not escape the closure. Its calls queue a request in libpq, then wait for the socket on the loop
/// (see ``PGConnectionMachine`` for the steps), so no thread blocks in libpq and no connection owns a
/// thread. The pool runs the closure on the connection's loop, where the task's sends, waits and reads
/// stay on one thread.
public final class PGConnection: @unchecked Sendable {
    private let connectionString: String
    private let connectTimeoutSeconds: Int
    private let keepalive: PostgresConfiguration.Keepalive
    /// `SET` statements for the server-side timeouts, run on every new session (nil: server defaults).
    private let timeoutSetup: String?
    let logger: Logger
    /// The loop that waits on this connection's socket and runs the work of its users.
    let loop: PGEventLoop
    /// Where the current request stands.
    var machine = PGConnectionMachine()
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
    /// `BEGIN` and the setup of a transaction that has not sent a statement yet: they go out in front of its
    /// first statement (or with it, for ``execute(_:)``), saving the round trip of their own.
    var pendingBegin: [String]?
    /// Whether the transaction's `COMMIT` went out with its last statements (``commit(after:repeatable:)``).
    var committed = false

    /// Running totals of one connection's work.
    public struct Counters: Sendable, Equatable {
        /// Statements run with ``query(_:_:)``.
        public var statements = 0
        /// Statements prepared on the server (`PQprepare`), at most once per SQL text and session.
        public var prepares = 0
        /// Requests sent and answered: each is one round trip to the server, however many statements it holds.
        public var roundTrips = 0
    }

    /// Settings applied to every new session so that text output has one known form.
    private static let sessionSetup =
        "SET TimeZone TO 'UTC'; SET DateStyle TO 'ISO, MDY'; SET bytea_output TO 'hex'; SET extra_float_digits TO 3"

    init(
        connectionString: String, connectTimeoutSeconds: Int,
        sessionTimeouts: PostgresConfiguration.SessionTimeouts? = nil,
        keepalive: PostgresConfiguration.Keepalive = PostgresConfiguration.Keepalive(), logger: Logger,
        loop: PGEventLoop = PGEventLoopGroup.shared.nextLoop()
    ) {
        self.loop = loop
        self.connectionString = connectionString
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.keepalive = keepalive
        self.timeoutSetup = sessionTimeouts?.setup
        self.logger = logger
    }

    deinit { close() }

    /// Runs a statement with parameters, preparing it on first use on this session.
    ///
    /// Each distinct SQL text is prepared once per session (`PQsendPrepare`, cached by text) and then run
    /// with `PQsendQueryPrepared`; parameters are sent as text. The text must hold a single statement.
    @discardableResult
    public func query(_ sql: String, _ params: [PGValue] = []) async throws -> PGResult {
        try checkNotCommitted()
        if pendingBegin != nil {
            guard let result = try await pipeline([PGStatement(sql, params)]).first else {
                throw PGError(code: .unexpectedResult, message: "the statement returned no result")
            }
            return result
        }
        let encoded = try params.encoded()
        let conn = try liveHandle()
        let name = try await statementName(for: sql, on: conn)
        let results = try await exchange { conn in
            PGCStrings.withArray(encoded) { values in
                PQsendQueryPrepared(conn, name, Int32(values.count), values, nil, nil, 0)
            }
        }
        counters.statements += 1
        if let result = results.first, let result, Self.writes(result) { wroteSinceBegin = true }
        do {
            return try Self.single(results, connection: conn)
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

    /// Runs simple SQL text without parameters (`PQsendQuery`); it may hold several statements.
    ///
    /// Meant for migrations, `SET` and transaction control.
    public func execute(_ sql: String) async throws {
        try checkNotCommitted()
        if let opening = takePendingBegin() {
            return try await reopeningOnce { try await self.execute((opening + [sql]).joined(separator: "; ")) }
        }
        let conn = try liveHandle()
        let results = try await exchange { PQsendQuery($0, sql) }
        _ = try Self.every(results, connection: conn)
    }

    /// Starts a transaction: `BEGIN`, then `setup` (single statements), sent with the transaction's first
    /// statement in one round trip rather than on their own (see ``pendingBegin``).
    ///
    /// When the connection turns out broken with that first batch (it idled through a server restart or
    /// failover, or reaches a standby that became read-only), nothing of the transaction was applied and no
    /// caller saw a result of it: the connection is reopened (following a multi-host connection string to
    /// the current primary) and the batch sent once more.
    func begin(then setup: [String] = []) {
        pendingBegin = ["BEGIN"] + setup
        wroteSinceBegin = false
    }

    /// Whether a result is that of an `INSERT`, `UPDATE` or `DELETE` (its command tag's first letter).
    static func writes(_ result: OpaquePointer) -> Bool {
        guard let tag = PQcmdStatus(result) else { return false }
        let first = UInt8(bitPattern: tag.pointee)
        return first == UInt8(ascii: "I") || first == UInt8(ascii: "U") || first == UInt8(ascii: "D")
    }

    // MARK: Session management

    /// Opens the session if needed, or reopens it when it is broken or the server closed it while it was
    /// idle (see ``closedWhileIdle(_:)``), so a connection that idled through a restart or a failover is
    /// not handed out.
    func ensureReady() async throws {
        guard let conn = handle else { return try await connect() }
        if PQstatus(conn) == CONNECTION_OK && machine.state == .idle && !Self.closedWhileIdle(conn) { return }
        logger.info("reopening broken PostgreSQL connection")
        close()
        try await connect()
    }

    /// Rolls back a transaction left open (or failed) by the last user of the connection.
    func cleanUpAfterUse() async {
        pendingBegin = nil
        committed = false
        guard let conn = handle else { return }
        guard machine.state == .idle else { return close() }
        let status = PQtransactionStatus(conn)
        if status == PQTRANS_INTRANS || status == PQTRANS_INERROR {
            logger.debug("rolling back transaction left open")
            await rollbackQuietly()
        }
    }

    /// Commits, and reports a transaction the server rolled back instead (it had failed earlier).
    func commit() async throws {
        // A transaction that ran no statement was never sent: there is nothing to commit; one that sent its
        // COMMIT with its last statements is over.
        if takePendingBegin() != nil { return }
        if committed {
            committed = false
            return
        }
        let conn = try liveHandle()
        let results = try await exchange { PQsendQuery($0, "COMMIT") }
        let status = results.first.flatMap { $0 }.flatMap { PQcmdStatus($0) }.map { String(cString: $0) }
        _ = try Self.single(results, connection: conn)
        if status == "ROLLBACK" { throw Self.rolledBackAtCommit }
    }

    /// What `COMMIT` of a transaction that had already failed reports: the server rolled it back instead.
    static let rolledBackAtCommit = PGError(
        code: .transactionAborted, sqlState: "25P02",
        message: "the transaction had failed and was rolled back at COMMIT")

    /// Rolls back the current transaction, ignoring any error (the connection may be broken).
    func rollbackQuietly() async {
        if takePendingBegin() != nil { return }
        if committed {
            committed = false
            return
        }
        guard let conn = handle else { return }
        guard machine.state == .idle else { return close() }
        if let results = try? await exchange({ PQsendQuery($0, "ROLLBACK") }) {
            _ = try? Self.every(results, connection: conn)
        }
    }

    /// Closes the session.
    package func close() {
        if let conn = handle { PQfinish(conn) }
        handle = nil
        machine.closed()
        preparedStatements = [:]
    }

    /// Opens a connection now and returns it ready for use.
    package static func open(connectionString: String, connectTimeoutSeconds: Int, logger: Logger) async throws
        -> PGConnection
    {
        let connection = PGConnection(
            connectionString: connectionString, connectTimeoutSeconds: connectTimeoutSeconds, logger: logger)
        try await connection.ensureReady()
        return connection
    }

    // MARK: Private

    func liveHandle() throws -> OpaquePointer {
        guard let conn = handle else {
            throw PGError(code: .connectionFailed, message: "the connection is not open")
        }
        return conn
    }

    /// Opens a session without blocking: `PQconnectStartParams`, then `PQconnectPoll` whenever the socket
    /// is ready, within the connect deadline; then the session's settings.
    func connect() async throws {
        let parameters = Self.connectParameters(
            connectionString: connectionString, connectTimeoutSeconds: connectTimeoutSeconds, keepalive: keepalive)
        let conn = PGCStrings.withArray(parameters.map(\.0)) { keywords in
            PGCStrings.withArray(parameters.map(\.1)) { values in
                PQconnectStartParams(keywords + [nil], values + [nil], 1)
            }
        }
        guard let conn else {
            throw PGError(code: .connectionFailed, message: "could not allocate a PostgreSQL connection")
        }
        var machine = PGConnectionMachine()
        var action =
            PQstatus(conn) == CONNECTION_BAD
            ? .fail(.connectFailed)
            : machine.startConnect(
                now: .now,
                timeout: Self.connectTimeout(connectionString: connectionString, seconds: connectTimeoutSeconds))
        connecting: while true {
            switch action {
            case .wait(let interest, let deadline):
                let socket = PQsocket(conn)
                let wake =
                    socket < 0
                    ? PGEventLoop.Wake.ready(readable: true, writable: true)
                    : await loop.wait(for: socket, interest, until: deadline)
                action = machine.woke(wake, now: .now)
            case .pollConnect:
                action = machine.connectPolled(PGConnectionMachine.ConnectPoll(PQconnectPoll(conn)))
            case .connected:
                break connecting
            case .fail(let failure):
                let message =
                    failure == .connectTimedOut ? "timeout expired" : Self.connectionErrorMessage(conn)
                PQfinish(conn)
                throw PGError(code: .connectionFailed, message: "could not connect to PostgreSQL: \(message)")
            case .flush, .consumeInput, .readResult, .finished:
                PQfinish(conn)
                throw PGError(code: .connectionFailed, message: "could not connect to PostgreSQL: unexpected state")
            }
        }
        PQsetnonblocking(conn, 1)
        cpq_silence_notices(conn)
        handle = conn
        self.machine = machine
        sessionNumber += 1
        preparedStatements = [:]
        do {
            try await execute(Self.sessionSetup)
            if let timeoutSetup { try await execute(timeoutSetup) }
        } catch {
            close()
            throw error
        }
        logger.debug("PostgreSQL connection opened")
    }

    func statementName(for sql: String, on conn: OpaquePointer) async throws -> String {
        if let name = preparedStatements[sql] { return name }
        statementCounter += 1
        let name = "sy_\(statementCounter)"
        let results = try await exchange { PQsendPrepare($0, name, sql, 0, nil) }
        _ = try Self.single(results, connection: conn)
        counters.prepares += 1
        preparedStatements[sql] = name
        return name
    }
}
