import Foundation
import ProviderKit

extension WorldlineDirectProvider {
    /// `POST …/payments/{id}/capture` with our operation id as the idempotence key.
    public func capture(_ request: CaptureRequest, account: AccountContext) async throws -> Outcome {
        let id = try Self.paymentId(request.payment)
        let body = try WorldlineDirectMapping.encode(WorldlineDirectMapping.captureRequest(request))
        let exchange = try await exchange(
            .capture, method: "POST", path: Self.paymentPath(id, "/capture"), body: body,
            idempotenceKey: request.operationId, account: account, as: WorldlineCaptureResponse.self
        )
        switch exchange {
        case .outcome(let outcome): return Self.withPaymentId(outcome, id)
        case .success(let capture): return WorldlineDirectMapping.captureOutcome(capture, paymentId: id)
        }
    }

    /// `POST …/payments/{id}/cancel` (whole authorisation) with our operation id as the idempotence key.
    /// A cancelled payment is the void's success.
    public func void(_ request: VoidRequest, account: AccountContext) async throws -> Outcome {
        let id = try Self.paymentId(request.payment)
        let body = try WorldlineDirectMapping.encode(WorldlineCancelRequest())
        let exchange = try await exchange(
            .cancel, method: "POST", path: Self.paymentPath(id, "/cancel"), body: body,
            idempotenceKey: request.operationId, account: account, as: WorldlineCancelResponse.self
        )
        switch exchange {
        case .outcome(let outcome): return Self.withPaymentId(outcome, id)
        case .success(let response): return WorldlineDirectMapping.cancelOutcome(response, paymentId: id)
        }
    }

    /// `POST …/payments/{id}/refund` with our refund id as the idempotence key; the outcome carries
    /// Worldline's refund id.
    public func refund(_ request: RefundRequest, account: AccountContext) async throws -> Outcome {
        let id = try Self.paymentId(request.payment)
        let body = try WorldlineDirectMapping.encode(WorldlineDirectMapping.refundRequest(request))
        let exchange = try await exchange(
            .refund, method: "POST", path: Self.paymentPath(id, "/refund"), body: body,
            idempotenceKey: request.refundId, account: account, as: WorldlineRefundResponse.self
        )
        switch exchange {
        case .outcome(let outcome): return outcome
        case .success(let refund): return WorldlineDirectMapping.refundOutcome(refund)
        }
    }

    /// Worldline's payment id: captures, cancels and refunds name the payment by it.
    static func paymentId(_ payment: PaymentLocator) throws -> String {
        guard let id = payment.providerPaymentId, !id.isEmpty else {
            throw ProviderError(
                code: "missing_provider_payment_id", message: "Worldline's payment id is not known")
        }
        return id
    }

    /// `/payments/{id}` plus a suffix, the id percent-encoded.
    static func paymentPath(_ id: String, _ suffix: String) -> String {
        "/payments/" + WorldlineDirectMapping.pathSegment(id) + suffix
    }

    /// An outcome that names the payment when the answer did not.
    static func withPaymentId(_ outcome: Outcome, _ id: String) -> Outcome {
        var outcome = outcome
        if outcome.providerPaymentId == nil { outcome.providerPaymentId = id }
        return outcome
    }
}
