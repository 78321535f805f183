import Foundation

/// What a state change announces by webhook.
enum WorldlineDirectEvent: Sendable {
    /// `payment.<status>` with the payment object.
    case payment(WorldlineDirectPayment)
    /// `refund.refunded` with the refund object.
    case refund(WorldlineDirectPayment, WorldlineDirectOperation)
    /// `payment.chargebacked` with the payment object.
    case chargeback(WorldlineDirectPayment)
}

/// A validated `POST /payments` request.
struct WorldlineDirectPaymentInput: Sendable {
    var amount: Int64
    var currency: String
    var authorizationMode: String
    var merchantReference: String?
    var card: WorldlineDirectCardInput
    var encrypted: Bool
    var returnURL: String?
    var webhookURL: String?
    /// Declined whatever the card (a `decline` fault drew this payment).
    var declined = false
}

extension WorldlineDirectState {
    /// Creates a payment and decides its first status from the test card (rejected whatever the card
    /// when a `decline` fault drew it).
    func createPayment(merchantId: String, input: WorldlineDirectPaymentInput) -> (
        WorldlineDirectPayment, WorldlineDirectEvent
    ) {
        let pan = input.card.cardNumber
        let status: WorldlineDirectPaymentStatus
        switch pan {
        case _ where input.declined, WorldlineDirectTestCard.declined: status = .rejected
        case WorldlineDirectTestCard.challenge: status = .redirected
        case WorldlineDirectTestCard.pending: status = .authorizationRequested
        default: status = Self.authorisedStatus(mode: input.authorizationMode)
        }
        var payment = WorldlineDirectPayment(
            id: makePaymentID(), merchantId: merchantId, status: status, amount: input.amount,
            currency: input.currency, authorizationMode: input.authorizationMode,
            merchantReference: input.merchantReference,
            maskedCardNumber: String(repeating: "*", count: max(0, pan.count - 4)) + pan.suffix(4),
            bin: String(pan.prefix(6)), expiryDate: input.card.expiryDate,
            paymentProductId: Self.productId(of: pan), encrypted: input.encrypted, amountCaptured: 0,
            amountRefunded: 0, returnURL: input.returnURL, webhookURL: input.webhookURL, operations: [],
            createdAt: now, updatedAt: now)
        applyAuthorisation(&payment)
        payments[payment.id] = payment
        return (payment, .payment(payment))
    }

    /// Ends a `REDIRECTED` or `AUTHORIZATION_REQUESTED` payment: authorised per its mode, or rejected.
    func resolve(id: String, approved: Bool) throws(WorldlineDirectSandboxError) -> (
        WorldlineDirectPayment, WorldlineDirectEvent
    ) {
        guard var payment = payments[id] else { throw .unknownPayment }
        guard payment.status == .redirected || payment.status == .authorizationRequested else {
            throw .invalidState("payment is not waiting for authentication or approval")
        }
        payment.status = approved ? Self.authorisedStatus(mode: payment.authorizationMode) : .rejected
        payment.updatedAt = now
        applyAuthorisation(&payment)
        payments[id] = payment
        return (payment, .payment(payment))
    }

    /// Captures `amount` (nil: all that is left) of a `PENDING_CAPTURE` payment.
    func capture(merchantId: String, id: String, amount: Int64?, isFinal: Bool, reference: String?)
        throws(WorldlineDirectSandboxError) -> (WorldlineDirectPayment, WorldlineDirectOperation, WorldlineDirectEvent)
    {
        var payment = try payment(merchantId: merchantId, id: id)
        guard payment.status == .pendingCapture else { throw .invalidState("payment is not PENDING_CAPTURE") }
        let left = payment.amount - payment.amountCaptured
        let value = amount ?? left
        guard value > 0 else { throw .invalid("amount", "amount must be positive") }
        guard value <= left else { throw .amountTooLarge("amount") }
        payment.amountCaptured += value
        let captures = payment.operations.filter { $0.type == "CAPTURE" }.count
        let operation = WorldlineDirectOperation(
            id: "\(payment.id.split(separator: "_")[0])_\(captures + 1)", type: "CAPTURE", amount: value,
            merchantReference: reference, time: now)
        payment.operations.append(operation)
        if amount == nil || isFinal || payment.amountCaptured == payment.amount {
            payment.status = .captured
        }
        payment.updatedAt = now
        payments[id] = payment
        record("capture", payment, operationId: operation.id, amount: value)
        return (payment, operation, .payment(payment))
    }

