#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// What a Worldline status describes: a payment (and its captures) or a refund.
enum WorldlineSubject: Sendable {
    case payment
    case refund
}

/// Pure mapping between Switchyard's requests and outcomes and Worldline Direct's wire types.
enum WorldlineDirectMapping {
    /// Default client session lifetime: Worldline documents a fixed 3 h for the app SDK's session.
    static let defaultSessionLifetime: Int64 = 10_800

    // MARK: Status table

    /// Classifies a status (text and legacy numeric code) of a payment or refund.
    ///
    /// 1. A two-digit `statusCode` whose second digit is 2 (`62`, `82`, `92`…) is uncertain → unknown.
    /// 2. A known `status` text decides:
    ///    `CAPTURED`, `CAPTURE_REQUESTED`, `REFUNDED`, `REFUND_REQUESTED` → succeeded (a `*_REQUESTED`
    ///    operation was accepted and completes in Worldline's batch without further input; a later
    ///    refusal arrives as a notification and a sync);
    ///    `PENDING_CAPTURE` → authorized; `CREATED`, `REDIRECTED`, `PENDING_*`, `AUTHORIZATION_REQUESTED`
    ///    → pending; `REJECTED`, `REJECTED_CAPTURE` → declined; `CANCELLED` → canceled.
    /// 3. Otherwise the `statusCode`: `9`, `8`, `4`, `84`, `85` → succeeded; `5` → authorized;
    ///    `40`, `41`, `46`, `50`, `51`, `55`, `59`, `81` → pending; `0`, `2`, `63`, `73`, `83`, `93`, `94` →
    ///    declined; `1`, `6`, `7` → canceled; `91`, `99` (being processed) and anything else → unknown.
    static func outcomeKind(status: String?, statusCode: Int?) -> Outcome.Kind {
        if let code = statusCode, (10..<100).contains(code), code % 10 == 2 { return .unknown }
        if let kind = kind(forStatus: status) { return kind }
        guard let code = statusCode else { return .unknown }
        switch code {
        case 4, 8, 9, 84, 85: return .succeeded
        case 5: return .authorized
        case 40, 41, 46, 50, 51, 55, 59, 81: return .pending
        case 0, 2, 63, 73, 83, 93, 94: return .declined
        case 1, 6, 7: return .canceled
        default: return .unknown
        }
    }

    /// The class of a `status` text, or nil when the text is absent or not known.
    static func kind(forStatus status: String?) -> Outcome.Kind? {
        guard let status = status?.trimmingBlanks().uppercased(), !status.isEmpty else {
            return nil
        }
        switch status {
        case "CAPTURED", "CAPTURE_REQUESTED", "REFUNDED", "REFUND_REQUESTED": return .succeeded
        case "PENDING_CAPTURE": return .authorized
        case "CREATED", "REDIRECTED", "AUTHORIZATION_REQUESTED": return .pending
        case "REJECTED", "REJECTED_CAPTURE": return .declined
        case "CANCELLED": return .canceled
        default: return status.hasPrefix("PENDING_") ? .pending : nil
        }
    }

    /// An outcome carrying what a status says, with codes for the non-accepting classes.
    static func statusOutcome(
        status: String?, statusOutput: WorldlineStatusOutput?, subject: WorldlineSubject, retryable: Bool?
    ) -> Outcome {
        let code = statusOutput?.statusCode
        let kind = outcomeKind(status: status, statusCode: code)
        var outcome = Outcome(kind: kind, providerStatus: status ?? code.map { "statusCode \($0)" })
        let noun = subject == .payment ? "payment" : "refund"
        switch kind {
        case .declined:
            outcome.explain(
                code: statusOutput?.errors?.first.flatMap(errorCode) ?? "\(noun)_rejected",
                message: "Worldline rejected the \(noun)", retryable: retryable ?? false)
        case .canceled:
            outcome.explain(code: "\(noun)_cancelled", message: "Worldline reports the \(noun) cancelled")
        case .unknown:
            let uncertain = code.map { (10..<100).contains($0) && $0 % 10 == 2 } ?? false
            let processing = code == 91 || code == 99
            outcome.code = uncertain ? "\(noun)_uncertain" : processing ? "\(noun)_processing" : "unrecognised_status"
            outcome.message =
                uncertain
                ? "Worldline reports the \(noun) outcome uncertain"
                : processing ? "Worldline is processing the \(noun)" : "Worldline status is not recognised"
        default:
            break
        }
        return outcome
    }

