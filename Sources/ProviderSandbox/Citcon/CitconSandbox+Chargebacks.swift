import Foundation

/// A chargeback the emulator sent about one charge: its status and the IPNs it sent.
public struct CitconChargeback: Sendable, Codable, Equatable {
    public internal(set) var chargeID: String
    public internal(set) var chargebackID: String?
    public internal(set) var status: String
    public internal(set) var amount: Int64
    public internal(set) var dueBy: Date?
}

extension CitconSandbox {
    /// Moves the chargeback of the paid charge `chargeID` to `status` (one of Citcon's documented
    /// chargeback statuses; the first call opens it) and sends the signed chargeback IPN to the charge's
    /// IPN URL. `amount` defaults to what was captured.
    public func chargeback(chargeID: String, status: String, amount: Int64? = nil) async throws(CitconSandboxError)
        -> CitconChargeback
    {
        guard CitconIPNEvent.chargebackStatuses.contains(status) else { throw .unknownChargebackStatus }
        guard let charge = await state.charge(id: chargeID) else { throw .notFound }
        guard charge.status == .captured || charge.status == .succeeded else { throw .notDisputable }
        let now = state.clock()
        let chargeback = await state.moveChargeback(
            of: charge, status: status, amount: amount ?? charge.amountCaptured,
            separateID: configuration.chargebackIdField,
            dueBy: configuration.chargebackDueDays.map { now.addingTimeInterval(TimeInterval($0) * 86_400) })
        await send(
            CitconIPNEvent.chargeback(
                charge, status: status, amount: chargeback.amount, chargebackID: chargeback.chargebackID,
                dueBy: chargeback.dueBy, at: now))
        return chargeback
    }
}

extension CitconState {
    /// Records the chargeback of `charge` at `status`, opening it on the first call.
    func moveChargeback(of charge: CitconCharge, status: String, amount: Int64, separateID: Bool, dueBy: Date?)
        -> CitconChargeback
    {
        var chargeback =
            chargebacks[charge.id]
            ?? CitconChargeback(
                chargeID: charge.id, chargebackID: separateID ? "CB" + charge.id : nil, status: status,
                amount: amount, dueBy: dueBy)
        chargeback.status = status
        chargebacks[charge.id] = chargeback
        return chargeback
    }
}
