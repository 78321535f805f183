#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension __Name__Mapping {
    /// The event a verified notification reports: `payment.*` and `refund.*` types; nil for any other type
    /// (acknowledged, nothing to report).
    static func event(_ event: __Name__Event) -> NotificationEvent? {
        let object = event.data
        if event.type.hasPrefix("payment.") {
            let payment = __Name__Payment(id: object.id, status: object.status, amount: object.amount)
            return NotificationEvent(
                subject: .payment, reference: ProviderText.nonEmpty(object.reference), providerPaymentId: object.id,
                outcome: paymentOutcome(payment))
        }
        if event.type.hasPrefix("refund.") {
            let refund = __Name__Refund(id: object.id, status: object.status, amount: object.amount)
            return NotificationEvent(
                subject: .refund, reference: ProviderText.nonEmpty(object.reference), providerPaymentId: object.id,
                outcome: refundOutcome(refund))
        }
        return nil
    }
}
