import Foundation
import SwitchyardCluster
import SwitchyardStore
import SwitchyardTestSupport
import TestWaiting
import Testing

@Suite("Connection pool")
struct PGPoolTests {
    @Test func eachDistinctStatementIsPreparedOncePerConnection() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let sql = "SELECT $1::bigint * 2 AS doubled"
            let (results, prepared, others) = try await pool.withConnection { connection in
                var results: [Int64] = []
                for value in 1...5 {
                    results.append(
                        try await connection.query(sql, [.int(Int64(value))]).first.driverUnwrap().int64("doubled"))
                }
                let count = "SELECT count(*) AS n FROM pg_prepared_statements WHERE statement = $1"
                let prepared = try await connection.query(count, [.text(sql)]).first.driverUnwrap().int64("n")
                let total = try await connection.query("SELECT count(*) AS n FROM pg_prepared_statements").first
                    .driverUnwrap()
                return (results, prepared, try total.int64("n"))
            }
            #expect(results == [2, 4, 6, 8, 10])
            #expect(prepared == 1)
            // Exactly the three distinct statements above, nothing per call.
            #expect(others == 3)
            let again = try await pool.withConnection { connection in
                _ = try await connection.query(sql, [.int(1)])
                return try await connection.query(
                    "SELECT count(*) AS n FROM pg_prepared_statements WHERE statement = $1", [.text(sql)]
                ).first.driverUnwrap().int64("n")
            }
            #expect(again == 1)
        }
    }

    @Test func twoHundredConcurrentQueriesThroughFourConnections() async throws {
        try await DriverFixture.withPool(size: 4) { pool in
            let outcomes = try await withThrowingTaskGroup(of: (Int64, Int64, Int64).self) { group in
                for value in 0..<200 {
                    group.addTask {
                        try await pool.withConnection { connection in
                            let row = try await connection.query(
                                "SELECT $1::bigint + 1 AS next, pg_backend_pid() AS pid", [.int(Int64(value))]
                            ).first.driverUnwrap()
                            return (Int64(value), try row.int64("next"), try row.int64("pid"))
                        }
                    }
                }
                var collected: [(Int64, Int64, Int64)] = []
                for try await outcome in group { collected.append(outcome) }
                return collected
            }
            #expect(outcomes.count == 200)
            #expect(outcomes.allSatisfy { $0.1 == $0.0 + 1 })
            let backends = Set(outcomes.map(\.2))
            #expect(backends.count <= 4)
            #expect(backends.count >= 1)
        }
    }

    /// Waits until the pool's usage satisfies `condition` (the pool reports no changes, so it is asked again).
    static func waitUntil(
        _ pool: PGPool, _ what: String, _ condition: @escaping (PGPool.Usage) -> Bool
    ) async throws {
        try await Poll.until(what, within: .seconds(5), every: .milliseconds(5)) { condition(pool.usage) }
    }

    @Test func cancellingAWaitingCallerThrowsCancellationError() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let holder = Task { try await pool.withConnection { try await $0.query("SELECT pg_sleep(1.5)") } }
            try await Self.waitUntil(pool, "the holder's connection") { $0.inUse == 1 }
            let clock = ContinuousClock()
            let start = clock.now
            let waiter = Task { try await pool.withConnection { _ in 1 } }
            try await Self.waitUntil(pool, "the waiter queued") { $0.waiting == 1 }
            waiter.cancel()
            let result = await waiter.result
            let waited = clock.now - start
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(waited < .milliseconds(1000))
            _ = try await holder.value
            // The pool still works after the cancelled wait.
            #expect(try await pool.withConnection { _ in 7 } == 7)
        }
    }

    @Test func unreachableDatabaseFailsClearlyAndQuickly() async throws {
        let port = PostgresCluster.freePort()
        let pool = try PGPool(
            PostgresConfiguration(
                connectionString: "host=127.0.0.1 port=\(port) user=postgres password=not-logged dbname=postgres",
                poolSize: 2, connectTimeoutSeconds: 2),
            logger: DriverFixture.logger)
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<2 {
            let error = await #expect(throws: PGError.self) { try await pool.ping() }
            #expect(error?.code == .connectionFailed)
            #expect(error?.message.contains("could not connect") == true)
            #expect(error?.message.contains("\(port)") == true)
            #expect(error?.description.contains("not-logged") == false)
        }
        #expect(clock.now - start < .seconds(5))
        await pool.shutdown()
    }

    @Test func invalidConfigurationIsRejectedAtCreation() {
        let malformed = #expect(throws: PGError.self) {
            try PGPool(PostgresConfiguration(connectionString: "host=127.0.0.1 password"), logger: DriverFixture.logger)
        }
        #expect(malformed?.code == .invalidConfiguration)
        let empty = #expect(throws: PGError.self) {
            try PGPool(PostgresConfiguration(connectionString: "host=x", poolSize: 0), logger: DriverFixture.logger)
        }
        #expect(empty?.code == .invalidConfiguration)
    }

    @Test func brokenConnectionIsReopenedBeforeTheNextUse() async throws {
        let connectionString = try await TestPostgres.freshDatabase()
        let pool = try PGPool(
            PostgresConfiguration(connectionString: connectionString, poolSize: 1), logger: DriverFixture.logger)
        let admin = try PGPool(
            PostgresConfiguration(connectionString: connectionString, poolSize: 1), logger: DriverFixture.logger)
        let pid = try await pool.withConnection {
            try await $0.query("SELECT pg_backend_pid() AS pid").first.driverUnwrap().int64("pid")
        }
        let terminated = try await admin.withConnection {
            try await $0.query("SELECT pg_terminate_backend($1::int) AS ok", [.int(pid)]).first.driverUnwrap().bool(
                "ok")
        }
        #expect(terminated)
        try await Poll.until("backend \(pid) gone", within: .seconds(4), every: .milliseconds(20)) {
            try await admin.withConnection {
                try await $0.query("SELECT count(*) AS n FROM pg_stat_activity WHERE pid = $1::int", [.int(pid)])
                    .first.driverUnwrap().int64("n")
            } == 0
        }
        // The session the server closed while it idled is reopened before use: the next caller never sees it.
        let newPID = try await pool.withConnection {
            try await $0.query("SELECT pg_backend_pid() AS pid").first.driverUnwrap().int64("pid")
        }
        #expect(newPID != pid)
        await pool.shutdown()
        await admin.shutdown()
    }

    @Test func transactionLeftOpenIsRolledBackBeforeReuse() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute("CREATE TABLE marks (id int)") }
            try await pool.withConnection { connection in
                try await connection.execute("BEGIN")
                try await connection.query("INSERT INTO marks VALUES ($1)", [.int(1)])
            }
            let count = try await pool.withConnection {
                try await $0.query("SELECT count(*) AS n FROM marks").first.driverUnwrap().int64("n")
            }
            #expect(count == 0)
        }
    }

    @Test func shutDownPoolRefusesWork() async throws {
        let pool = try await DriverFixture.pool(size: 2)
        try await pool.ping()
        await pool.shutdown()
        let error = await #expect(throws: PGError.self) { try await pool.withConnection { _ in 1 } }
        #expect(error?.code == .poolClosed)
        await pool.shutdown()
    }

    @Test func callersWaitingAtShutdownAreReleased() async throws {
        let pool = try await DriverFixture.pool(size: 1)
        let holder = Task { try await pool.withConnection { try await $0.query("SELECT pg_sleep(0.5)") } }
        try await Self.waitUntil(pool, "the holder's connection") { $0.inUse == 1 }
        let waiter = Task { try await pool.withConnection { _ in 1 } }
        try await Self.waitUntil(pool, "the waiter queued") { $0.waiting == 1 }
        await pool.shutdown()
        let error = await #expect(throws: PGError.self) { try await waiter.value }
        #expect(error?.code == .poolClosed)
        _ = try await holder.value
    }

    @Test func noticesAndWarningsDoNotDisturbResults() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let value = try await pool.withConnection { connection in
                try await connection.execute("DO $$ BEGIN RAISE NOTICE 'n'; RAISE WARNING 'w'; END $$")
                try await connection.execute("DROP TABLE IF EXISTS never_existed")  // emits a NOTICE
                return try await connection.query("SELECT $1::int AS v", [.int(5)]).first.driverUnwrap().int64("v")
            }
            #expect(value == 5)
        }
    }
}
