import Foundation

extension CitconState {
    /// Finds the merchant's charge by Citcon id, falling back to the charge's reference.
    private func targetCharge(
        merchant: String,
        id: String?,
        transactionReference: String?
    ) throws(CitconSandboxError) -> CitconCharge {
        let found =
            id.flatMap { chargeID(merchant: merchant, idOrReference: $0) }
            ?? transactionReference.flatMap { chargeIDByReference[merchant]?[$0] }
        guard let chargeID = found else { throw .notFound }
        applyExpiry(chargeID: chargeID)
        guard let charge = charges[chargeID] else { throw .notFound }
        return charge
    }

    /// Captures `amount` of an authorised charge; several partial captures may add up to the amount.
    func capture(
        merchant: String,
        id: String?,
        reference: String,
        amount: Int64
    ) throws(CitconSandboxError) -> (CitconCaptureData, CitconIPNEvent?) {
        guard !isUsed(reference: reference, merchant: merchant) else { throw .duplicate }
        var charge = try targetCharge(merchant: merchant, id: id, transactionReference: nil)
        guard charge.status == .authorized || charge.status == .captured else { throw .notAuthorized }
        guard amount <= charge.amount - charge.amountCaptured else { throw .overCapture }
        try reserve(reference: reference, merchant: merchant)
        let now = clock()
        charge.amountCaptured += amount
        charge.status = .captured
        if charge.capturedAt == nil { charge.capturedAt = now }
        charges[charge.id] = charge
        let captureID = newID()
        appendLedger(
            CitconLedgerEntry(
                kind: .capture,
                merchant: merchant,
                chargeID: charge.id,
                operationID: captureID,
                reference: reference,
                chargeReference: charge.reference,
                amount: amount,
                currency: charge.currency,
                time: now
            )
        )
        let data = CitconCaptureData(
            id: captureID,
            reference: reference,
            transactionID: charge.id,
            amount: amount,
            currency: charge.currency,
            timeCreated: now.epochSeconds
        )
        return (data, CitconIPNEvent.charge(charge, status: "captured", completedAt: now))
    }

    /// Cancels a charge that holds no captured money (initiated, pending or authorised).
    func cancel(
        merchant: String,
        id: String?,
        reference: String,
        transactionReference: String?
    ) throws(CitconSandboxError) -> (CitconCancelData, CitconIPNEvent?) {
        guard !isUsed(reference: reference, merchant: merchant) else { throw .duplicate }
        var charge = try targetCharge(merchant: merchant, id: id, transactionReference: transactionReference)
        let released: Int64
        switch charge.status {
        case .initiated, .pending: released = 0
        case .authorized: released = charge.amount
        default: throw .notCancelable
        }
        try reserve(reference: reference, merchant: merchant)
        let now = clock()
        charge.status = .canceled
        charge.canceledAt = now
        charges[charge.id] = charge
        let cancelID = newID()
        appendLedger(
            CitconLedgerEntry(
                kind: .cancel,
                merchant: merchant,
                chargeID: charge.id,
                operationID: cancelID,
                reference: reference,
                chargeReference: charge.reference,
                amount: released,
                currency: charge.currency,
                time: now
            )
        )
        let data = CitconCancelData(
            id: cancelID,
            reference: reference,
            transactionID: charge.id,
            amount: charge.amount,
            currency: charge.currency,
            timeCreated: now.epochSeconds
        )
        return (data, CitconIPNEvent.charge(charge, status: "cancelled", completedAt: now))
    }

    /// Refunds `amount` of captured money; several partial refunds may add up to the captured amount.
    func refund(
        merchant: String,
        id: String?,
        reference: String,
        amount: Int64,
        transactionReference: String?
    ) throws(CitconSandboxError) -> (CitconRefundData, CitconIPNEvent?) {
        guard !isUsed(reference: reference, merchant: merchant) else { throw .duplicate }
        var charge = try targetCharge(merchant: merchant, id: id, transactionReference: transactionReference)
        guard charge.status == .captured || charge.status == .succeeded, charge.amountCaptured > 0 else {
            throw .notCaptured
        }
        guard amount <= charge.amountCaptured - charge.amountRefunded else { throw .overRefund }
        try reserve(reference: reference, merchant: merchant)
        let now = clock()
        charge.amountRefunded += amount
        charges[charge.id] = charge
        let refundID = newID()
        appendLedger(
            CitconLedgerEntry(
                kind: .refund,
                merchant: merchant,
                chargeID: charge.id,
                operationID: refundID,
                reference: reference,
                chargeReference: charge.reference,
                amount: amount,
                currency: charge.currency,
                time: now
            )
        )
        let data = CitconRefundData(
            id: refundID,
            reference: reference,
            transactionID: charge.id,
            amount: amount,
            amountRefunded: charge.amountRefunded,
            currency: charge.currency,
            timeCreated: now.epochSeconds,
            timeCompleted: now.epochSeconds
        )
        let event = CitconIPNEvent.refund(
            charge,
            refundID: refundID,
            reference: reference,
            amount: amount,
            completedAt: now
        )
        return (data, event)
    }
}
