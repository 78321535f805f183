#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension WorldlineSipsProvider {
    /// `diagnostic/getTransactionData` by the attempt's transaction reference, mapped by `transactionStatus`
    /// (`TO_VALIDATE` → authorized, `TO_CAPTURE`/`CAPTURED`/`CREDITED` → succeeded with amounts, `CANCELLED` →
    /// canceled, `REFUSED` → declined, `PENDING` → pending); `25` → pending (`transaction_not_found`).
    public func sync(_ request: SyncRequest, account: AccountContext) async throws -> Outcome {
        let keys = try keys(of: account)
        let reference = try SipsMapping.transactionReference(request.payment)
        let inquiry = try await transactionData(reference, keys: keys, account: account)
        return SipsMapping.syncOutcome(inquiry, reference: reference)
    }

    /// The app says it finished the order; what it reports is never trusted: the outcome is a `sync`.
    public func complete(_ request: CompleteRequest, account: AccountContext) async throws -> Outcome {
        try await sync(SyncRequest(payment: request.payment), account: account)
    }

    /// `cashManagement/validate` for the capture's amount: succeeded with the captured amount.
    ///
    /// - Throws: `bad_request` (nothing sent) for an unsupported currency.
    public func capture(_ request: CaptureRequest, account: AccountContext) async throws -> Outcome {
        try await moveCash(
            .validate, payment: request.payment, amount: request.amount, currency: request.currency,
            account: account, success: SipsMapping.captureOutcome)
    }

    /// `cashManagement/cancel` of everything that remains. The remaining amount and currency come from a
    /// `getTransactionData` first (a void request names no amount); a transaction already `CANCELLED` is
    /// reported canceled without a second call.
    public func void(_ request: VoidRequest, account: AccountContext) async throws -> Outcome {
        let keys = try keys(of: account)
        let reference = try SipsMapping.transactionReference(request.payment)
        let transaction: SipsTransactionDataResponse
        switch try await transactionData(reference, keys: keys, account: account) {
        case .outcome(let outcome):
            return outcome.naming(reference)
        case .success(let response):
            let verdict = SipsMapping.classify(
                code: response.responseCode, acquirer: response.acquirerResponseCode,
                errorField: response.errorFieldName, service: .getTransactionData)
            switch verdict {
            case .accepted: transaction = response
            case .duplicate: return SipsMapping.duplicateOutcome(.getTransactionData).naming(reference)
            case .outcome(let outcome): return outcome.naming(reference)
            }
        }
        if SipsMapping.transactionStatusKind(transaction.transactionStatus) == .canceled {
            return Outcome(kind: .canceled, providerPaymentId: reference, providerStatus: "CANCELLED")
        }
        guard let remaining = transaction.currentAmount, let currency = ProviderText.safeCode(transaction.currencyCode)
        else {
            return Outcome.unknown(
                code: "unparsable_response", message: "Worldline Sips did not say what remains to cancel",
                providerPaymentId: reference)
        }
        return try await cashOperation(
            .cancel, reference: reference, amount: remaining, currencyCode: currency, keys: keys, account: account,
            success: SipsMapping.cancelOutcome)
    }

    /// `cashManagement/refund` of the refund's amount: succeeded, named by the transaction reference (Sips has
    /// no refund id).
    ///
    /// - Throws: `bad_request` (nothing sent) for an unsupported currency.
    public func refund(_ request: RefundRequest, account: AccountContext) async throws -> Outcome {
        try await moveCash(
            .refund, payment: request.payment, amount: request.amount, currency: request.currency,
            account: account, success: SipsMapping.refundOutcome)
    }

    /// A capture or refund of `amount` (`validate`, `refund`) on the payment's transaction.
    ///
    /// - Throws: `bad_request` (nothing sent) for an unsupported currency or an unusable reference.
    func moveCash(
        _ service: SipsService, payment: PaymentLocator, amount: Int64, currency: String, account: AccountContext,
        success: (SipsCashManagementResponse, Int64, String) -> Outcome
    ) async throws -> Outcome {
        let keys = try keys(of: account)
        let reference = try SipsMapping.transactionReference(payment)
        return try await cashOperation(
            service, reference: reference, amount: amount, currencyCode: try SipsMapping.currencyCode(currency),
            keys: keys, account: account, success: success)
    }

    /// One cash management call for `amount`, mapped by `success` (given the answer, the amount and the
    /// reference) when Sips accepts it.
    func cashOperation(
        _ service: SipsService, reference: String, amount: Int64, currencyCode: String, keys: SipsAccountKeys,
        account: AccountContext, success: (SipsCashManagementResponse, Int64, String) -> Outcome
    ) async throws -> Outcome {
        let body = SipsMapping.cashManagementRequest(
            reference: reference, amount: amount, currencyCode: currencyCode, keys: keys, account: account)
        let exchange = try await exchange(
            service, body: body, keys: keys, account: account, as: SipsCashManagementResponse.self)
        return SipsMapping.cashOutcome(exchange, service: service, reference: reference) {
            success($0, amount, reference)
        }
    }
}
