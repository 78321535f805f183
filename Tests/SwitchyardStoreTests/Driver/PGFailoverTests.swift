import Foundation
import SwitchyardCore
import SwitchyardTestSupport
import Synchronization
import TestWaiting
import Testing

@testable import SwitchyardStore

/// A pooled connection that idled through a server restart or had its backend terminated is not handed
/// to the next caller; a transaction that lost its connection after writing is not retried; a read-only
/// server is refused at connect; every connection carries keepalives the operator can override.
@Suite("Connection failover")
struct PGFailoverTests {
    /// Terminates backend `pid` from `admin` and waits until it is gone.
    static func terminate(_ pid: Int64, via admin: PGPool) async throws {
        try await admin.withConnection { _ = try await $0.query("SELECT pg_terminate_backend($1::int)", [.int(pid)]) }
        try await Poll.until("backend \(pid) gone", within: .seconds(4), every: .milliseconds(20)) {
            try await admin.withConnection { connection in
                try await connection.query(
                    "SELECT count(*) AS n FROM pg_stat_activity WHERE pid = $1::int", [.int(pid)]
                )
                .first.driverUnwrap().int64("n")
            } == 0
        }
    }

    static func backendPID(_ connection: PGConnection) async throws -> Int64 {
        try await connection.query("SELECT pg_backend_pid() AS pid").first.driverUnwrap().int64("pid")
    }

