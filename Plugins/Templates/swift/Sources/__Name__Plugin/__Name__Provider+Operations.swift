#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension __Name__Provider {
    /// `POST /v1/payments/{id}/refunds` with our refund id as the reference and the idempotency key.
    ///
    /// - Throws: `missing_provider_payment_id` (nothing sent) when the payment's id is not known yet.
    public func refund(_ request: RefundRequest, account: AccountContext) async throws -> Outcome {
        let paymentId = try request.payment.requireProviderPaymentId(
            "\(__Name__Mapping.provider)'s payment id is not known; sync the payment first")
        let body = try ProviderJSON.standard.encode(__Name__Mapping.refundRequest(request))
        let exchange = try await exchange(
            .createRefund, method: "POST", path: "/v1/payments/\(ProviderURL.pathSegment(paymentId))/refunds",
            body: body, idempotencyKey: request.refundId, account: account, as: __Name__Refund.self)
        return exchange.resolve(__Name__Mapping.refundOutcome)
    }
}
