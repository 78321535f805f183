import Foundation
import SwitchyardStore
import SwitchyardTestSupport
import TestWaiting
import Testing

@Suite("Connection leases")
struct PGLeaseTests {
    static func pid(_ connection: PGConnection) async throws -> Int64 {
        try await connection.query("SELECT pg_backend_pid() AS pid").first.driverUnwrap().int64("pid")
    }

    @Test func oneSessionServesTheWholeScopeAcrossAwaits() async throws {
        try await DriverFixture.withPool(size: 3) { pool in
            let seen = try await pool.withLease { lease in
                let first = try await lease.run { connection in
                    try await connection.execute("SET application_name TO 'leased'")
                    return try await Self.pid(connection)
                }
                // Suspend between the two calls: the scope outlives an await.
                await Task.yield()
                let setting = try await lease.run { connection in
                    try await connection.query("SELECT current_setting('application_name') AS name").first
                        .driverUnwrap()
                        .string("name")
                }
                // The pool's own entry points, from the scope and from its child tasks, use the lease too.
                let viaPool = try await pool.withConnection { try await Self.pid($0) }
                let viaTransaction = try await pool.transaction { try await Self.pid($0) }
                let viaChildren = try await withThrowingTaskGroup(of: Int64.self) { group in
                    for _ in 0..<5 { group.addTask { try await pool.withConnection { try await Self.pid($0) } } }
                    return try await group.reduce(into: Set<Int64>()) { $0.insert($1) }
                }
                return (first, setting, viaPool, viaTransaction, viaChildren)
            }
            #expect(seen.1 == "leased")
            #expect(seen.2 == seen.0)
            #expect(seen.3 == seen.0)
            #expect(seen.4 == [seen.0])
        }
    }

    @Test func aPoolOfOneServesItsLeaseholderWithoutDeadlock() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let value = try await pool.withLease { _ in
                try await pool.withConnection { connection in
                    try await connection.query("SELECT 41 + 1 AS n").first.driverUnwrap().int64("n")
                }
            }
            #expect(value == 42)
            #expect(try await pool.withConnection { _ in 7 } == 7)
        }
    }

    @Test func theConnectionReturnsWhenTheBodyThrows() async throws {
        try await DriverFixture.withPool(size: 1) { (pool: PGPool) async throws in
            await #expect(throws: DriverTestError.self) {
                try await pool.withLease { lease in
                    try await lease.run { try await $0.execute("SELECT 1") }
                    throw DriverTestError()
                }
            }
            #expect(try await pool.withConnection { _ in 7 } == 7)
        }
    }

    @Test func aLeaseKeptPastItsScopeIsRefused() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let escaped = try await pool.withLease { $0 }
            let error = await #expect(throws: PGError.self) { try await escaped.run { _ in 1 } }
            #expect(error?.code == .leaseEnded)
        }
    }

    @Test func endingTheScopeWaitsForCallsStillRunning() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let clock = ContinuousClock()
            let start = clock.now
            let straggler = try await pool.withLease { lease in
                let task = Task { try await lease.run { try await $0.query("SELECT pg_sleep(0.4)") } }
                try await Poll.until("the straggler's call begun", within: .seconds(5), every: .milliseconds(5)) {
                    lease.callsRunning == 1
                }
                return task
            }
            #expect(clock.now - start >= .milliseconds(400), "the connection went back only once the call ended")
            _ = try await straggler.value
            #expect(try await pool.withConnection { _ in 7 } == 7)
        }
    }
}