    @Test func aTransactionAfterTheBackendWasTerminatedRunsOnAFreshSession() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await PGPool.scoped(connectionString: url, size: 1, logger: DriverFixture.logger) { admin in
            try await PGPool.scoped(connectionString: url, size: 1, logger: DriverFixture.logger) { pool in
                let first = try await pool.transaction { try await Self.backendPID($0) }
                try await Self.terminate(first, via: admin)
                let second = try await pool.transaction { try await Self.backendPID($0) }
                #expect(second != first)
            }
        }
    }

    @Test func aBeginOnABrokenConnectionReopensItOnce() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await PGPool.scoped(connectionString: url, size: 1, logger: DriverFixture.logger) { admin in
            let connection = try await PGConnection.open(
                connectionString: url, connectTimeoutSeconds: 5, logger: DriverFixture.logger)
            let first = try await Self.backendPID(connection)
            try await Self.terminate(first, via: admin)
            // Straight to BEGIN, without the pool's check before use.
            connection.begin()
            let second = try await Self.backendPID(connection)
            try await connection.commit()
            #expect(second != first)
        }
    }

    @Test func aRepeatableFirstBatchWithItsCommitOnABrokenConnectionIsSentAgainOnANewSession() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await PGPool.scoped(connectionString: url, size: 1, logger: DriverFixture.logger) { admin in
            try await admin.withConnection { try await $0.execute("CREATE TABLE sessions (pid bigint)") }
            let connection = try await PGConnection.open(
                connectionString: url, connectTimeoutSeconds: 5, logger: DriverFixture.logger)
            let first = try await Self.backendPID(connection)
            try await Self.terminate(first, via: admin)
            connection.begin()
            let results = try await connection.commit(
                after: [PGStatement("INSERT INTO sessions SELECT pg_backend_pid() RETURNING pid")], repeatable: true)
            let second = try results.first.driverUnwrap().first.driverUnwrap().int64("pid")
            #expect(second != first)
            let stored = try await admin.withConnection { connection in
                try await connection.query("SELECT pid FROM sessions").rows.map { try $0.int64("pid") }
            }
            #expect(stored == [second])
        }
    }

    @Test func aTransactionThatLosesItsConnectionAfterWritingIsNotRetried() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute("CREATE TABLE written (n int)") }
            let runs = Mutex(0)
            let error = await #expect(throws: PGError.self) {
                try await pool.transaction { connection in
                    runs.withLock { $0 += 1 }
                    try await connection.query("INSERT INTO written VALUES (1)")
                    try await connection.query("SELECT pg_terminate_backend(pg_backend_pid())")
                }
            }
            #expect(error?.isUnavailable == true, "\(String(describing: error))")
            #expect((error as (any Error)?)?.isStorageUnavailable == true)
            #expect(runs.withLock { $0 } == 1)
            let rows = try await pool.withConnection { connection in
                try await connection.query("SELECT count(*) AS n FROM written").first.driverUnwrap().int64("n")
            }
            #expect(rows == 0)
        }
    }

    @Test func aReadOnlyServerIsRefusedAtConnectUnlessTheOperatorAllowsIt() async throws {
        let url = try await TestPostgres.freshDatabase()
        let readOnly = url + " options='-c default_transaction_read_only=on'"
        try await PGPool.scoped(connectionString: readOnly, size: 1, logger: DriverFixture.logger) { pool in
            let error = await #expect(throws: PGError.self) { try await pool.ping() }
            #expect(error?.code == .connectionFailed)
            #expect(error?.isUnavailable == true)
        }
        let anyServer = readOnly + " target_session_attrs=any"
        try await PGPool.scoped(connectionString: anyServer, size: 1, logger: DriverFixture.logger) { pool in
            let refused = try await pool.withConnection { try await Self.backendPID($0) }
            let error = await #expect(throws: PGError.self) {
                try await pool.transaction { try await $0.execute("CREATE TABLE refused (n int)") }
            }
            #expect(error?.sqlState == "25006")
            #expect(error?.isUnavailable == true)
            // The session that refused the write is not used again: the next caller gets a new one.
            let next = try await pool.withConnection { try await Self.backendPID($0) }
            #expect(next != refused)
        }
    }

    @Test func everyConnectionCarriesKeepalivesAndTheOperatorsValuesWin() async throws {
        let url = try await TestPostgres.freshDatabase()
        let keepalive = PostgresConfiguration.Keepalive(
            idleSeconds: 9, intervalSeconds: 3, count: 4, tcpUserTimeoutMs: 7000)
        let pool = try PGPool(
            PostgresConfiguration(connectionString: url, poolSize: 1, keepalive: keepalive),
            logger: DriverFixture.logger)
        let effective = try await pool.withConnection { $0.effectiveParameters }
        await pool.shutdown()
        #expect(effective["keepalives"] == "1")
        #expect(effective["keepalives_idle"] == "9")
        #expect(effective["keepalives_interval"] == "3")
        #expect(effective["keepalives_count"] == "4")
        #expect(effective["tcp_user_timeout"] == "7000")
        #expect(effective["target_session_attrs"] == "read-write")

        // The configuration listener's own connection carries the same keepalives.
        let listener = ConfigurationListener.connection(
            PostgresConfiguration(connectionString: url, keepalive: keepalive), logger: DriverFixture.logger)
        try await listener.ensureReady()
        let listening = listener.effectiveParameters
        listener.close()
        #expect(listening["keepalives_idle"] == "9")
        #expect(listening["keepalives_interval"] == "3")
        #expect(listening["keepalives_count"] == "4")
        #expect(listening["tcp_user_timeout"] == "7000")
        #expect(listening["target_session_attrs"] == "read-write")

        let connection = try await PGConnection.open(
            connectionString: url + " keepalives_idle=17 tcp_user_timeout=1234", connectTimeoutSeconds: 5,
            logger: DriverFixture.logger)
        let operators = connection.effectiveParameters
        #expect(operators["keepalives_idle"] == "17")
        #expect(operators["tcp_user_timeout"] == "1234")
        #expect(operators["keepalives_interval"] == "2")
        #expect(operators["keepalives_count"] == "3")
        #expect(operators["password"] == nil)
    }

    @Test func aPoolIdlingThroughARestartAnswersUnavailableThenRecovers() async throws {
        let (directory, configured) = try DriverFixture.privateCluster()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        defer { try? configured.stop() }
        try await DriverFixture.blocking {
            try configured.initializeIfNeeded()
            try configured.start()
        }
        let pool = try PGPool(
            PostgresConfiguration(connectionString: configured.connectionString(database: "postgres"), poolSize: 2),
            logger: DriverFixture.logger)
        let before = try await pool.transaction { try await Self.backendPID($0) }
        try await DriverFixture.blocking { try configured.stop() }
        let error = await #expect(throws: PGError.self) { try await pool.transaction { try await Self.backendPID($0) } }
        #expect(error?.isUnavailable == true)
        try await DriverFixture.blocking { try configured.start() }
        let after = try await pool.transaction { try await Self.backendPID($0) }
        #expect(after != before)
        await pool.shutdown()
    }

    @Test(arguments: [
        (PGError(code: .connectionFailed, message: "server closed the connection unexpectedly"), true),
        (PGError(code: .server, sqlState: "57P01", message: "terminating connection"), true),
        (PGError(code: .server, sqlState: "57P02", message: "crash shutdown"), true),
        (PGError(code: .server, sqlState: "57P03", message: "the database system is starting up"), true),
        (PGError(code: .server, sqlState: "25006", message: "read-only transaction"), true),
        (PGError(code: .server, sqlState: "08006", message: "connection failure"), true),
        (PGError(code: .server, sqlState: "23505", message: "duplicate key"), false),
        (PGError(code: .timedOut, sqlState: "57014", message: "canceling statement"), false),
        (PGError(code: .poolTimeout, message: "no connection"), false),
    ])
    func unavailabilityIsClassified(error: PGError, unavailable: Bool) {
        #expect(error.isUnavailable == unavailable)
        #expect((error as any Error).isStorageUnavailable == unavailable)
    }
}
