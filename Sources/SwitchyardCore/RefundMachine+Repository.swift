import Foundation

extension PaymentRepository {
    /// Reads the refund, applies `body` and commits the result when it changed, without a lock of its own:
    /// for stores that have no row locks. Stores with row locks implement
    /// ``PaymentRepository/transitionRefund(tenant:refundId:_:)`` themselves.
    public func transitionRefund<T: Sendable>(
        tenant: UUID, refundId: String, _ body: @escaping @Sendable (inout Refund) throws -> T
    ) async throws -> T? {
        guard var refund = try await refund(id: refundId), refund.tenantId == tenant else { return nil }
        let before = refund
        let result = try body(&refund)
        if refund != before { try await commit(PaymentChanges(refunds: [refund])) }
        return result
    }
}
