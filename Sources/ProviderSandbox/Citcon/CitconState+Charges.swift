import Foundation
import SwitchyardCrypto

/// Validated input of `POST /v1/charges`.
struct CitconChargeInput: Sendable {
    var reference: String
    var amount: Int64
    var currency: String
    var country: String
    var autoCapture: Bool
    var note: String?
    var ipnURL: String?
    var paymentMethod: String?
}

extension CitconState {
    /// Creates a pending charge (status `initiated`).
    func createCharge(merchant: String, input: CitconChargeInput) throws(CitconSandboxError) -> CitconCharge {
        try reserve(reference: input.reference, merchant: merchant)
        let now = clock()
        var token: String
        repeat {
            token = Hex.encode(SecureRandom.bytes(16))
        } while chargeIDByToken[token] != nil
        let charge = CitconCharge(
            id: newID(),
            chargeToken: token,
            merchant: merchant,
            reference: input.reference,
            amount: input.amount,
            currency: input.currency,
            country: input.country,
            autoCapture: input.autoCapture,
            status: .initiated,
            paymentMethod: input.paymentMethod,
            amountCaptured: 0,
            amountRefunded: 0,
            failureCode: nil,
            failureMessage: nil,
            ipnURL: input.ipnURL,
            note: input.note,
            createdAt: now,
            expiresAt: now.addingTimeInterval(configuration.pendingChargeLifetime),
            capturedAt: nil,
            canceledAt: nil
        )
        charges[charge.id] = charge
        chargeIDByToken[token] = charge.id
        chargeIDByReference[merchant, default: [:]][charge.reference] = charge.id
        return charge
    }

    /// The SDK's confirm step. `merchant` restricts the lookup to one merchant (nil: any merchant).
    ///
    /// Outcome by `amount % 1000`: `402` → `failed` (code `4021`), `408` → stays `pending` with no IPN,
    /// anything else → `succeeded` (auto capture) or `authorized`.
    func confirm(
        chargeToken: String,
        method: String,
        merchant: String?
    ) throws(CitconSandboxError) -> (CitconCharge, CitconIPNEvent?) {
        guard let id = chargeIDByToken[chargeToken], let existing = charges[id],
            merchant == nil || existing.merchant == merchant
        else { throw .notFound }
        applyExpiry(chargeID: id)
        guard var charge = charges[id] else { throw .notFound }
        switch charge.status {
        case .initiated: break
        case .expired: throw .chargeExpired
        default: throw .alreadyConfirmed
        }
        let now = clock()
        charge.paymentMethod = method
        let ipnStatus: String?
        switch CitconMagicAmount(amount: charge.amount) {
        case .decline:
            charge.status = .failed
            charge.failureCode = "4021"
            charge.failureMessage = "declined"
            ipnStatus = "fail"
        case .pending:
            charge.status = .pending
            ipnStatus = nil
        case .approve:
            if charge.autoCapture {
                charge.status = .succeeded
                charge.amountCaptured = charge.amount
                charge.capturedAt = now
                ipnStatus = "success"
            } else {
                charge.status = .authorized
                ipnStatus = "authorized"
            }
            appendLedger(
                CitconLedgerEntry(
                    kind: .charge,
                    merchant: charge.merchant,
                    chargeID: charge.id,
                    operationID: charge.id,
                    reference: charge.reference,
                    chargeReference: charge.reference,
                    amount: charge.amount,
                    currency: charge.currency,
                    time: now
                )
            )
        }
        charges[id] = charge
        let event = ipnStatus.flatMap { CitconIPNEvent.charge(charge, status: $0, completedAt: now) }
        return (charge, event)
    }

    /// The merchant's charge by Citcon id or merchant reference (inquiry).
    func transaction(merchant: String, idOrReference: String) throws(CitconSandboxError) -> CitconCharge {
        guard let id = chargeID(merchant: merchant, idOrReference: idOrReference) else { throw .notFound }
        applyExpiry(chargeID: id)
        guard let charge = charges[id] else { throw .notFound }
        return charge
    }

    /// A charge by Citcon id, any merchant (Swift accessor).
    func charge(id: String) -> CitconCharge? {
        applyExpiry(chargeID: id)
        return charges[id]
    }

    /// A charge by merchant reference (Swift accessor).
    func charge(merchant: String, reference: String) -> CitconCharge? {
        guard let id = chargeIDByReference[merchant]?[reference] else { return nil }
        return charge(id: id)
    }
}

/// How the confirm step ends, decided by `amount % 1000`; public so a test can pick amounts that settle.
public enum CitconMagicAmount: Equatable, Sendable {
    /// Any other ending: succeeded (auto capture) or authorized.
    case approve
    /// `…402`: failed with code `4021`.
    case decline
    /// `…408`: stays `pending` for good, as if the wallet never answered (no IPN).
    case pending

    /// The ending of `amount`.
    public init(amount: Int64) {
        switch amount % 1000 {
        case 402: self = .decline
        case 408: self = .pending
        default: self = .approve
        }
    }
}
