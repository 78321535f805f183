#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension AntomMapping {
    /// The acknowledgement of a `notifyDispute`, as Antom's dispute reference gives it.
    static let disputeAcknowledgement =
        #"{"result":{"resultCode":"SUCCESS","resultStatus":"S","resultMessage":"Success"}}"#
    /// The largest defence document Antom takes, in Base64 characters.
    static let maximumEvidenceCharacters = 1_000_000

    /// The dispute event of a verified `notifyDispute`; nil when it names no dispute or its type is not one
    /// Antom documents.
    static func disputeEvent(_ n: AntomDisputeNotification) -> DisputeEvent? {
        guard let disputeId = ProviderText.nonEmpty(n.disputeId),
            let type = ProviderText.nonEmpty(n.disputeNotificationType)?.uppercased()
        else { return nil }
        let kind: DisputeEvent.Kind
        var stage: DisputeEvent.Stage?
        switch type {
        case "DISPUTE_CREATED":
            kind = .opened
            stage = disputeStage(n.disputeType)
        case "DEFENSE_SUPPLIED", "DISPUTE_SUPPLIED": kind = .evidenceSubmitted
        case "DEFENSE_DUE_ALERT", "DISPUTE_DUE_ALERT": kind = .evidenceRequested
        case "DISPUTE_CANCELLED": kind = .withdrawn
        // A rapid dispute resolution credits the cardholder before a chargeback: as if the merchant accepted.
        case "DISPUTE_ACCEPTED", "RDR_RESOLVED": kind = .accepted
        case "DISPUTE_JUDGED":
            switch ProviderText.nonEmpty(n.disputeJudgedResult)?.uppercased() {
            // The cardholder accepted (withdrew), or the compliance evidence was accepted: the merchant keeps the funds.
            case "ACCEPT_BY_CUSTOMER", "VALIDATE_SUCCESS": kind = .won
            case "ACCEPT_BY_MERCHANT", "VALIDATE_FAIL": kind = .lost
            default: kind = .closed
            }
        default:
            return nil
        }
        return DisputeEvent(
            kind: kind, providerDisputeId: disputeId, reference: ProviderText.nonEmpty(n.paymentRequestId),
            providerPaymentId: ProviderText.nonEmpty(n.paymentId), stage: stage, providerStatus: type,
            amount: n.disputeAmount.flatMap { minorUnits($0.value) },
            currency: ProviderText.nonEmpty(n.disputeAmount?.currency)?.uppercased(),
            reasonCode: ProviderText.safeCode(n.disputeReasonCode),
            reason: n.disputeReasonCode.flatMap(reasonCategory),
            evidenceDueBy: n.defenseDueTime.flatMap(ProviderTime.iso8601))
    }

    /// `CHARGEBACK` is a chargeback; a retrieval or compliance request an inquiry.
    static func disputeStage(_ type: String?) -> DisputeEvent.Stage {
        switch ProviderText.nonEmpty(type)?.uppercased() {
        case "RETRIEVAL_REQUEST", "COMPLIANCE_REQUEST": .inquiry
        default: .chargeback
        }
    }

    /// An amount in minor units from Antom's string `value`; nil unless it is a non-negative integer.
    static func minorUnits(_ value: String?) -> Int64? {
        guard let text = ProviderText.nonEmpty(value), let amount = Int64(text), amount >= 0 else { return nil }
        return amount
    }

    /// The category of a Visa (`10.4`, `13.1`) or Mastercard (`4837`) reason code; nil for one not listed.
    static func reasonCategory(_ code: String) -> String? {
        let code = code.trimmingBlanks()
        if code.hasPrefix("10.") { return "fraudulent" }
        switch code {
        case "4837", "4840", "4849", "4863", "4870", "4871": return "fraudulent"
        case "13.1", "4855": return "product_not_received"
        case "13.3", "13.4", "13.5", "4853": return "product_unacceptable"
        case "13.2", "4841": return "subscription_canceled"
        case "13.6", "13.7", "4860": return "credit_not_processed"
        case "12.6.1", "12.6.2", "4834": return "duplicate"
        default: return code.hasPrefix("11.") || code.hasPrefix("12.") ? "general" : nil
        }
    }

    /// What an `acceptDispute` or `supplyDefenseDocument` exchange means for the merchant's answer: taken on
    /// `S` (and on `REPEAT_REQUEST`: an answer Antom already has), refused on another `F`, unknown otherwise.
    static func disputeReply(_ exchange: ExchangeResult<AntomDisputeResponse>) -> DisputeAnswerReply {
        switch exchange {
        case .success:
            return DisputeAnswerReply(status: .accepted)
        case .outcome(let outcome) where outcome.kind == .declined:
            let code = outcome.code ?? "PROCESS_FAIL"
            if code == "REPEAT_REQUEST" {
                return DisputeAnswerReply(status: .accepted, code: code, message: "Antom had the answer already")
            }
            return DisputeAnswerReply(status: .refused, code: code, message: outcome.message)
        case .outcome(let outcome):
            return DisputeAnswerReply(status: .unknown, code: outcome.code, message: outcome.message)
        }
    }
}
