import Foundation
import SwitchyardCore

extension PostgresPayments {
    public func transitionRefund<T: Sendable>(
        tenant: UUID, refundId: String, _ body: @escaping @Sendable (inout Refund) throws -> T
    ) async throws -> T? {
        try await tenantScoped(tenant) { c -> T? in
            guard
                let paymentId = try await c.query("SELECT payment_id FROM refunds WHERE id = $1", [.text(refundId)])
                    .first?
                    .string("payment_id")
            else { return nil }
            // The payment's row first, like every refund write, so the recomputed total sees every committed refund.
            try await c.query("SELECT id FROM payments WHERE id = $1 FOR UPDATE", [.text(paymentId)])
            guard let row = try await c.query("SELECT * FROM refunds WHERE id = $1 FOR UPDATE", [.text(refundId)]).first
            else { return nil }
            var refund = try Self.refund(row)
            let before = refund
            let result = try body(&refund)
            guard refund != before else { return result }
            try await c.query(Self.upsertRefund, Self.refundParameters(refund))
            try await self.announce(refund, previous: before.status.rawValue, on: c)
            try await c.query(Self.recomputeRefunded, [.text(paymentId)])
            return result
        }
    }
}
