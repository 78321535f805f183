import Foundation
import SwitchyardCore
import SwitchyardObservability

extension PostgresOperators {
    /// The janitor's backlog and the webhook deliveries by status, read in one transaction, and the open
    /// disputes by due window.
    public func gauges() async throws -> StoreGauges {
        var gauges = try await system { c in
            let unknown = try await c.query(
                "SELECT count(*) AS n, min(COALESCE(unknown_since, created_at)) AS oldest FROM payments WHERE status = 'unknown'"
            ).rows.first
            let deliveries = try await c.query("SELECT status, count(*) AS n FROM webhook_deliveries GROUP BY status")
                .rows
            var byStatus: [String: Int64] = [:]
            for row in deliveries { byStatus[try row.string("status")] = try row.int64("n") }
            return StoreGauges(
                unknownPayments: try unknown?.int64("n") ?? 0, oldestUnknownSince: unknown?.optionalDate("oldest"),
                webhookDeliveries: byStatus)
        }
        gauges.openDisputes = try await PostgresDisputes(database: database).openByDueWindow(now: clock())
        return gauges
    }
}

extension PostgresOperators {
    /// Counts a payment reaching a final status (refunds and stored credentials are not counted here).
    static func countTransition(_ subject: some WebhookSubject, from previous: String?) {
        guard let payment = subject as? Payment, payment.status.isFinal,
            previous.flatMap(PaymentStatus.init(rawValue:))?.isFinal != true
        else { return }
        PaymentMetrics.finished(method: payment.method, status: payment.status.rawValue, tenant: payment.tenantId)
    }
}
