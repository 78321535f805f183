import Foundation
import SwitchyardCore
import Testing

/// A dispute step's funds actions become ledger entries, signed from the merchant's side, in order.
struct LedgerEntryTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000)

    func dispute(livemode: Bool = true) -> Dispute {
        Dispute(
            id: "dp_1", tenantId: UUID(), accountId: UUID(), livemode: livemode, paymentId: "pay_1",
            providerDisputeId: "D-1", amount: 700, currency: "EUR", stage: .chargeback, createdAt: time)
    }

    @Test func withdrawalsAreNegativeReinstatementsPositiveAndZeroMovesNothing() {
        var next = 0
        let step = DisputeStep(
            dispute: dispute(),
            actions: [
                .announce(.created), .withdrawFunds(700), .announce(.fundsWithdrawn), .reinstateFunds(0),
                .reinstateFunds(700),
            ])
        let entries = LedgerEntry.entries(of: step, at: time) {
            next += 1
            return "bt_\(next)"
        }
        #expect(entries.map(\.kind) == [.disputeWithdrawal, .disputeReinstatement])
        #expect(entries.map(\.amount) == [-700, 700])
        #expect(entries.map(\.id) == ["bt_1", "bt_2"])
        #expect(entries.map(\.createdAt) == [time, time.addingTimeInterval(0.000_001)])
        #expect(entries.allSatisfy { $0.source == "dp_1" && $0.paymentId == "pay_1" && $0.livemode })
    }

    @Test func aStepWithoutADisputeOrFundsWritesNothing() {
        #expect(
            LedgerEntry.entries(of: DisputeStep(dispute: nil, actions: [.withdrawFunds(5)]), at: time) { "bt" }.isEmpty)
        #expect(
            LedgerEntry.entries(of: DisputeStep(dispute: dispute(), actions: [.announce(.updated)]), at: time) { "bt" }
                .isEmpty)
    }
}
