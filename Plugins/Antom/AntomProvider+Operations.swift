#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension AntomProvider {
    /// `payments/capture` with our operation id as `captureRequestId`. Without Antom's payment id the outcome
    /// is unknown (`no_payment_id`, nothing sent): a `sync` by our reference learns it.
    public func capture(_ request: CaptureRequest, account: AccountContext) async throws -> Outcome {
        guard let id = request.payment.knownProviderPaymentId else {
            return Outcome.unknown(code: "no_payment_id", message: "Antom's payment id is not known")
        }
        let body = AntomMapping.captureRequest(request, paymentId: id)
        let exchange = try await exchange(.capture, body: body, account: account, as: AntomCaptureResponse.self)
        return exchange.naming(id).resolve { AntomMapping.captureOutcome($0, request: request, paymentId: id) }
    }

    /// `payments/cancel` by Antom's payment id when known, else by our request id; success → canceled.
    public func void(_ request: VoidRequest, account: AccountContext) async throws -> Outcome {
        let body = AntomMapping.cancelRequest(request.payment)
        let exchange = try await exchange(.cancel, body: body, account: account, as: AntomCancelResponse.self)
        return exchange.naming(request.payment.knownProviderPaymentId).resolve {
            AntomMapping.cancelOutcome($0, payment: request.payment)
        }
    }

    /// `payments/refund` with our refund id as `refundRequestId`; the outcome carries Antom's refund id.
    /// Without Antom's payment id nothing is sent (notSent, `no_payment_id`): Antom refunds only by it.
    public func refund(_ request: RefundRequest, account: AccountContext) async throws -> Outcome {
        guard let id = request.payment.knownProviderPaymentId else {
            return Outcome(kind: .notSent, code: "no_payment_id", message: "Antom's payment id is not known")
        }
        let body = AntomMapping.refundRequest(request, paymentId: id)
        let exchange = try await exchange(.refund, body: body, account: account, as: AntomRefundResponse.self)
        return exchange.resolve { AntomMapping.refundOutcome($0, request: request) }
    }

    /// `payments/inquiryPayment` by our request id (and Antom's payment id when known).
    ///
    /// `F ORDER_NOT_EXIST` for our request id alone (Antom never named the payment) is judged by
    /// ``NotFoundRule`` (account option `not_found_delay_seconds`, default ``AntomMapping/notFoundDelay``):
    /// `notSent` once the delay since the attempt's start has passed, else `unknown`. With Antom's payment id it
    /// stays a decline with that code.
    public func sync(_ request: SyncRequest, account: AccountContext) async throws -> Outcome {
        let body = AntomMapping.inquiryRequest(request.payment)
        let exchange = try await exchange(
            .inquiryPayment, body: body, account: account, as: AntomInquiryPaymentResponse.self)
        switch exchange {
        case .outcome(let outcome):
            let id = request.payment.knownProviderPaymentId
            if id == nil, outcome.kind == .declined, outcome.code == AntomMapping.orderNotExist {
                return NotFoundRule(options: account.options, defaultDelay: AntomMapping.notFoundDelay)
                    .outcome(provider: "Antom", attemptStartedAt: request.attemptStartedAt, now: host.now())
            }
            return outcome.naming(id)
        case .success(let response): return AntomMapping.inquiryOutcome(response, payment: request.payment)
        }
    }

    /// `payments/inquiryRefund` by our refund id.
    public func syncRefund(_ request: SyncRefundRequest, account: AccountContext) async throws -> Outcome {
        let body = AntomInquiryRefundRequest(refundRequestId: request.refundId, refundId: nil)
        let exchange = try await exchange(
            .inquiryRefund, body: body, account: account, as: AntomInquiryRefundResponse.self)
        switch exchange {
        case .outcome(let outcome):
            return outcome.naming(request.providerRefundId)
        case .success(let response):
            return AntomMapping.refundStatusOutcome(
                status: response.refundStatus, refundId: response.refundId ?? request.providerRefundId,
                amount: response.refundAmount?.minorUnits)
        }
    }
}
