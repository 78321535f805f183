import Foundation
import Logging
import SwitchyardStore
import TestWaiting
import Testing

/// A dispute notification that arrives while the database is unreachable is refused with a 503, so the
/// provider sends it again; once the database is back the resent one is stored, exactly once.
@Suite(.serialized)
struct DisputeOutageTests {
    /// Runs `body` while no new connection to the stack's database is accepted and the server's open
    /// ones are cut, then lets connections in again (also when `body` throws).
    static func duringOutage(_ stack: TestStack, _ body: () async throws -> Void) async throws {
        // A database cannot refuse connections while one is connected to it: the switch is made from the
        // cluster's `postgres` database.
        let quoted = try #require(stack.adminURL.split(separator: " ").first { $0.hasPrefix("dbname=") })
        let name = quoted.dropFirst("dbname=".count).filter { $0 != "'" }
        let maintenance = stack.adminURL.replacingOccurrences(of: quoted, with: "dbname=postgres")
        try await PGPool.scoped(connectionString: maintenance, logger: Logger(label: "test")) { admin in
            try await admin.withConnection { c in
                _ = try await c.query("ALTER DATABASE \(name) WITH ALLOW_CONNECTIONS false", [])
                _ = try await c.query(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
                    [.text(String(name))])
                let outcome: Result<Void, any Error>
                do {
                    try await body()
                    outcome = .success(())
                } catch {
                    outcome = .failure(error)
                }
                _ = try await c.query("ALTER DATABASE \(name) WITH ALLOW_CONNECTIONS true", [])
                try outcome.get()
            }
        }
    }

    @Test func aChargebackDuringADatabaseOutageIsRefusedRetryablyAndStoredOnceItEnds() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let flows = DisputeEndToEndTests()
            let (id, charge) = try await flows.paidCitconPayment(stack, m)
            let before = await stack.sandbox.citcon.notificationAttempts().count

            try await Self.duringOutage(stack) {
                _ = try await stack.sandbox.citcon.chargeback(chargeID: charge, status: "Notification of Claim")
                try await Poll.until(
                    "the IPN refused during the outage", within: .seconds(15), every: .milliseconds(20)
                ) {
                    await stack.sandbox.citcon.notificationAttempts().dropFirst(before).contains {
                        $0.statusCode == 503
                    }
                }
            }

            // The provider's next try (at most two seconds later) finds the database back.
            let dispute = try await flows.waitForDispute(stack, m, payment: id) {
                $0["status"] as? String == "needs_response"
            }
            #expect(dispute["amount"] as? Int == 5000)
            let attempts = await stack.sandbox.citcon.notificationAttempts().dropFirst(before)
            #expect(attempts.first?.statusCode == 503, "\(attempts.map { $0.statusCode ?? 0 })")
            try await Poll.until("the resent IPN acknowledged", within: .seconds(15), every: .milliseconds(50)) {
                await stack.sandbox.citcon.notificationAttempts().dropFirst(before).contains { $0.acknowledged }
            }
            let list = try await stack.send(.GET, "/v1/disputes?payment=\(id)", token: m.apiKey).json
            #expect((list["data"] as? [[String: Any]])?.count == 1, "stored once")
            let payment = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect(payment["amount_disputed"] as? Int == 5000)
        }
    }
}
