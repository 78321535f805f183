import Foundation

/// A validated `pay` request.
struct AntomPayInput: Sendable {
    var paymentRequestId: String
    var amount: Int64
    var currency: String
    var productCode: String
    var paymentMethodType: String
    /// The EasySafePay access token or the vaulted card token.
    var paymentMethodId: String
    /// `AUTOMATIC` or `MANUAL` for card payments, nil for wallets.
    var captureMode: String?
    var notifyURL: String?
}

extension AntomState {
    /// `pay` with an access token (wallet) or a card token: decided at once by the credential and the amount.
    func pay(clientId: String, input: AntomPayInput, canonical: String) -> AntomReply {
        idempotent(
            scope: "payment", clientId: clientId, requestId: input.paymentRequestId, endpoint: "pay",
            canonical: canonical
        ) {
            var payment = AntomPayment(
                paymentId: makeID("1940"), paymentRequestId: input.paymentRequestId, clientId: clientId,
                productCode: input.productCode, paymentMethodType: input.paymentMethodType, amount: input.amount,
                currency: input.currency, status: .processing, resultCode: AntomResult.inProcess.resultCode,
                resultMessage: AntomResult.inProcess.resultMessage, captureMode: input.captureMode, capturedAmount: 0,
                refundedAmount: 0, createdAt: now, paymentTime: nil, cancelTime: nil, notifyURL: input.notifyURL,
                paymentSessionId: nil, transactions: [])
            if let refusal = credentialRefusal(clientId: clientId, input: input) {
                fail(&payment, refusal)
            } else {
                decide(&payment, approved: true)
            }
            payments[payment.paymentId] = payment
            paymentIdsByRequest[Self.key(clientId, input.paymentRequestId)] = payment.paymentId
            let events: [AntomEvent] = payment.status == .processing ? [] : [.payment(payment)]
            return AntomReply(Self.payResponse(payment), events: events)
        }
    }

    /// Ends a PROCESSING payment (one whose user already answered): decided as approved, or `F RISK_REJECT`.
    func resolve(paymentId: String, approved: Bool) throws(AntomSandboxError) -> (AntomPayment, [AntomEvent]) {
        closeExpiredSessions()
        guard var payment = payments[paymentId] else { throw .paymentNotFound }
        guard payment.status == .processing else { throw .paymentNotProcessing }
        if let sessionId = payment.paymentSessionId, sessions[sessionId]?.completed != true {
            throw AntomSandboxError(
                code: "PAYMENT_NOT_PROCESSING", message: "the payment still waits for its session", httpStatus: 409)
        }
        if approved {
            decide(&payment, approved: true, allowProcessing: false)
        } else {
            fail(&payment, .riskReject)
        }
        payments[paymentId] = payment
        return (payment, [.payment(payment)])
    }

    /// `inquiryPayment`.
    func inquiry(clientId: String, paymentId: String?, paymentRequestId: String?) -> AntomReply {
        guard let payment = payment(clientId: clientId, paymentId: paymentId, paymentRequestId: paymentRequestId) else {
            return AntomReply(result: .orderNotExist)
        }
        let transactions = payment.transactions.map { transaction in
            AntomTransactionWire(
                transactionResult: .success, transactionType: transaction.type, transactionStatus: transaction.status,
                transactionRequestId: transaction.requestId, transactionId: transaction.id,
                transactionAmount: AntomMoney(transaction.amount, transaction.currency),
                transactionTime: AntomTime.format(transaction.time))
        }
        return AntomReply(
            AntomInquiryResponse(
                result: .success, paymentStatus: payment.status.rawValue, paymentResultCode: payment.resultCode,
                paymentResultMessage: payment.resultMessage, paymentId: payment.paymentId,
                paymentRequestId: payment.paymentRequestId, paymentAmount: AntomMoney(payment.amount, payment.currency),
                paymentMethodType: payment.paymentMethodType, paymentCreateTime: AntomTime.format(payment.createdAt),
                paymentTime: payment.paymentTime.map(AntomTime.format),
                transactions: transactions.isEmpty ? nil : transactions))
    }

