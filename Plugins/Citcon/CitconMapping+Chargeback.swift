#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension CitconMapping {
    /// Citcon's chargeback statuses (its IPN reference, spelled exactly so) and what each means.
    static let chargebackStatuses: [String: (kind: DisputeEvent.Kind, stage: DisputeEvent.Stage?)] = [
        "Notification of Claim": (.opened, .chargeback),
        "Request For Information": (.evidenceRequested, .inquiry),
        "Information Supplied": (.evidenceSubmitted, nil),
        "Lost": (.lost, nil),
        "Won": (.won, nil),
        "Case Closed": (.closed, nil),
    ]

    /// Whether a verified IPN is about a chargeback (`transaction_type` `chargeback`, signed).
    static func isChargeback(_ signed: [String: String]) -> Bool {
        ProviderText.nonEmpty(signed[CitconIPNField.transactionType])?.lowercased() == "chargeback"
    }

    /// The dispute event of a verified chargeback IPN, from the signed fields only; nil when its status is
    /// not one Citcon documents or its id is not signed. The dispute is named by `chargeback_id` when
    /// Citcon sends one, else by `id`; the payment by `reference` (our attempt) and, when a separate
    /// chargeback id names the dispute, `id`.
    static func chargebackEvent(signed: [String: String]) -> DisputeEvent? {
        guard let status = ProviderText.nonEmpty(signed[CitconIPNField.status]),
            let meaning = chargebackStatuses[status],
            let id = ProviderText.nonEmpty(signed[CitconIPNField.id])
        else { return nil }
        let chargebackId = ProviderText.nonEmpty(signed[CitconIPNField.chargebackId])
        return DisputeEvent(
            kind: meaning.kind, providerDisputeId: chargebackId ?? id,
            reference: ProviderText.nonEmpty(signed[CitconIPNField.reference]),
            providerPaymentId: chargebackId == nil ? nil : id, stage: meaning.stage, providerStatus: status,
            amount: integer(signed[CitconIPNField.amount]),
            currency: ProviderText.nonEmpty(signed[CitconIPNField.currency])?.uppercased(),
            evidenceDueBy: ProviderText.nonEmpty(signed[CitconIPNField.dueDate]).flatMap(time))
    }

    /// A Citcon time: `yyyy-MM-dd HH:mm:ss` (UTC) as its reference describes, ISO 8601 as its example shows,
    /// or seconds since 1970; nil otherwise.
    static func time(_ text: String) -> Date? {
        if let seconds = Int64(text), seconds > 0, seconds < 253_402_300_800 {
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        return ProviderTime.iso8601(text) ?? ProviderTime.utcDateTime(text)
    }
}
