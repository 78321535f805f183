import Foundation

extension WorldlineSipsState {
    /// How the cardholder was authenticated for an order.
    enum Authentication: Sendable {
        /// No 3-D Secure step (`cardOrder`, `walletOrder`).
        case none
        /// The ACS step ended with this answer.
        case acs(approved: Bool)

        var holderAuthentStatus: String {
            switch self {
            case .none: "NO_AUTHENT"
            case .acs(let approved): approved ? "SUCCESS" : "FAILURE"
            }
        }
    }

    // MARK: App functions

    /// `cardOrder`: the order of the context with the card in the request.
    func cardOrder(_ context: InitContext, fields: SipsFields) throws(SipsFailure) -> SipsAnswer {
        let card = try Self.card(fields)
        return order(context, card: card, authentication: .none)
    }

    /// `walletOrder`: the order of the context with a card of the init's wallet.
    func walletOrder(_ context: InitContext, fields: SipsFields) throws(SipsFailure) -> SipsAnswer {
        let stored = try storedCard(context, fields: fields)
        return order(context, card: stored.card, authentication: .none)
    }

    /// `cardCheckEnrollment` / `walletCheckEnrollment`: starts the ACS step of the context's order.
    func checkEnrollment(
        _ context: InitContext, function: SipsAppFunction, fields: SipsFields, baseURL: String
    ) throws(SipsFailure) -> SipsAnswer {
        let card: SipsCard
        var brand: String?
        if function == .walletCheckEnrollment {
            let stored = try storedCard(context, fields: fields)
            card = stored.card
            brand = stored.mean.paymentMeanBrand
        } else {
            card = try Self.card(fields)
        }
        let enrollment = Enrollment(
            transactionContextData: token(24), redirectionData: context.redirectionData, card: card,
            paReqMessage: token(24))
        enrollments[enrollment.transactionContextData] = enrollment
        enrollmentsByPaReq[enrollment.paReqMessage] = enrollment.transactionContextData
        var body = SipsObject()
        body.set("redirectionStatusCode", "00")
        body.set("authentRedirectionUrl", baseURL + "/sips/acs")
        body.set("paReqMessage", enrollment.paReqMessage)
        body.set("transactionContextData", enrollment.transactionContextData)
        body.set("transactionContextVersion", Self.transactionContextVersion)
        body.set("redirectionUrl", baseURL + "/sips/inapp")
        body.set("maskedPan", card.masked)
        body.set("paymentMeanBrand", brand)
        return SipsAnswer(body)
    }

    /// The ACS: records the cardholder's answer to a `paReqMessage` and returns the `paResMessage`.
    func authenticate(paReqMessage: String, approve: Bool) throws(WorldlineSipsSandboxError) -> String {
        guard let id = enrollmentsByPaReq[paReqMessage], enrollments[id] != nil else { throw .authenticationNotFound }
        let paRes = token(24)
        enrollments[id]?.results[paRes] = approve
        return paRes
    }

    /// `cardValidateAuthenticationAndOrder`: the order of the enrolment's context, decided with the ACS
    /// answer the `paResMessage` carries.
    func validateAuthenticationAndOrder(_ context: InitContext, fields: SipsFields) throws(SipsFailure) -> SipsAnswer {
        let data = try fields.string("transactionContextData")
        let raw = try fields.string("paResMessage")
        let paRes = raw.removingPercentEncoding ?? raw
        guard let enrollment = enrollments[data], let approved = enrollment.results[paRes] else {
            throw .format("paResMessage")
        }
        return order(context, card: enrollment.card, authentication: .acs(approved: approved))
    }

    // MARK: Orders

    /// Places the context's order: decides it, stores the transaction, writes the ledger and returns
    /// the OrderResponse with the transaction whose automatic response is due.
    private func order(_ context: InitContext, card: SipsCard, authentication: Authentication) -> SipsAnswer {
        inits[context.redirectionData]?.used = true
        let (code, acquirer) = Self.decide(
            amount: context.amount, card: card, authentication: authentication, month: SipsTime.month(now))
        let time = now
        var transaction = WorldlineSipsTransaction(
            merchantId: context.merchantId, transactionReference: context.transactionReference, status: .refused,
            captureMode: context.captureMode, captureDay: context.captureDay, originAmount: context.amount,
            currentAmount: 0, capturedAmount: 0, refundedAmount: 0, currencyCode: context.currencyCode,
            currency: WorldlineSipsCurrency.alphaByNumeric[context.currencyCode] ?? context.currencyCode,
            responseCode: code, acquirerResponseCode: acquirer, authorisationId: nil,
            paymentMeanBrand: card.brand, maskedPan: card.masked, panExpiryDate: card.expiry,
            holderAuthentStatus: authentication.holderAuthentStatus, orderChannel: context.orderChannel,
            returnContext: context.returnContext, customerId: context.customerId, orderId: context.orderId,
            merchantWalletId: context.merchantWalletId, automaticResponseUrl: context.automaticResponseUrl,
            transactionDateTime: time, lastOperationName: "ORDER", lastOperationDateTime: time)
        switch code {
        case "00": approve(&transaction, amount: context.amount)
        case "60":
            transaction.status = .pending
            transaction.currentAmount = context.amount
        default: break
        }
        transactions[Self.key(context.merchantId, context.transactionReference)] = transaction
        return SipsAnswer(Self.orderResponse(transaction), decided: [transaction])
    }

