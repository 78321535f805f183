import Foundation
import SwitchyardStore
import SwitchyardTestSupport
import Testing

@Suite("Connection pool timeouts")
struct PGPoolTimeoutTests {
    /// A pool on a new database with the given bounds.
    static func pool(
        size: Int, acquireTimeout: Duration? = .seconds(5),
        timeouts: PostgresConfiguration.SessionTimeouts = .init()
    ) async throws -> PGPool {
        try PGPool(
            PostgresConfiguration(
                connectionString: try await TestPostgres.freshDatabase(), poolSize: size,
                acquireTimeout: acquireTimeout, sessionTimeouts: timeouts),
            logger: DriverFixture.logger)
    }

    @Test func acquireFailsWithinItsBoundWhileEveryConnectionIsHeld() async throws {
        let pool = try await Self.pool(size: 2, acquireTimeout: .milliseconds(300))
        let squeeze = await PoolSqueeze(pool)

        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: PGError.self) { try await pool.withConnection { _ in 1 } }
        let waited = clock.now - start
        #expect(error?.code == .poolTimeout)
        #expect(error?.isBusy == true)
        #expect(waited >= .milliseconds(300))
        #expect(waited < .seconds(3))

        try await squeeze.release()
        // The timed-out wait left nothing behind: both connections serve again.
        var values = 0
        for value in 0..<4 { values += try await pool.withConnection { _ in value } }
        #expect(values == 6)
        await pool.shutdown()
    }

    @Test func aWaiterServedInTimeIsNotFailedLater() async throws {
        let pool = try await Self.pool(size: 1, acquireTimeout: .milliseconds(400))
        let holder = Task { try await pool.withConnection { try await $0.query("SELECT pg_sleep(0.1)") } }
        let value = try await pool.withConnection { _ in 5 }
        _ = try await holder.value
        #expect(value == 5)
        // Past the first waiter's deadline, the pool still serves as usual. Time is the subject: the
        // deadline's timer fires unseen, and only its passing can show it did no harm.
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await pool.withConnection { _ in 6 } == 6)
        await pool.shutdown()
    }

    @Test func aStatementOutlastingTheTimeoutFailsTypedAndTheConnectionStaysUsable() async throws {
        let pool = try await Self.pool(size: 1, timeouts: .init(statementMs: 300))
        let pid = try await pool.withConnection {
            try await $0.query("SELECT pg_backend_pid() AS pid").first.driverUnwrap().int64("pid")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: PGError.self) {
            try await pool.withConnection { try await $0.query("SELECT pg_sleep(5)") }
        }
        #expect(clock.now - start < .seconds(3))
        #expect(error?.code == .timedOut)
        #expect(error?.sqlState == "57014")
        #expect(error?.isBusy == true)
        let (again, setting) = try await pool.withConnection { connection in
            let row = try await connection.query(
                "SELECT pg_backend_pid() AS pid, current_setting('statement_timeout') AS timeout"
            ).first.driverUnwrap()
            return (try row.int64("pid"), try row.string("timeout"))
        }
        #expect(again == pid)
        #expect(setting == "300ms")
    }

    @Test func pooledSessionsCarryTheLockAndIdleTransactionTimeouts() async throws {
        let pool = try await Self.pool(
            size: 1, timeouts: .init(statementMs: 30_000, lockMs: 2_000, idleInTransactionMs: 60_000))
        let (statement, lock, idle) = try await pool.withConnection { connection in
            let row = try await connection.query(
                """
                SELECT current_setting('statement_timeout') AS s, current_setting('lock_timeout') AS l,
                    current_setting('idle_in_transaction_session_timeout') AS i
                """
            ).first.driverUnwrap()
            return (try row.string("s"), try row.string("l"), try row.string("i"))
        }
        #expect(statement == "30s")
        #expect(lock == "2s")
        #expect(idle == "1min")
        await pool.shutdown()
    }
}
