#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension WorldlineDirectProvider {
    /// `POST …/payments/{id}/capture` with our operation id as the idempotence key.
    public func capture(_ request: CaptureRequest, account: AccountContext) async throws -> Outcome {
        let (id, exchange) = try await paymentOperation(
            .capture, on: request.payment, suffix: "/capture", body: WorldlineDirectMapping.captureRequest(request),
            idempotenceKey: request.operationId, account: account, as: WorldlineCaptureResponse.self)
        return exchange.naming(id).resolve { WorldlineDirectMapping.captureOutcome($0, paymentId: id) }
    }

    /// `POST …/payments/{id}/cancel` (whole authorisation) with our operation id as the idempotence key.
    /// A cancelled payment is the void's success.
    public func void(_ request: VoidRequest, account: AccountContext) async throws -> Outcome {
        let (id, exchange) = try await paymentOperation(
            .cancel, on: request.payment, suffix: "/cancel", body: WorldlineCancelRequest(),
            idempotenceKey: request.operationId, account: account, as: WorldlineCancelResponse.self)
        return exchange.naming(id).resolve { WorldlineDirectMapping.cancelOutcome($0, paymentId: id) }
    }

    /// `POST …/payments/{id}/refund` with our refund id as the idempotence key; the outcome carries
    /// Worldline's refund id.
    public func refund(_ request: RefundRequest, account: AccountContext) async throws -> Outcome {
        let exchange = try await paymentOperation(
            .refund, on: request.payment, suffix: "/refund", body: WorldlineDirectMapping.refundRequest(request),
            idempotenceKey: request.refundId, account: account, as: WorldlineRefundResponse.self
        ).exchange
        return exchange.resolve(WorldlineDirectMapping.refundOutcome)
    }

    /// `POST …/payments/{id}<suffix>` with `body` under `idempotenceKey`: Worldline's payment id and the
    /// classified answer.
    ///
    /// - Throws: `missing_provider_payment_id` (nothing sent) when Worldline's payment id is not known.
    func paymentOperation<Payload: Decodable & Sendable>(
        _ call: WorldlineCall, on payment: PaymentLocator, suffix: String, body: some Encodable,
        idempotenceKey: String, account: AccountContext, as type: Payload.Type
    ) async throws -> (id: String, exchange: ExchangeResult<Payload>) {
        let id = try Self.paymentId(payment)
        let exchange = try await exchange(
            call, method: "POST", path: Self.paymentPath(id, suffix), body: try ProviderJSON.standard.encode(body),
            idempotenceKey: idempotenceKey, account: account, as: type)
        return (id, exchange)
    }

    /// Worldline's payment id: captures, cancels and refunds name the payment by it.
    static func paymentId(_ payment: PaymentLocator) throws -> String {
        try payment.requireProviderPaymentId("Worldline's payment id is not known")
    }

    /// `/payments/{id}` plus a suffix, the id percent-encoded.
    static func paymentPath(_ id: String, _ suffix: String) -> String {
        "/payments/" + ProviderURL.pathSegment(id) + suffix
    }
}
