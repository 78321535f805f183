import Foundation

extension PaymentJanitor {
    /// Gives up on an open refund: ``RefundMachine/Event/gaveUp(reason:)`` applied with the refund's row
    /// locked, like every refund event. Returns the reason the machine lists it for review with; nil when the
    /// refund is final by now (an answer arrived meanwhile) or gone.
    func giveUpRefund(_ operation: OpenOperation, reason: String) async throws -> String? {
        let time = clock()
        let actions = try await payments.transitionRefund(tenant: operation.tenant, refundId: operation.id) {
            RefundMachine.apply(.gaveUp(reason: reason), to: &$0, at: time)
        }
        for case .listForReview(let listed) in actions ?? [] { return listed }
        return nil
    }
}
