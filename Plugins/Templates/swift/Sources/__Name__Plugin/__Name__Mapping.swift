#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// Pure mapping between Switchyard's requests and outcomes and the __Name__ wire types: no I/O, no state.
enum __Name__Mapping {
    /// The provider's name in messages.
    static let provider = "__Name__"

    /// How long after an attempt's start a lookup by our reference that finds nothing proves the payment
    /// never reached the provider (a request that timed out may still be processed a moment later); the
    /// account option `not_found_delay_seconds` overrides it.
    static let notFoundDelay: TimeInterval = 60

    // MARK: Status table

    /// The outcome class of a payment status; surrounding blanks and case are ignored.
    ///
    /// `succeeded` → succeeded; `authorized` → authorized; `pending|processing|requires_action` → pending;
    /// `declined|failed` → declined; `canceled|cancelled|expired` → canceled; anything else → unknown
    /// (never guess success or decline from a status you do not know).
    static func outcomeKind(forStatus status: String?) -> Outcome.Kind {
        switch status?.trimmingBlanks().lowercased() {
        case "succeeded": return .succeeded
        case "authorized": return .authorized
        case "pending", "processing", "requires_action": return .pending
        case "declined", "failed": return .declined
        case "canceled", "cancelled", "expired": return .canceled
        default: return .unknown
        }
    }

    /// An outcome carrying only what a payment's status says (the caller adds ids and amounts).
    static func statusOutcome(_ status: String?, failureCode: String? = nil) -> Outcome {
        var outcome = Outcome(kind: outcomeKind(forStatus: status), providerStatus: status)
        switch outcome.kind {
        case .declined:
            outcome.explain(
                code: ProviderText.safeCode(failureCode) ?? "payment_declined",
                message: "\(provider) declined the payment", retryable: false)
        case .canceled:
            outcome.explain(code: "payment_canceled", message: "\(provider) reports the payment canceled")
        case .unknown:
            outcome.explain(code: "unrecognised_status", message: "\(provider) status is not recognised")
        default:
            break
        }
        return outcome
    }

    // MARK: Requests

    /// A payment: our attempt id is the reference, captured at once unless the capture mode is manual.
    static func paymentRequest(_ request: AuthorizeRequest, account: AccountContext) -> __Name__PaymentRequest {
        __Name__PaymentRequest(
            amount: request.amount, currency: request.currency, country: request.country, method: request.method,
            reference: request.attemptId,
            description: request.merchantReference.isEmpty ? nil : request.merchantReference,
            capture: request.captureMode == .automatic, returnURL: request.returnURL,
            notificationURL: account.notificationURL)
    }

    /// A refund: our refund id is the reference.
    static func refundRequest(_ request: RefundRequest) -> __Name__RefundRequest {
        __Name__RefundRequest(amount: request.amount, reference: request.refundId, reason: request.reason)
    }

    // MARK: Answers

    /// The outcome of a payment object: its status, ids and amounts; a payment waiting for the customer
    /// carries a `redirect` next action when the provider gives a URL.
    static func paymentOutcome(_ payment: __Name__Payment) -> Outcome {
        var outcome = statusOutcome(payment.status, failureCode: payment.failureCode)
        outcome.providerPaymentId = payment.id
        outcome.amount = payment.amount
        outcome.refundedAmount = payment.amountRefunded
        if outcome.kind == .pending, let url = ProviderText.nonEmpty(payment.redirectURL) {
            outcome.nextAction = NextAction(type: "redirect", data: ["url": .string(url)])
        }
        return outcome
    }

    /// The outcome of a refund object: succeeded, pending, declined (failed or canceled), else unknown.
    static func refundOutcome(_ refund: __Name__Refund) -> Outcome {
        var outcome = Outcome(
            kind: .unknown, providerPaymentId: refund.id, providerStatus: refund.status, amount: refund.amount)
        switch outcomeKind(forStatus: refund.status) {
        case .succeeded:
            outcome.kind = .succeeded
        case .pending:
            outcome.kind = .pending
        case .declined, .canceled:
            outcome.kind = .declined
            outcome.explain(
                code: ProviderText.safeCode(refund.failureCode) ?? "refund_failed",
                message: "\(provider) refused the refund", retryable: false)
        default:
            outcome.explain(code: "unrecognised_status", message: "\(provider) refund status is not recognised")
        }
        return outcome
    }
}
