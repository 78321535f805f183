import Foundation
import SwitchyardCore

extension InMemoryPaymentRepository {
    /// Applies `body` to the refund inside one transaction (every method here is serialized, as the
    /// PostgreSQL store's row locks serialize refund writes), storing it with the recomputed refunded
    /// amount when it changed; nil for an unknown refund or another tenant's.
    public func transitionRefund<T: Sendable>(
        tenant: UUID, refundId: String, _ body: @escaping @Sendable (inout Refund) throws -> T
    ) async throws -> T? {
        try outage.check()
        let result = try transact { state -> T? in
            guard var refund = state.refunds[refundId]?.value, refund.tenantId == tenant else { return nil }
            let before = refund
            let result = try body(&refund)
            if refund != before { try state.write(PaymentChanges(refunds: [refund])) }
            if outage.dropsTransition(at: .beforeCommit) { throw InMemoryOutage.Unavailable() }
            return result
        }
        if outage.dropsTransition(at: .afterCommit) { throw InMemoryOutage.Unavailable() }
        return result
    }
}
