#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension WorldlineDirectMapping {
    /// The webhook type Worldline sends when a payment is charged back (named by Worldline's own commerce
    /// plugins; its body is the usual envelope with the payment, which Worldline does not document further).
    static let chargebackedType = "payment.chargebacked"

    /// The dispute a `payment.chargebacked` webhook opens: a chargeback named by the payment's id (Worldline
    /// has no dispute id or dispute API; the merchant answers by letter), for the payment's amount. Nil for
    /// any other webhook, or one without the payment's id.
    static func chargeback(_ event: WorldlineWebhookEvent) -> DisputeEvent? {
        guard event.type == chargebackedType, let payment = event.payment,
            let id = ProviderText.nonEmpty(payment.id)
        else { return nil }
        let money = payment.paymentOutput?.acquiredAmount ?? payment.paymentOutput?.amountOfMoney
        return DisputeEvent(
            kind: .opened, providerDisputeId: id,
            reference: ProviderText.nonEmpty(payment.paymentOutput?.references?.merchantReference),
            providerPaymentId: id, stage: .chargeback,
            providerStatus: ProviderText.nonEmpty(payment.status) ?? chargebackedType,
            amount: money?.amount.flatMap { $0 >= 0 ? $0 : nil }, currency: money?.currencyCode?.uppercased())
    }
}
