import Foundation
import SwitchyardStore
import Testing

@Suite("Transaction watches")
struct PGWatchTests {
    @Test func aWatchCountsOnlyCommittedTransactionsWithItsSetting() async throws {
        try await DriverFixture.withPool(size: 2) { pool in
            try await pool.withConnection { try await $0.execute("CREATE TABLE notes (id int PRIMARY KEY)") }
            let watch = pool.watch(setting: "app.scope", value: "a")
            try await pool.transaction(settings: ["app.scope": "a"]) { c in
                _ = try await c.query("SELECT 1 AS one")
                _ = try await c.query("SELECT 2 AS two")
            }
            try await pool.transaction(settings: ["app.scope": "a"]) { c in
                try await c.query("INSERT INTO notes VALUES ($1)", [.int(1)])
            }
            // Another scope, no scope, and a rolled-back transaction are not counted.
            try await pool.transaction(settings: ["app.scope": "b"]) { c in
                try await c.query("INSERT INTO notes VALUES ($1)", [.int(2)])
            }
            try await pool.transaction { c in try await c.query("INSERT INTO notes VALUES ($1)", [.int(3)]) }
            await #expect(throws: DriverTestError.self) {
                try await pool.transaction(settings: ["app.scope": "a"]) { c in
                    try await c.query("INSERT INTO notes VALUES ($1)", [.int(4)])
                    throw DriverTestError()
                }
            }
            pool.unwatch(watch)
            try await pool.transaction(settings: ["app.scope": "a"]) { c in _ = try await c.query("SELECT 1 AS one") }
            #expect(watch.tally == PGWatch.Tally(transactions: 2, writingTransactions: 1, statements: 3))
        }
    }

    @Test func settingsSentWithBeginKeepQuotesAndBackslashes() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let value = #"a'b\c\'; SELECT 1; --é"#
            let seen = try await pool.transaction(settings: ["app.odd": value, "app.plain": "x"]) { c in
                try await c.query("SELECT current_setting('app.odd') AS v").first.driverUnwrap().string("v")
            }
            #expect(seen == value)
        }
    }

    @Test func aStatementRunTwiceOnOneConnectionIsPreparedOnce() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let counts = try await pool.withConnection { c in
                let before = c.counters
                _ = try await c.query("SELECT $1::bigint AS n", [.int(1)])
                _ = try await c.query("SELECT $1::bigint AS n", [.int(2)])
                let after = c.counters
                return (after.statements - before.statements, after.prepares - before.prepares)
            }
            #expect(counts.0 == 2)
            #expect(counts.1 == 1)
        }
    }
}
