import Foundation
import NIOHTTP1
import SwitchyardStore

/// What the promoted database holds at the end of a failover run, read as its superuser.
struct StoreSnapshot: Sendable {
    var inRecovery = true
    /// Payments and refunds by id, with their status.
    var payments: [String: String] = [:]
    var refunds: [String: String] = [:]
    /// Payments with more than one refund.
    var paymentsRefundedTwice: [String] = []
    /// Idempotency-Keys claimed and never completed.
    var keysInProgress: [String] = []

    /// Payments and refunds not in a final state.
    var unsettled: [String] {
        let payments = payments.filter { !DatabaseFailoverTests.finalPaymentStatuses.contains($0.value) }
        let refunds = refunds.filter { !DatabaseFailoverTests.finalRefundStatuses.contains($0.value) }
        return (payments.map { $0 } + refunds.map { $0 }).map { "\($0.key) \($0.value)" }
    }

    /// Whether every order's payment and refund is stored and final.
    func settled(_ orders: [FailoverOrder]) -> Bool {
        unsettled.isEmpty
            && orders.allSatisfy { order in
                order.order.paymentId.map { payments[$0] != nil } ?? false
                    && (order.refundId.map { refunds[$0] != nil } ?? true)
            }
    }

    static func read(_ url: String) async throws -> StoreSnapshot {
        try await PGPool.scoped(connectionString: url, logger: DatabaseFailoverTests.logger) { pool in
            try await pool.withConnection { connection in
                var snapshot = StoreSnapshot()
                snapshot.inRecovery =
                    try await connection.query("SELECT pg_is_in_recovery() AS r").first?.bool("r") ?? true
                for row in try await connection.query("SELECT id, status FROM payments").rows {
                    snapshot.payments[try row.string("id")] = try row.string("status")
                }
                for row in try await connection.query("SELECT id, status FROM refunds").rows {
                    snapshot.refunds[try row.string("id")] = try row.string("status")
                }
                snapshot.paymentsRefundedTwice = try await connection.query(
                    "SELECT payment_id FROM refunds GROUP BY payment_id HAVING count(*) > 1"
                ).rows.map { try $0.string("payment_id") }
                snapshot.keysInProgress = try await connection.query(
                    "SELECT key FROM idempotency_keys WHERE completed_at IS NULL"
                ).rows.map { try $0.string("key") }
                return snapshot
            }
        }
    }
}

extension DatabaseFailoverTests {
    /// The payments as the merchant API lists them, reconciled with the sandbox's ledgers; and the number
    /// of refunds the Antom ledger holds for each of its payments.
    func ledgers(_ platform: ChaosPlatform, _ shop: ChaosShop, _ orders: [FailoverOrder]) async throws
        -> (ChaosFindings, [String: Int])
    {
        var payments: [[String: Any]] = []
        var cursor: String?
        repeat {
            let query =
                "/v1/payments?limit=100&" + PaymentLists.expandAll + (cursor.map { "&starting_after=\($0)" } ?? "")
            let page = try await platform.send(.GET, platform.replicaURL(payments.count) + query, token: shop.apiKey)
            guard page.status == 200 else { throw TestFailure("list: \(page.status) \(page.text)") }
            payments += page.json["data"] as? [[String: Any]] ?? []
            cursor = page.json["has_more"] as? Bool == true ? page.json["next_cursor"] as? String : nil
        } while cursor != nil
        let antom = try await platform.send(.GET, platform.sandboxURL + "/_sandbox/antom/ledger")
        let antomLedger = (try? JSONSerialization.jsonObject(with: antom.body)) as? [[String: Any]] ?? []
        var refunds: [String: Int] = [:]
        for entry in antomLedger where entry["kind"] as? String == "refund" {
            refunds[entry["paymentId"] as? String ?? "-", default: 0] += 1
        }
        let findings = ChaosFindings(
            payments: payments.filter { ($0["reference"] as? String)?.hasPrefix("chaos-") == true },
            citconLedger: [], antomLedger: antomLedger, orders: orders.map(\.order), history: false, now: Date())
        return (findings, refunds)
    }
}