    /// Cancels the uncaptured authorisation of a `PENDING_CAPTURE` payment.
    func cancel(merchantId: String, id: String) throws(WorldlineDirectSandboxError) -> (
        WorldlineDirectPayment, WorldlineDirectEvent
    ) {
        var payment = try payment(merchantId: merchantId, id: id)
        guard
            payment.status == .pendingCapture || payment.status == .authorizationRequested
                || payment.status == .redirected
        else { throw .invalidState("payment cannot be cancelled in status \(payment.status.rawValue)") }
        let released = payment.status == .pendingCapture ? payment.amount - payment.amountCaptured : 0
        payment.status = payment.amountCaptured > 0 ? .captured : .cancelled
        payment.operations.append(
            WorldlineDirectOperation(
                id: payment.id, type: "CANCEL", amount: released, merchantReference: nil, time: now))
        payment.updatedAt = now
        payments[id] = payment
        if released > 0 { record("cancel", payment, operationId: payment.id, amount: released) }
        return (payment, .payment(payment))
    }

    /// Refunds `amount` (nil: all that is left) of a captured payment.
    func refund(merchantId: String, id: String, amount: Int64?, reference: String?)
        throws(WorldlineDirectSandboxError) -> (WorldlineDirectPayment, WorldlineDirectOperation, WorldlineDirectEvent)
    {
        var payment = try payment(merchantId: merchantId, id: id)
        guard payment.status == .captured || (payment.status == .pendingCapture && payment.amountCaptured > 0) else {
            throw .invalidState("payment is not refundable in status \(payment.status.rawValue)")
        }
        let left = payment.amountCaptured - payment.amountRefunded
        let value = amount ?? left
        guard value > 0 else { throw .invalid("amountOfMoney.amount", "amount must be positive") }
        guard value <= left else { throw .amountTooLarge("amountOfMoney.amount") }
        payment.amountRefunded += value
        let refunds = payment.operations.filter { $0.type == "REFUND" }.count
        let operation = WorldlineDirectOperation(
            id: "\(payment.id.split(separator: "_")[0])_R\(refunds + 1)", type: "REFUND", amount: value,
            merchantReference: reference, time: now)
        payment.operations.append(operation)
        if payment.amountRefunded == payment.amount { payment.status = .refunded }
        payment.updatedAt = now
        payments[id] = payment
        record("refund", payment, operationId: operation.id, amount: value)
        return (payment, operation, .refund(payment, operation))
    }

    // MARK: Helpers

    private func applyAuthorisation(_ payment: inout WorldlineDirectPayment) {
        switch payment.status {
        case .captured:
            payment.amountCaptured = payment.amount
            let operation = WorldlineDirectOperation(
                id: "\(payment.id.split(separator: "_")[0])_1", type: "CAPTURE", amount: payment.amount,
                merchantReference: nil, time: now)
            payment.operations.append(operation)
            record("capture", payment, operationId: operation.id, amount: payment.amount)
        case .pendingCapture:
            payment.operations.append(
                WorldlineDirectOperation(
                    id: payment.id, type: "AUTHORIZATION", amount: payment.amount, merchantReference: nil, time: now))
            record("authorization", payment, operationId: payment.id, amount: payment.amount)
        default:
            break
        }
    }

    static func authorisedStatus(mode: String) -> WorldlineDirectPaymentStatus {
        mode == "SALE" ? .captured : .pendingCapture
    }

    /// 1 Visa, 2 American Express, 3 Mastercard (by the card number's prefix).
    static func productId(of pan: String) -> Int {
        if pan.hasPrefix("34") || pan.hasPrefix("37") { return 2 }
        if pan.hasPrefix("5") || pan.hasPrefix("2") { return 3 }
        return 1
    }
}