    /// Authorises (and for `AUTHOR_CAPTURE` captures) `amount` of a transaction, with its ledger entry.
    private func approve(_ transaction: inout WorldlineSipsTransaction, amount: Int64) {
        transaction.responseCode = "00"
        transaction.acquirerResponseCode = "00"
        transaction.authorisationId = String(format: "%06lld", nextSequence() % 1_000_000)
        transaction.currentAmount = amount
        if transaction.captureMode == "VALIDATION" {
            transaction.status = .toValidate
            record("authorization", transaction, amount: amount)
        } else {
            transaction.status = transaction.captureDay > 0 ? .toCapture : .captured
            transaction.capturedAmount = amount
            record("charge", transaction, amount: amount)
        }
    }

    /// Ends a PENDING transaction: authorised when `approved`, declined `05` otherwise.
    func resolve(merchantId: String, reference: String, approved: Bool) throws(WorldlineSipsSandboxError)
        -> WorldlineSipsTransaction
    {
        let key = Self.key(merchantId, reference)
        guard var transaction = transactions[key] else { throw .transactionNotFound }
        guard transaction.status == .pending else { throw .transactionNotPending }
        if approved {
            // A pending order may have been reduced by a partial cancel meanwhile.
            approve(&transaction, amount: transaction.currentAmount)
        } else {
            transaction.status = .refused
            transaction.currentAmount = 0
            transaction.responseCode = "05"
            transaction.acquirerResponseCode = "05"
        }
        transaction.lastOperationDateTime = now
        transactions[key] = transaction
        return transaction
    }

    /// The outcome of an order: response code and acquirer response code. Authentication failure first,
    /// then the test amounts, then the card.
    static func decide(amount: Int64, card: SipsCard, authentication: Authentication, month: String)
        -> (String, String?)
    {
        if case .acs(approved: false) = authentication { return ("05", "05") }
        switch amount % 1000 {
        case WorldlineSipsTestCard.declinedAmountSuffix: return ("05", "51")
        case WorldlineSipsTestCard.pendingAmountSuffix: return ("60", nil)
        default: break
        }
        if card.expiry < month { return ("54", "54") }
        if card.number == WorldlineSipsTestCard.declined { return ("05", "05") }
        if card.number == WorldlineSipsTestCard.enrolled, case .none = authentication { return ("05", "A1") }
        return ("00", "00")
    }

    /// The OrderResponse of the app for a transaction.
    static func orderResponse(_ transaction: WorldlineSipsTransaction) -> SipsObject {
        var body = SipsObject()
        body.set("inAppResponseCode", transaction.responseCode)
        body.set("responseCode", transaction.responseCode)
        body.set("acquirerResponseCode", transaction.acquirerResponseCode)
        body.set("amount", transaction.originAmount)
        body.set("currencyCode", transaction.currencyCode)
        body.set("authorisationId", transaction.authorisationId)
        body.set("captureDay", transaction.captureDay)
        body.set("captureMode", transaction.captureMode)
        body.set("cardExpiryDate", transaction.panExpiryDate)
        body.set("customerId", transaction.customerId)
        body.set("holderAuthentStatus", transaction.holderAuthentStatus)
        body.set("maskedPan", transaction.maskedPan)
        body.set("merchantId", transaction.merchantId)
        body.set("merchantWalletId", transaction.merchantWalletId)
        body.set("orderChannel", transaction.orderChannel)
        body.set("orderId", transaction.orderId)
        body.set("paymentMeanBrand", transaction.paymentMeanBrand)
        body.set("paymentMeanType", "CARD")
        body.set("returnContext", transaction.returnContext)
        body.set("transactionDateTime", SipsTime.dateTime(transaction.transactionDateTime))
        body.set("transactionReference", transaction.transactionReference)
        return body
    }

    // MARK: Card input

    /// The card of a request: `cardNumber` (`30` when missing, `14` when it is neither a test card nor
    /// a number passing the Luhn check) and `cardExpiryDate` (`yyyyMM`).
    static func card(_ fields: SipsFields) throws(SipsFailure) -> SipsCard {
        let number = try fields.string("cardNumber")
        guard WorldlineSipsTestCard.all.contains(number) || SandboxCard.isValidNumber(number) else {
            throw SipsFailure("14", field: "cardNumber")
        }
        return SipsCard(number: number, expiry: try fields.expiryDate("cardExpiryDate"))
    }

    /// The wallet card a request names by `paymentMeanId` (a numeric string or a JSON integer); `25`
    /// when the init's wallet or the card is unknown.
    func storedCard(_ context: InitContext, fields: SipsFields) throws(SipsFailure) -> StoredCard {
        let id = try Self.paymentMeanId(fields)
        guard let walletId = context.merchantWalletId,
            let stored = wallets[Self.key(context.merchantId, walletId)]?.cards.first(where: {
                $0.mean.paymentMeanId == id
            })
        else { throw SipsFailure("25", field: "paymentMeanId") }
        return stored
    }

    static func paymentMeanId(_ fields: SipsFields) throws(SipsFailure) -> String {
        if let number = try? fields.optionalInteger("paymentMeanId") { return String(number) }
        let text = try fields.string("paymentMeanId")
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .format("paymentMeanId") }
        return text
    }
}