    /// `cancel`: closes a PROCESSING payment, releases an authorisation, or returns the money of a payment
    /// that succeeded less than ``AntomSandboxConfiguration/cancelWindow`` ago. Cancelling twice succeeds.
    func cancel(clientId: String, paymentId: String?, paymentRequestId: String?) -> AntomReply {
        guard var payment = payment(clientId: clientId, paymentId: paymentId, paymentRequestId: paymentRequestId) else {
            return AntomReply(result: .orderNotExist)
        }
        let current = now
        switch payment.status {
        case .cancelled:
            break
        case .fail:
            return AntomReply(result: .orderClosed)
        case .processing:
            payment.status = .cancelled
            if let sessionId = payment.paymentSessionId, sessions[sessionId]?.completed == false {
                sessions[sessionId]?.closed = true
            }
        case .pending:
            let released = payment.amount - payment.capturedAmount
            payment.status = payment.capturedAmount > 0 ? .success : .cancelled
            record("void", payment, amount: released)
        case .success:
            guard let paid = payment.paymentTime, current.timeIntervalSince(paid) <= configuration.cancelWindow else {
                return AntomReply(result: .cancelWindowExceed)
            }
            let returned = payment.capturedAmount - payment.refundedAmount
            payment.status = .cancelled
            if returned > 0 { record("void", payment, amount: returned) }
        }
        if payment.cancelTime == nil {
            payment.cancelTime = current
            payment.transactions.append(
                AntomTransaction(
                    type: "CANCEL", status: "SUCCESS", requestId: nil, id: payment.paymentId, amount: payment.amount,
                    currency: payment.currency, time: current))
        }
        payments[payment.paymentId] = payment
        return AntomReply(
            AntomCancelResponse(
                result: .success, paymentId: payment.paymentId, paymentRequestId: payment.paymentRequestId,
                cancelTime: AntomTime.format(payment.cancelTime ?? current)))
    }

    // MARK: Decisions

    /// Applies the magic amounts: `…402` declined, `…408` left PROCESSING (unless `allowProcessing` is
    /// false), anything else paid (or authorised for a MANUAL card payment).
    func decide(_ payment: inout AntomPayment, approved: Bool, allowProcessing: Bool = true) {
        let suffix = payment.amount % 1000
        if !approved || suffix == AntomTestCard.declinedAmountSuffix {
            fail(&payment, approved ? .balanceNotEnough : .riskReject)
            return
        }
        if suffix == AntomTestCard.processingAmountSuffix && allowProcessing {
            payment.status = .processing
            payment.resultCode = AntomResult.inProcess.resultCode
            payment.resultMessage = "the wallet is processing the payment"
            return
        }
        payment.paymentTime = now
        payment.resultCode = AntomResult.success.resultCode
        payment.resultMessage = AntomResult.success.resultMessage
        if payment.captureMode == "MANUAL" {
            payment.status = .pending
            record("authorization", payment, amount: payment.amount)
        } else {
            payment.status = .success
            payment.capturedAmount = payment.amount
            record("charge", payment, amount: payment.amount)
        }
    }

    func fail(_ payment: inout AntomPayment, _ result: AntomResult) {
        payment.status = .fail
        payment.resultCode = result.resultCode
        payment.resultMessage = result.resultMessage
    }

    /// Why the credential of a `pay` cannot be used, or nil when it can.
    private func credentialRefusal(clientId: String, input: AntomPayInput) -> AntomResult? {
        if input.paymentMethodType == "CARD" {
            guard let card = cards[input.paymentMethodId], card.clientId == clientId else { return .invalidAccessToken }
            return card.failureCard ? .riskReject : nil
        }
        guard let token = tokens[input.paymentMethodId], token.clientId == clientId, token.status == .active,
            token.paymentMethodType == input.paymentMethodType
        else { return .invalidAccessToken }
        return nil
    }

    static func payResponse(_ payment: AntomPayment) -> AntomPayResponse {
        let result: AntomResult
        switch payment.status {
        case .success, .pending, .cancelled: result = .success
        case .processing: result = .inProcess
        case .fail: result = AntomResult("F", payment.resultCode, payment.resultMessage)
        }
        return AntomPayResponse(
            result: result, paymentId: payment.paymentId, paymentRequestId: payment.paymentRequestId,
            paymentAmount: AntomMoney(payment.amount, payment.currency),
            paymentCreateTime: AntomTime.format(payment.createdAt),
            paymentTime: payment.paymentTime.map(AntomTime.format))
    }
}
