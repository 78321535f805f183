import Foundation

/// A validated `refund` or `capture` request.
struct AntomOperationInput: Sendable {
    /// `refundRequestId` or `captureRequestId`.
    var requestId: String
    var paymentId: String
    var amount: Int64
    var currency: String
    /// `isLastCapture` (captures only).
    var isLast: Bool = false
    /// `refundNotifyUrl` (refunds only).
    var notifyURL: String?
}

extension AntomState {
    /// `refund`: settled at once, up to what was captured and not yet refunded.
    func refund(clientId: String, input: AntomOperationInput, canonical: String) -> AntomReply {
        idempotent(
            scope: "refund", clientId: clientId, requestId: input.requestId, endpoint: "refund", canonical: canonical
        ) {
            let failure = { (result: AntomResult) in
                AntomReply(
                    AntomRefundResponse(result: result, refundRequestId: input.requestId, paymentId: input.paymentId))
            }
            guard var payment = payment(clientId: clientId, paymentId: input.paymentId, paymentRequestId: nil) else {
                return failure(.orderNotExist)
            }
            guard payment.status == .success || (payment.status == .pending && payment.capturedAmount > 0) else {
                return failure(.statusInvalid("only a paid payment can be refunded"))
            }
            guard input.currency == payment.currency else {
                return failure(.paramIllegal("refundAmount.currency differs from the payment's currency"))
            }
            guard input.amount <= payment.capturedAmount - payment.refundedAmount else {
                return failure(.refundAmountExceed)
            }
            let transaction = AntomTransaction(
                type: "REFUND", status: "SUCCESS", requestId: input.requestId, id: makeID("1950"), amount: input.amount,
                currency: payment.currency, time: now)
            payment.refundedAmount += input.amount
            payment.transactions.append(transaction)
            payments[payment.paymentId] = payment
            refunds[transaction.id] = Refund(paymentId: payment.paymentId, clientId: clientId, transaction: transaction)
            refundIdsByRequest[Self.key(clientId, input.requestId)] = transaction.id
            record("refund", payment, operationId: transaction.id, amount: input.amount)
            return AntomReply(
                AntomRefundResponse(
                    result: .success, refundRequestId: input.requestId, refundId: transaction.id,
                    paymentId: payment.paymentId, refundAmount: AntomMoney(input.amount, payment.currency),
                    refundTime: AntomTime.format(transaction.time)),
                events: [.refund(payment, transaction, url: input.notifyURL ?? payment.notifyURL)])
        }
    }

    /// `inquiryRefund` by `refundId` (preferred) or `refundRequestId`.
    func inquiryRefund(clientId: String, refundId: String?, refundRequestId: String?) -> AntomReply {
        let id = refundId ?? refundRequestId.flatMap { refundIdsByRequest[Self.key(clientId, $0)] }
        guard let id, let refund = refunds[id], refund.clientId == clientId else {
            return AntomReply(result: .orderNotExist)
        }
        let transaction = refund.transaction
        return AntomReply(
            AntomRefundInquiryResponse(
                result: .success, refundStatus: transaction.status, refundId: transaction.id,
                refundRequestId: transaction.requestId ?? "",
                refundAmount: AntomMoney(transaction.amount, transaction.currency),
                refundTime: AntomTime.format(transaction.time)))
    }

    /// `capture` of a MANUAL card authorisation (PENDING); the last or the full capture makes it SUCCESS,
    /// and a last partial capture releases the rest.
    func capture(clientId: String, input: AntomOperationInput, canonical: String) -> AntomReply {
        idempotent(
            scope: "capture", clientId: clientId, requestId: input.requestId, endpoint: "capture", canonical: canonical
        ) {
            let failure = { (result: AntomResult) in
                AntomReply(
                    AntomCaptureResponse(result: result, captureRequestId: input.requestId, paymentId: input.paymentId))
            }
            guard var payment = payment(clientId: clientId, paymentId: input.paymentId, paymentRequestId: nil) else {
                return failure(.orderNotExist)
            }
            guard payment.status == .pending else {
                return failure(.statusInvalid("only an authorised, uncaptured payment can be captured"))
            }
            guard input.currency == payment.currency else {
                return failure(.paramIllegal("captureAmount.currency differs from the payment's currency"))
            }
            guard input.amount <= payment.amount - payment.capturedAmount else {
                return failure(.captureAmountExceed)
            }
            let transaction = AntomTransaction(
                type: "CAPTURE", status: "SUCCESS", requestId: input.requestId, id: makeID("1960"),
                amount: input.amount, currency: payment.currency, time: now)
            payment.capturedAmount += input.amount
            payment.transactions.append(transaction)
            record("capture", payment, operationId: transaction.id, amount: input.amount)
            if input.isLast || payment.capturedAmount == payment.amount {
                let released = payment.amount - payment.capturedAmount
                if released > 0 { record("void", payment, amount: released) }
                payment.status = .success
            }
            payments[payment.paymentId] = payment
            return AntomReply(
                AntomCaptureResponse(
                    result: .success, captureRequestId: input.requestId, captureId: transaction.id,
                    paymentId: payment.paymentId, captureAmount: AntomMoney(input.amount, payment.currency),
                    captureTime: AntomTime.format(transaction.time)),
                events: [.capture(payment, transaction)])
        }
    }
}
