import Foundation

extension WorldlineSipsState {
    /// `diagnostic/getTransactionData`.
    func getTransactionData(merchantId: String, fields: SipsFields) throws(SipsFailure) -> SipsAnswer {
        let reference = try fields.transactionReference()
        guard let transaction = transactions[Self.key(merchantId, reference)] else { throw SipsFailure("25") }
        var body = SipsObject()
        body.set("responseCode", "00")
        body.set("transactionReference", transaction.transactionReference)
        body.set("transactionStatus", transaction.status.rawValue)
        body.set("acquirerResponseCode", transaction.acquirerResponseCode)
        body.set("authorisationId", transaction.authorisationId)
        body.set("originAmount", transaction.originAmount)
        body.set("currentAmount", transaction.currentAmount)
        body.set("currencyCode", transaction.currencyCode)
        body.set("captureMode", transaction.captureMode)
        body.set("captureLimitDate", Self.captureLimitDate(transaction))
        body.set("transactionDateTime", SipsTime.dateTime(transaction.transactionDateTime))
        body.set("lastOperationName", transaction.lastOperationName)
        body.set("lastOperationDateTime", SipsTime.dateTime(transaction.lastOperationDateTime))
        body.set("paymentMeanBrand", transaction.paymentMeanBrand)
        body.set("paymentMeanType", "CARD")
        body.set("maskedPan", transaction.maskedPan)
        body.set("panExpiryDate", transaction.panExpiryDate)
        body.set("orderChannel", transaction.orderChannel)
        body.set("holderAuthentStatus", transaction.holderAuthentStatus)
        body.set("returnContext", transaction.returnContext)
        body.set("customerId", transaction.customerId)
        body.set("orderId", transaction.orderId)
        body.set("merchantWalletId", transaction.merchantWalletId)
        return SipsAnswer(body)
    }

    /// `cashManagement/validate`: captures `operationAmount` (at most `currentAmount`) of a `TO_VALIDATE`
    /// transaction; the rest is released.
    func validate(merchantId: String, fields: SipsFields) throws(SipsFailure) -> SipsAnswer {
        try operate(merchantId: merchantId, fields: fields, name: "VALIDATE", allowed: [.toValidate]) { tx, amount in
            tx.status = .captured
            tx.currentAmount = amount
            tx.capturedAmount = amount
            return "capture"
        }
    }

    /// `cashManagement/cancel`: reduces an uncaptured transaction by `operationAmount`; `CANCELLED` when
    /// nothing is left.
    func cancel(merchantId: String, fields: SipsFields) throws(SipsFailure) -> SipsAnswer {
        try operate(
            merchantId: merchantId, fields: fields, name: "CANCEL", allowed: [.toValidate, .toCapture, .pending]
        ) { tx, amount in
            let wasPending = tx.status == .pending
            tx.currentAmount -= amount
            if tx.status == .toCapture { tx.capturedAmount -= amount }
            if tx.currentAmount == 0 { tx.status = .cancelled }
            // Nothing was authorised yet for a pending order, so no money moves.
            return wasPending ? nil : "void"
        }
    }

    /// `cashManagement/refund`: returns `operationAmount` of a captured transaction; `CREDITED` when
    /// nothing is left.
    func refund(merchantId: String, fields: SipsFields) throws(SipsFailure) -> SipsAnswer {
        try operate(merchantId: merchantId, fields: fields, name: "REFUND", allowed: [.captured, .toCapture]) {
            tx, amount in
            tx.currentAmount -= amount
            tx.refundedAmount += amount
            if tx.currentAmount == 0 { tx.status = .credited }
            return "refund"
        }
    }

    /// The checks every cash-management call makes (`25` unknown transaction, `24` wrong status,
    /// `30` operationAmount above currentAmount or currency mismatch), then `change`, which returns the
    /// ledger kind of the money it moved (nil when none moved).
    private func operate(
        merchantId: String, fields: SipsFields, name: String, allowed: Set<WorldlineSipsTransactionStatus>,
        _ change: (inout WorldlineSipsTransaction, Int64) -> String?
    ) throws(SipsFailure) -> SipsAnswer {
        let reference = try fields.transactionReference()
        let amount = try fields.amount("operationAmount")
        let currencyCode = try fields.currencyCode()
        _ = try fields.optionalString("operationOrigin")
        let key = Self.key(merchantId, reference)
        guard var transaction = transactions[key] else { throw SipsFailure("25") }
        guard allowed.contains(transaction.status) else { throw SipsFailure("24") }
        guard currencyCode == transaction.currencyCode else { throw .format("currencyCode") }
        guard amount <= transaction.currentAmount else { throw .format("operationAmount") }
        let kind = change(&transaction, amount)
        transaction.lastOperationName = name
        transaction.lastOperationDateTime = now
        transactions[key] = transaction
        if let kind { record(kind, transaction, amount: amount) }
        var body = SipsObject()
        body.set("responseCode", "00")
        body.set("acquirerResponseCode", "00")
        body.set("authorisationId", transaction.authorisationId)
        body.set("newAmount", transaction.currentAmount)
        body.set("newStatus", transaction.status.rawValue)
        body.set("operationDateTime", SipsTime.dateTime(transaction.lastOperationDateTime))
        body.set("captureLimitDate", Self.captureLimitDate(transaction))
        return SipsAnswer(body)
    }

    /// The transaction's day plus its capture day.
    static func captureLimitDate(_ transaction: WorldlineSipsTransaction) -> String {
        SipsTime.day(transaction.transactionDateTime, plusDays: transaction.captureDay)
    }
}
