#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension SipsMapping {
    // MARK: Transaction status

    /// The class of a `transactionStatus`: `TO_VALIDATE` → authorized; `TO_CAPTURE` (captured
    /// automatically), `CAPTURED` and `CREDITED` → succeeded; `CANCELLED` → canceled; `REFUSED` → declined;
    /// `PENDING` → pending; anything else → unknown.
    static func transactionStatusKind(_ status: String?) -> Outcome.Kind {
        switch status?.trimmingBlanks().uppercased() {
        case "TO_VALIDATE": return .authorized
        case "TO_CAPTURE", "CAPTURED", "CREDITED": return .succeeded
        case "CANCELLED": return .canceled
        case "REFUSED": return .declined
        case "PENDING": return .pending
        default: return .unknown
        }
    }

    /// What a found transaction (`getTransactionData` `00`) says, named by its `transactionReference`:
    ///
    /// - `TO_VALIDATE` → authorized for `currentAmount`;
    /// - `TO_CAPTURE`/`CAPTURED` → succeeded, captured `originAmount`, refunded `originAmount − currentAmount`
    ///   when positive; `CREDITED` → succeeded, refunded `originAmount`;
    /// - `CANCELLED` → canceled; `REFUSED` → declined with the acquirer's code; `PENDING` → pending;
    /// - another status → unknown (`unrecognised_status`).
    static func transactionOutcome(_ response: SipsTransactionDataResponse, reference: String) -> Outcome {
        let status = ProviderText.safeCode(response.transactionStatus)
        let kind = transactionStatusKind(status)
        var outcome = Outcome(
            kind: kind, providerPaymentId: reference, providerStatus: status, amount: response.originAmount)
        switch kind {
        case .authorized:
            outcome.amount = response.currentAmount ?? response.originAmount
        case .succeeded:
            outcome.capturedAmount = response.originAmount
            if status == "CREDITED" {
                outcome.refundedAmount = response.originAmount
            } else if let origin = response.originAmount, let current = response.currentAmount, origin > current,
                case (let refunded, false) = origin.subtractingReportingOverflow(current)
            {
                outcome.refundedAmount = refunded
            }
        case .declined:
            let acquirer = ProviderText.safeCode(response.acquirerResponseCode).flatMap { $0 == "00" ? nil : $0 }
            let order = ProviderText.safeCode(response.responseCode).flatMap { $0 == "00" ? nil : $0 }
            let code = acquirer ?? order ?? "REFUSED"
            outcome.explain(
                code: code, message: "Worldline Sips reports the payment refused (\(code))",
                retryable: code == authenticationRequiredCode)
        case .canceled:
            outcome.explain(code: "payment_cancelled", message: "Worldline Sips reports the payment cancelled")
        case .unknown:
            outcome.explain(
                code: "unrecognised_status", message: "Worldline Sips' transaction status is not recognised")
        default:
            break
        }
        return outcome
    }

    /// The outcome of a `getTransactionData` used as a sync: a found transaction by its status, `25` → pending
    /// (`transaction_not_found`: the app has not ordered yet), anything else by the code table.
    static func syncOutcome(_ exchange: ExchangeResult<SipsTransactionDataResponse>, reference: String) -> Outcome {
        switch exchange {
        case .outcome(let outcome):
            return outcome.naming(reference)
        case .success(let response):
            if ProviderText.safeCode(response.responseCode) == "25" {
                return Outcome(
                    kind: .pending, providerPaymentId: reference, providerStatus: "25", code: "transaction_not_found",
                    message: "Worldline Sips has no such transaction yet")
            }
            switch classify(
                code: response.responseCode, acquirer: response.acquirerResponseCode,
                errorField: response.errorFieldName, service: .getTransactionData)
            {
            case .accepted: return transactionOutcome(response, reference: reference)
            case .duplicate: return duplicateOutcome(.getTransactionData).naming(reference)
            case .outcome(let outcome): return outcome.naming(reference)
            }
        }
    }

    /// The outcome of the inquiry made after an order initialisation answered `94`: the transaction's state;
    /// unknown (`duplicate_transaction`) when Sips has no such transaction or the inquiry was not made (a
    /// transaction under this reference may exist, so the attempt must never fail over).
    static func duplicateInquiryOutcome(_ exchange: ExchangeResult<SipsTransactionDataResponse>, reference: String)
        -> Outcome
    {
        let duplicate = Outcome(
            kind: .unknown, providerPaymentId: reference, providerStatus: "94", code: "duplicate_transaction",
            message: "Worldline Sips reports the reference already used; the outcome is not known")
        if case .success(let response) = exchange, ProviderText.safeCode(response.responseCode) == "25" {
            return duplicate
        }
        let outcome = syncOutcome(exchange, reference: reference)
        return outcome.kind == .notSent ? duplicate : outcome
    }

    // MARK: Initialisations

    /// The pending outcome of an accepted In-App initialisation: what the InAppSdk needs (`redirectionData`,
    /// `redirectionUrl`, `redirectionVersion`, `publicKeyValue`) plus `extra`, until `expiresAt`. Unknown
    /// (`unparsable_response`) when the redirection data or URL is missing.
    static func initializeOutcome(
        _ response: SipsInitializeResponse, actionType: String, extra: [String: JSONValue], expiresAt: Date,
        providerPaymentId: String?
    ) -> Outcome {
        guard let redirectionData = response.redirectionData, !redirectionData.isEmpty,
            let redirectionUrl = response.redirectionUrl, !redirectionUrl.isEmpty
        else {
            return Outcome.unknown(
                code: "unparsable_response", message: "Worldline Sips returned no redirection data",
                providerPaymentId: providerPaymentId)
        }
        var data = extra
        data["redirectionData"] = .string(redirectionData)
        data["redirectionUrl"] = .string(redirectionUrl)
        data["redirectionVersion"] = response.redirectionVersion.map(JSONValue.string)
        data["publicKeyValue"] = response.publicKeyValue.map(JSONValue.string)
        return Outcome(
            kind: .pending, providerPaymentId: providerPaymentId, providerStatus: "INITIALIZED",
            nextAction: NextAction(type: actionType, data: data, expiresAt: expiresAt))
    }

    // MARK: Cash management

    /// The outcome of a cash management call: `success` for `00`, unknown (`duplicate_transaction`) for `94`,
    /// the code table otherwise; always named by the transaction reference.
    static func cashOutcome(
        _ exchange: ExchangeResult<SipsCashManagementResponse>, service: SipsService, reference: String,
        success: (SipsCashManagementResponse) -> Outcome
    ) -> Outcome {
        switch exchange {
        case .outcome(let outcome):
            return outcome.naming(reference)
        case .success(let response):
            switch classify(
                code: response.responseCode, acquirer: response.acquirerResponseCode,
                errorField: response.errorFieldName, service: service)
            {
            case .accepted: return success(response)
            case .duplicate: return duplicateOutcome(service).naming(reference)
            case .outcome(let outcome): return outcome.naming(reference)
            }
        }
    }

    /// A validated (captured) transaction.
    static func captureOutcome(_ response: SipsCashManagementResponse, amount: Int64, reference: String) -> Outcome {
        Outcome(
            kind: .succeeded, providerPaymentId: reference,
            providerStatus: ProviderText.safeCode(response.newStatus) ?? "00",
            amount: amount, capturedAmount: amount)
    }

    /// A cancelled transaction.
    static func cancelOutcome(_ response: SipsCashManagementResponse, amount: Int64, reference: String) -> Outcome {
        Outcome(
            kind: .canceled, providerPaymentId: reference,
            providerStatus: ProviderText.safeCode(response.newStatus) ?? "CANCELLED",
            amount: amount)
    }

    /// A refunded amount (Sips has no refund id: the refund is named by the transaction reference).
    static func refundOutcome(_ response: SipsCashManagementResponse, amount: Int64, reference: String) -> Outcome {
        Outcome(
            kind: .succeeded, providerPaymentId: reference,
            providerStatus: ProviderText.safeCode(response.newStatus) ?? "00",
            amount: amount, refundedAmount: amount)
    }
}
