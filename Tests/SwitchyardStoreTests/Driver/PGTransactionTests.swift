import Foundation
import SwitchyardStore
import Synchronization
import Testing

@Suite("Transactions")
struct PGTransactionTests {
    private static func count(_ pool: PGPool, _ table: String) async throws -> Int64 {
        try await pool.withConnection {
            try await $0.query("SELECT count(*) AS n FROM \(table)").first.driverUnwrap().int64("n")
        }
    }

    @Test func committedWorkIsKeptAndThrownWorkIsRolledBack() async throws {
        try await DriverFixture.withPool(size: 2) { pool in
            try await pool.withConnection {
                try await $0.execute("CREATE TABLE ledger (id int PRIMARY KEY, amount bigint)")
            }
            let value = try await pool.transaction { connection in
                try await connection.query("INSERT INTO ledger VALUES ($1, $2)", [.int(1), .int(500)])
                return 42
            }
            #expect(value == 42)
            #expect(try await Self.count(pool, "ledger") == 1)

            await #expect(throws: DriverTestError.self) {
                try await pool.transaction { connection in
                    try await connection.query("INSERT INTO ledger VALUES ($1, $2)", [.int(2), .int(700)])
                    throw DriverTestError()
                }
            }
            #expect(try await Self.count(pool, "ledger") == 1)
        }
    }

    @Test func uniqueViolationCarriesSQLStateAndConstraintButNotTheValue() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            try await pool.withConnection {
                try await $0.execute("CREATE TABLE keys (k text CONSTRAINT keys_k_unique UNIQUE)")
                try await $0.query("INSERT INTO keys VALUES ($1)", [.text("sk_live_duplicate")])
            }
            let error = await #expect(throws: PGError.self) {
                try await pool.transaction { connection in
                    try await connection.query("INSERT INTO keys VALUES ($1)", [.text("sk_live_duplicate")])
                }
            }
            #expect(error?.sqlState == "23505")
            #expect(error?.isUniqueViolation == true)
            #expect(error?.isSerializationFailure == false)
            #expect(error?.constraint == "keys_k_unique")
            #expect(error?.description.contains("sk_live_duplicate") == false)
            #expect(try await Self.count(pool, "keys") == 1)
        }
    }

    @Test func aSnapshotReadsOneSnapshotAndCannotWrite() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute("CREATE TABLE snap (id int PRIMARY KEY)") }
            let modes = try await pool.transaction(settings: ["app.tenant_id": "t-1"], snapshot: true) { c in
                let row = try await c.query(
                    "SELECT current_setting('transaction_isolation') AS iso, "
                        + "current_setting('transaction_read_only') AS ro, current_setting('app.tenant_id') AS t"
                ).first.driverUnwrap()
                return [row["iso"], row["ro"], row["t"]]
            }
            #expect(modes == ["repeatable read", "on", "t-1"])
            let refused = await #expect(throws: PGError.self) {
                try await pool.transaction(snapshot: true) { c in try await c.query("INSERT INTO snap VALUES (1)") }
            }
            #expect(refused?.sqlState == "25006", "a read-only transaction")
            #expect(try await Self.count(pool, "snap") == 0)
            let plain = try await pool.transaction { c in
                try await c.query("SELECT current_setting('transaction_isolation') AS iso").first.driverUnwrap()["iso"]
            }
            #expect(plain == "read committed", "the next transaction on the connection is an ordinary one")
        }
    }

    @Test func roleAndSettingsApplyToTheTransactionOnly() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let role = DriverFixture.uniqueName("tenant \"role\"")
            try await pool.withConnection { connection in
                try await connection.execute(
                    "CREATE ROLE \"\(role.replacingOccurrences(of: "\"", with: "\"\""))\" NOLOGIN")
            }
            let inside = try await pool.transaction(role: role, settings: ["app.tenant_id": "t-123", "x.y": "it's"]) {
                connection in
                let row = try await connection.query(
                    "SELECT current_user AS who, current_setting('app.tenant_id', true) AS tenant, "
                        + "current_setting('x.y', true) AS xy"
                ).first.driverUnwrap()
                return [row["who"], row["tenant"], row["xy"]]
            }
            #expect(inside == [role, "t-123", "it's"])

            let after = try await pool.transaction { connection in
                let row = try await connection.query(
                    "SELECT current_user AS who, current_setting('app.tenant_id', true) AS tenant, "
                        + "current_setting('x.y', true) AS xy"
                ).first.driverUnwrap()
                return [row["who"], row["tenant"], row["xy"]]
            }
            #expect(after[0] == "postgres")
            #expect(after[1] == nil || after[1] == "")
            #expect(after[2] == nil || after[2] == "")

            // Also after a transaction that failed.
            await #expect(throws: DriverTestError.self) {
                try await pool.transaction(role: role, settings: ["app.tenant_id": "t-456"]) { _ in
                    throw DriverTestError()
                }
            }
            let plain = try await pool.withConnection { connection in
                let row = try await connection.query(
                    "SELECT current_user AS who, current_setting('app.tenant_id', true) AS tenant"
                ).first.driverUnwrap()
                return [row["who"], row["tenant"]]
            }
            #expect(plain[0] == "postgres")
            #expect(plain[1] == nil || plain[1] == "")
        }
    }

    @Test func theOpeningGoesWithTheFirstStatementAndAnEmptyTransactionSendsNothing() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let role = DriverFixture.uniqueName("opening")
            try await pool.withConnection { connection in
                try await connection.execute("CREATE ROLE \"\(role)\" NOLOGIN")
                try await connection.execute("CREATE TABLE opened (n int); GRANT ALL ON opened TO \"\(role)\"")
                _ = try await connection.query("SELECT current_user AS who, current_setting('app.t', true) AS t")
                _ = try await connection.query("INSERT INTO opened VALUES ($1)", [.int(1)])
            }
            // Every statement prepared above: what remains is one round trip per request.
            let (seen, trips) = try await pool.transaction(role: role, settings: ["app.t": "t-1"]) { connection in
                let before = connection.counters.roundTrips
                let row = try await connection.query(
                    "SELECT current_user AS who, current_setting('app.t', true) AS t"
                ).first.driverUnwrap()
                try await connection.query("INSERT INTO opened VALUES ($1)", [.int(1)])
                return ([row["who"], row["t"]], connection.counters.roundTrips - before)
            }
            #expect(seen == [role, "t-1"])
            #expect(trips == 2, "BEGIN, the role and the setting travel with the first statement")

            // The pool's one connection, looked at between its uses.
            let connection = try await pool.withConnection { $0 }
            let before = connection.counters.roundTrips
            try await pool.transaction(role: role, settings: ["app.t": "t-2"]) { _ in }
            #expect(connection.counters.roundTrips == before)

            // A refused opening fails the first statement, which did not run.
            let error = await #expect(throws: PGError.self) {
                try await pool.transaction(role: DriverFixture.uniqueName("no such role")) { connection in
                    try await connection.query("INSERT INTO opened VALUES ($1)", [.int(2)])
                }
            }
            #expect(error?.sqlState == "22023")
            let rows = try await pool.withConnection { connection in
                try await connection.query("SELECT count(*) AS n FROM opened WHERE n = 2").first.driverUnwrap()
                    .int64("n")
            }
            #expect(rows == 0)
        }
    }

    @Test func aCommitSentWithTheLastStatementsEndsTheTransactionInTheirRoundTrip() async throws {
        try await DriverFixture.withPool(size: 2) { pool in
            try await pool.withConnection { connection in
                try await connection.execute("CREATE TABLE tail (n int PRIMARY KEY)")
                _ = try await connection.query("SELECT n FROM tail WHERE n = $1", [.int(0)])
                _ = try await connection.query("INSERT INTO tail VALUES ($1) ON CONFLICT DO NOTHING", [.int(0)])
            }
            let insert = "INSERT INTO tail VALUES ($1) ON CONFLICT DO NOTHING"
            let trips = try await pool.transaction { connection in
                _ = try await connection.query("SELECT n FROM tail WHERE n = $1", [.int(1)])
                let before = connection.counters.roundTrips
                let results = try await connection.commit(after: [PGStatement(insert, [.int(1)])])
                #expect(results.map(\.affectedRows) == [1])
                // Nothing may follow the commit in the transaction.
                await #expect(throws: PGError.self) { try await connection.query("SELECT 1") }
                return connection.counters.roundTrips - before
            }
            #expect(trips == 1)
            #expect(try await Self.count(pool, "tail") == 2)

            // The first batch of a transaction commits in a round trip of its own.
            let firstBatch = try await pool.transaction { connection in
                let before = connection.counters.roundTrips
                try await connection.commit(after: [PGStatement(insert, [.int(2)])])
                return connection.counters.roundTrips - before
            }
            #expect(firstBatch == 2)
            #expect(try await Self.count(pool, "tail") == 3)

            // Nothing to run and nothing sent yet: nothing goes out.
            let nothing = try await pool.transaction { connection in
                let before = connection.counters.roundTrips
                try await connection.commit(after: [])
                return connection.counters.roundTrips - before
            }
            #expect(nothing == 0)

            // A failing statement commits nothing: the insert before it in the pipeline is rolled back.
            await #expect(throws: PGError.self) {
                try await pool.transaction { connection in
                    _ = try await connection.query("SELECT n FROM tail WHERE n = $1", [.int(3)])
                    try await connection.commit(after: [
                        PGStatement(insert, [.int(3)]), PGStatement("INSERT INTO tail VALUES ($1)", [.int(1)]),
                    ])
                }
            }
            #expect(try await Self.count(pool, "tail") == 3)
            // And the connection is usable afterwards.
            #expect(try await Self.count(pool, "tail") == 3)
        }
    }

    @Test func aRepeatableFirstBatchCommitsWithItsOpeningInOneRoundTrip() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            try await pool.withConnection { connection in
                try await connection.execute("CREATE TABLE once (n int PRIMARY KEY, tenant text)")
                _ = try await connection.query(Self.upsertOnce, [.int(0)])
            }
            let (trips, tenant) = try await pool.transaction(settings: ["app.tenant_id": "t-7"]) { connection in
                let before = connection.counters.roundTrips
                let results = try await connection.commit(
                    after: [PGStatement(Self.upsertOnce, [.int(1)])], repeatable: true)
                await #expect(throws: PGError.self) { try await connection.query("SELECT 1") }
                return (connection.counters.roundTrips - before, try results.first.driverUnwrap().first.driverUnwrap())
            }
            #expect(trips == 1)
            // The statement ran after the opening's setting, and it committed.
            #expect(try tenant.string("tenant") == "t-7")
            #expect(try await Self.count(pool, "once") == 2)
        }
    }

    /// An upsert that returns its row: running it again changes nothing.
    static let upsertOnce = """
        INSERT INTO once VALUES ($1, current_setting('app.tenant_id', true))
        ON CONFLICT (n) DO UPDATE SET n = once.n RETURNING n, tenant
        """

    @Test func rowLevelSecurityFollowsTheTransactionSetting() async throws {
        try await DriverFixture.withPool(size: 2) { pool in
            let role = DriverFixture.uniqueName("app")
            try await pool.withConnection { connection in
                try await connection.execute(
                    """
                    CREATE ROLE \(role) NOLOGIN;
                    CREATE TABLE items (tenant text, name text);
                    ALTER TABLE items ENABLE ROW LEVEL SECURITY;
                    CREATE POLICY by_tenant ON items USING (tenant = current_setting('app.tenant_id', true));
                    GRANT SELECT ON items TO \(role);
                    INSERT INTO items VALUES ('a', 'one'), ('a', 'two'), ('b', 'three');
                    """)
            }
            for (tenant, expected) in [("a", 2), ("b", 1), ("c", 0)] {
                let seen = try await pool.transaction(role: role, settings: ["app.tenant_id": tenant]) {
                    try await $0.query("SELECT name FROM items").rows.count
                }
                #expect(seen == expected, "tenant \(tenant)")
            }
        }
    }

    @Test func commitOfAFailedTransactionIsReported() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute("CREATE TABLE t (id int PRIMARY KEY)") }
            let error = await #expect(throws: PGError.self) {
                try await pool.transaction { connection in
                    try await connection.query("INSERT INTO t VALUES ($1)", [.int(1)])
                    // A swallowed failure leaves the transaction aborted.
                    _ = try? await connection.query("INSERT INTO t VALUES ($1)", [.int(1)])
                    return 0
                }
            }
            #expect(error?.code == .transactionAborted)
            #expect(try await Self.count(pool, "t") == 0)
            // The connection is usable afterwards.
            try await pool.transaction { try await $0.query("INSERT INTO t VALUES ($1)", [.int(2)]) }
            #expect(try await Self.count(pool, "t") == 1)
        }
    }

    @Test func serializationFailureIsRecognised() async throws {
        try await DriverFixture.withPool(size: 2) { pool in
            try await pool.withConnection {
                try await $0.execute(
                    "CREATE TABLE counters (id int PRIMARY KEY, n int); INSERT INTO counters VALUES (1, 0)")
            }
            // Two serializable transactions read then write the same row; the second to commit fails.
            let gate = DriverGate()
            async let first: Void = pool.withConnection { connection in
                try await connection.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
                _ = try await connection.query("SELECT n FROM counters WHERE id = $1", [.int(1)])
                gate.arrive()
                await gate.waitForAll(2)
                try await connection.query("UPDATE counters SET n = n + 1 WHERE id = $1", [.int(1)])
                try await connection.execute("COMMIT")
            }
            async let second: Void = pool.withConnection { connection in
                try await connection.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
                _ = try await connection.query("SELECT n FROM counters WHERE id = $1", [.int(1)])
                gate.arrive()
                await gate.waitForAll(2)
                try await connection.query("UPDATE counters SET n = n + 1 WHERE id = $1", [.int(1)])
                try await connection.execute("COMMIT")
            }
            var failures: [PGError] = []
            do { try await first } catch let error as PGError { failures.append(error) }
            do { try await second } catch let error as PGError { failures.append(error) }
            #expect(failures.count == 1)
            #expect(failures.first?.isSerializationFailure == true)
        }
    }
}

/// A barrier for the connection closures: each waits, without blocking its loop, until all have arrived.
final class DriverGate: Sendable {
    private struct State {
        var arrived = 0
        var waiting: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    func arrive() {
        let ready = state.withLock { state in
            state.arrived += 1
            let arrived = state.arrived
            let ready = state.waiting.filter { $0.count <= arrived }.map(\.continuation)
            state.waiting.removeAll { $0.count <= arrived }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    func waitForAll(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.arrived < count else { return true }
                state.waiting.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}
