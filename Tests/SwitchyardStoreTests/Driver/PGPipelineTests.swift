import Foundation
import SwitchyardStore
import Testing

/// Statements sent together in one round trip (libpq's pipeline mode) behave as if run one by one.
@Suite("Pipelines")
struct PGPipelineTests {
    @Test func resultsComeBackInOrderAndCountAsStatements() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            try await pool.withConnection {
                try await $0.execute("CREATE TABLE ledger (id int PRIMARY KEY, amount bigint)")
            }
            let (values, statements) = try await pool.transaction { c -> ([Int64], Int) in
                let before = c.counters.statements
                let results = try await c.pipeline([
                    PGStatement("INSERT INTO ledger VALUES ($1, $2)", [.int(1), .int(500)]),
                    PGStatement("INSERT INTO ledger VALUES ($1, $2)", [.int(2), .int(700)]),
                    PGStatement("SELECT sum(amount)::bigint AS total FROM ledger"),
                    PGStatement("SELECT amount FROM ledger WHERE id = $1", [.int(2)]),
                ])
                #expect(results.count == 4)
                #expect(results[0].affectedRows == 1)
                let total = try results[2].first.driverUnwrap().int64("total")
                let second = try results[3].first.driverUnwrap().int64("amount")
                return ([total, second], c.counters.statements - before)
            }
            #expect(values == [1200, 700])
            #expect(statements == 4)
        }
    }

    @Test func anErrorIsThrownOnceTheRestIsReadAndTheConnectionStaysUsable() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute("CREATE TABLE keys (k text PRIMARY KEY)") }
            let error = await #expect(throws: PGError.self) {
                try await pool.transaction { c in
                    try await c.pipeline([
                        PGStatement("INSERT INTO keys VALUES ($1)", [.text("a")]),
                        PGStatement("INSERT INTO keys VALUES ($1)", [.text("a")]),
                        PGStatement("INSERT INTO keys VALUES ($1)", [.text("b")]),
                    ])
                }
            }
            #expect(error?.isUniqueViolation == true)
            // Nothing of the failed transaction stays, and the same connection serves the next one.
            let rows = try await pool.transaction { c in
                try await c.pipeline([
                    PGStatement("INSERT INTO keys VALUES ($1)", [.text("c")]),
                    PGStatement("SELECT k FROM keys ORDER BY k"),
                ])[1].rows.map { try $0.string("k") }
            }
            #expect(rows == ["c"])
        }
    }

    @Test func aBatchLargerThanTheSocketBuffersIsSentWhileItsAnswersAreRead() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute("CREATE TABLE blobs (id int PRIMARY KEY, body text)") }
            // Four MiB in one pipeline: far more than the kernel buffers hold, so libpq must be flushed
            // on writability, and the server's first answers read meanwhile, without blocking.
            let body = String(repeating: "x", count: 2 << 20)
            let count = try await pool.transaction { c in
                try await c.pipeline([
                    PGStatement("INSERT INTO blobs VALUES ($1, $2)", [.int(1), .text(body)]),
                    PGStatement("INSERT INTO blobs VALUES ($1, $2)", [.int(2), .text(body)]),
                    PGStatement("SELECT count(*)::bigint AS n, sum(length(body))::bigint AS bytes FROM blobs"),
                ])[2].first.driverUnwrap()
            }
            #expect(try count.int64("n") == 2)
            #expect(try count.int64("bytes") == Int64(2 * (2 << 20)))
        }
    }
}
