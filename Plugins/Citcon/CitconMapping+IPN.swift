#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension CitconMapping {
    /// The event a verified IPN reports, built from the signed fields only; `nil` when `status` is not
    /// covered by the signature (nothing unsigned is ever trusted).
    static func ipnEvent(signed: [String: String]) -> NotificationEvent? {
        guard let status = ProviderText.nonEmpty(signed[CitconIPNField.status]) else { return nil }
        let subject: NotificationEvent.Subject
        switch ProviderText.nonEmpty(signed[CitconIPNField.transactionType])?.lowercased() {
        case "charge", nil: subject = .payment
        case "refund": subject = .refund
        default: subject = .other
        }
        var outcome = statusOutcome(status)
        if subject == .refund, outcome.kind == .declined {
            outcome.explain(code: "refund_failed", message: "Citcon reports the refund failed")
        }
        outcome.providerPaymentId = ProviderText.nonEmpty(signed[CitconIPNField.id])
        outcome.amount = integer(signed[CitconIPNField.amount])
        outcome.capturedAmount = integer(signed[CitconIPNField.amountCaptured])
        outcome.refundedAmount = integer(signed[CitconIPNField.amountRefunded])
        return NotificationEvent(
            subject: subject,
            reference: ProviderText.nonEmpty(signed[CitconIPNField.reference]),
            providerPaymentId: outcome.providerPaymentId,
            outcome: outcome
        )
    }

    /// An integer field (minor units), or `nil` when absent or not an integer.
    static func integer(_ value: String?) -> Int64? {
        value.flatMap { Int64($0.trimmingBlanks()) }
    }
}