    /// A payment's outcome: its status plus id, amount and the decline's retry hint.
    static func paymentOutcome(_ payment: WorldlinePayment) -> Outcome {
        let indicator = payment.paymentOutput?.cardPaymentMethodSpecificOutput?.reattemptInstructions?.indicator
        var outcome = statusOutcome(
            status: payment.status, statusOutput: payment.statusOutput, subject: .payment,
            retryable: indicator.map { $0 == "retryLater" })
        outcome.providerPaymentId = payment.id
        outcome.amount = payment.paymentOutput?.amountOfMoney?.amount
        if outcome.kind == .succeeded { outcome.capturedAmount = payment.paymentOutput?.acquiredAmount?.amount }
        return outcome
    }

    /// A refund's outcome; `providerPaymentId` is the refund's id.
    static func refundOutcome(_ refund: WorldlineRefundResponse) -> Outcome {
        var outcome = statusOutcome(
            status: refund.status, statusOutput: refund.statusOutput, subject: .refund, retryable: nil)
        outcome.providerPaymentId = refund.id
        outcome.amount = refund.refundOutput?.amountOfMoney?.amount
        if outcome.kind == .succeeded { outcome.refundedAmount = outcome.amount }
        return outcome
    }

    /// A create-payment answer: a redirect action makes it pending with a `redirect` next action,
    /// otherwise the payment's status decides.
    static func createPaymentOutcome(_ response: WorldlineCreatePaymentResponse) -> Outcome {
        var outcome = response.payment.map(paymentOutcome) ?? .unknown("Worldline returned no payment")
        if response.merchantAction?.actionType?.uppercased() == "REDIRECT",
            let url = response.merchantAction?.redirectData?.redirectURL, !url.isEmpty
        {
            outcome.kind = .pending
            outcome.code = nil
            outcome.message = nil
            outcome.retryable = nil
            outcome.nextAction = NextAction(type: "redirect", data: ["url": .string(url)])
        }
        return outcome
    }

    /// A capture answer: the capture's status, reported against the payment.
    static func captureOutcome(_ capture: WorldlineCaptureResponse, paymentId: String) -> Outcome {
        var outcome = statusOutcome(
            status: capture.status, statusOutput: capture.statusOutput, subject: .payment, retryable: nil)
        outcome.providerPaymentId = paymentId
        outcome.amount = capture.captureOutput?.amountOfMoney?.amount
        if outcome.kind == .succeeded { outcome.capturedAmount = outcome.amount }
        return outcome
    }

    /// A cancel answer: a cancelled payment is the void's success.
    static func cancelOutcome(_ response: WorldlineCancelResponse, paymentId: String) -> Outcome {
        guard let payment = response.payment else {
            return Outcome(
                kind: .unknown, providerPaymentId: paymentId, code: "unparsable_response",
                message: "Worldline returned no payment")
        }
        var outcome = paymentOutcome(payment)
        outcome.providerPaymentId = payment.id ?? paymentId
        if outcome.kind == .canceled {
            outcome.kind = .succeeded
            outcome.code = nil
            outcome.message = nil
        }
        return outcome
    }

    /// The stable code of one error entry: `errorCode`, else the deprecated `code`.
    static func errorCode(_ error: WorldlineAPIError) -> String? {
        error.errorCode ?? error.code
    }
}
