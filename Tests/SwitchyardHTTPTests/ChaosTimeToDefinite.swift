import Foundation
import Logging
import SwitchyardStore

/// How long a paid customer waited for a definite answer when the provider's notification was lost, and
/// how many inquiries the janitors spent on it: the measure of the overdue-notification inquiries. Reported,
/// never asserted (timings depend on the machine).
struct ChaosTimeToDefinite {
    /// A payment's end as the database holds it.
    struct Outcome {
        var status: String
        var updatedAt: Date
        var overdueInquiries: Int
    }

    let orders: [ChaosOrder]
    let payments: [String: Outcome]

    /// Seconds from the app's confirmation to the payment's final status, for paid orders whose IPN was lost.
    var lostNotificationDelays: [Double] {
        orders.filter(\.notificationDropped).compactMap { order in
            guard let paidAt = order.paidAt, let id = order.paymentId, let outcome = payments[id],
                outcome.status == "succeeded"
            else { return nil }
            return max(0, outcome.updatedAt.timeIntervalSince(paidAt))
        }
    }

    /// One line per measure.
    var report: String {
        let delays = lostNotificationDelays.sorted()
        let lost = orders.filter { $0.notificationDropped && $0.paidAt != nil }
        let inquiries = lost.compactMap { $0.paymentId.flatMap { payments[$0]?.overdueInquiries } }
        let sessions = orders.filter { $0.flow == .citconSession }.compactMap { $0.paymentId.flatMap { payments[$0] } }
        func rank(_ p: Double) -> String {
            guard !delays.isEmpty else { return "-" }
            let index = min(delays.count - 1, max(0, Int((p * Double(delays.count)).rounded(.up)) - 1))
            return String(format: "%.1f", delays[index])
        }
        let mean = inquiries.isEmpty ? 0 : Double(inquiries.reduce(0, +)) / Double(inquiries.count)
        return """
            chaos: paid with the notification lost \(lost.count), succeeded \(delays.count), \
            within 60 s of the app's confirmation \(delays.filter { $0 <= 60 }.count); seconds to definite \
            p50 \(rank(0.5)), p90 \(rank(0.9)), max \(rank(1)); overdue inquiries per such payment \
            mean \(String(format: "%.2f", mean)), max \(inquiries.max() ?? 0); overdue inquiries over all \
            \(sessions.count) Citcon sessions \(sessions.map(\.overdueInquiries).reduce(0, +))
            """
    }
}

extension ChaosPlatform {
    /// Every payment's status, last change and overdue inquiries, by id.
    func waitingOutcomes() async throws -> [String: ChaosTimeToDefinite.Outcome] {
        let pool = try PGPool(
            PostgresConfiguration(connectionString: databaseURL, poolSize: 1), logger: Logger(label: "chaos"))
        defer { Task { await pool.shutdown() } }
        return try await pool.withConnection { c in
            var outcomes: [String: ChaosTimeToDefinite.Outcome] = [:]
            for row in try await c.query("SELECT id, status, updated_at, overdue_inquiries FROM payments").rows {
                outcomes[try row.string("id")] = ChaosTimeToDefinite.Outcome(
                    status: try row.string("status"), updatedAt: try row.date("updated_at"),
                    overdueInquiries: Int(try row.int64("overdue_inquiries")))
            }
            return outcomes
        }
    }
}
