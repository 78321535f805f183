import Foundation
import SwitchyardCore
import Testing

/// Disputes as a value: provider events in, the merchant's events and the funds' movements out.
struct DisputeMachineTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func dispute(_ stage: Dispute.Stage, amount: Int64 = 5_000) -> Dispute {
        Dispute(
            id: "dp_1", tenantId: UUID(), accountId: UUID(), paymentId: "pay_1", providerDisputeId: "2024-D-1",
            amount: amount,
            currency: "EUR", stage: stage, reason: .fraudulent, reasonCode: "4853",
            evidenceDueBy: t0.addingTimeInterval(7 * 86_400), createdAt: t0)
    }

    @Test func aChargebackTakesTheFundsWhenItOpens() {
        let (machine, actions) = DisputeMachine.open(dispute(.chargeback))
        #expect(actions == [.announce(.created), .withdrawFunds(5_000), .announce(.fundsWithdrawn)])
        #expect(machine.dispute.status == .needsResponse)
        #expect(machine.dispute.funds == .withdrawn)
    }

    @Test func anInquiryTakesNothingUntilItBecomesAChargeback() {
        var (machine, actions) = DisputeMachine.open(dispute(.inquiry))
        #expect(actions == [.announce(.created)])
        #expect(machine.dispute.status == .warningNeedsResponse)
        #expect(machine.apply(.evidenceSubmitted, at: t0) == [.announce(.updated)])
        #expect(machine.dispute.status == .warningUnderReview)
        let due = t0.addingTimeInterval(10 * 86_400)
        #expect(
            machine.apply(.opened(stage: .chargeback, evidenceDueBy: due), at: t0)
                == [.announce(.updated), .withdrawFunds(5_000), .announce(.fundsWithdrawn)])
        #expect(machine.dispute.stage == .chargeback)
        #expect(machine.dispute.status == .needsResponse)
        #expect(machine.dispute.evidenceDueBy == due)
        #expect(machine.dispute.hasEvidence)
    }

    @Test func evidenceThenAWinGivesTheFundsBack() {
        var (machine, _) = DisputeMachine.open(dispute(.chargeback))
        let later = t0.addingTimeInterval(60)
        #expect(
            machine.apply(.evidenceSubmitted, providerStatus: "DEFENSE_SUPPLIED", at: later) == [.announce(.updated)])
        #expect(machine.dispute.status == .underReview)
        #expect(machine.dispute.submissionCount == 1)
        #expect(machine.dispute.providerStatus == "DEFENSE_SUPPLIED")
        #expect(machine.dispute.updatedAt == later)
        #expect(
            machine.apply(.decided(merchantWon: true), at: later)
                == [.announce(.closed), .reinstateFunds(5_000), .announce(.fundsReinstated)])
        #expect(machine.dispute.status == .won)
        #expect(machine.dispute.funds == .reinstated)
    }

    @Test func acceptingOrLosingKeepsTheFundsTaken() {
        var (accepted, _) = DisputeMachine.open(dispute(.chargeback))
        #expect(accepted.apply(.accepted, at: t0) == [.announce(.closed)])
        #expect(accepted.dispute.status == .lost)
        #expect(accepted.dispute.funds == .withdrawn)

        var (lost, _) = DisputeMachine.open(dispute(.chargeback))
        #expect(lost.apply(.decided(merchantWon: false), at: t0) == [.announce(.closed)])
        #expect(lost.dispute.status == .lost)
    }

    @Test func aWithdrawnChargebackIsWonAndAWithdrawnInquiryClosesAsAWarning() {
        var (chargeback, _) = DisputeMachine.open(dispute(.chargeback))
        #expect(
            chargeback.apply(.withdrawn, at: t0)
                == [.announce(.closed), .reinstateFunds(5_000), .announce(.fundsReinstated)])
        #expect(chargeback.dispute.status == .won)

        var (inquiry, _) = DisputeMachine.open(dispute(.inquiry))
        #expect(inquiry.apply(.withdrawn, at: t0) == [.announce(.closed)])
        #expect(inquiry.dispute.status == .warningClosed)
        #expect(inquiry.dispute.funds == .untouched)
    }

    @Test func lateAndRepeatedEventsChangeNothing() {
        var (machine, _) = DisputeMachine.open(dispute(.chargeback))
        let decided = t0.addingTimeInterval(3_600)
        _ = machine.apply(.decided(merchantWon: false), providerStatus: "Lost", at: decided)
        let settled = machine.dispute
        // The creation resent until acknowledged, a late evidence report, the same decision again, a close
        // after the decision: nothing moves, not even the provider's status or the time.
        for event: DisputeMachine.Event in [
            .opened(stage: .chargeback, evidenceDueBy: nil), .evidenceSubmitted, .evidenceRequested(dueBy: t0),
            .decided(merchantWon: false), .accepted, .withdrawn, .closed,
        ] {
            #expect(machine.apply(event, providerStatus: "late", at: decided.addingTimeInterval(60)) == [])
        }
        #expect(machine.dispute == settled)
    }

    @Test func aContradictingDecisionIsListedForReviewNotApplied() {
        var (machine, _) = DisputeMachine.open(dispute(.chargeback))
        _ = machine.apply(.decided(merchantWon: false), at: t0)
        let actions = machine.apply(.decided(merchantWon: true), at: t0)
        #expect(actions.count == 1)
        guard case .listForReview = actions.first else {
            Issue.record("a contradicting decision was not listed for review: \(actions)")
            return
        }
        #expect(machine.dispute.status == .lost)
        #expect(machine.dispute.funds == .withdrawn)
    }

    @Test func aLostDisputeReopensOnlyAtALaterStage() {
        var (machine, _) = DisputeMachine.open(dispute(.chargeback))
        _ = machine.apply(.decided(merchantWon: true), at: t0)
        #expect(machine.dispute.funds == .reinstated)
        // The issuer insists: pre-arbitration takes the funds again and waits for the merchant.
        let due = t0.addingTimeInterval(5 * 86_400)
        #expect(
            machine.apply(.opened(stage: .preArbitration, evidenceDueBy: due), at: t0)
                == [.announce(.updated), .withdrawFunds(5_000), .announce(.fundsWithdrawn)])
        #expect(machine.dispute.status == .needsResponse)
        #expect(machine.dispute.stage == .preArbitration)
        // A late report of the earlier stage does not move it back.
        #expect(machine.apply(.opened(stage: .chargeback, evidenceDueBy: nil), at: t0) == [])
        #expect(machine.dispute.stage == .preArbitration)
    }

    @Test func aCloseWithoutADecisionIsListedForReview() {
        var (machine, _) = DisputeMachine.open(dispute(.chargeback))
        let actions = machine.apply(.closed, providerStatus: "Case Closed", at: t0)
        guard case .listForReview = actions.first else {
            Issue.record("a close without decision was not listed for review: \(actions)")
            return
        }
        #expect(machine.dispute.status == .needsResponse)
        #expect(machine.dispute.providerStatus == "Case Closed")
    }

    @Test func theDeadlinePassesOnlyWhileTheMerchantOwesAnAnswer() throws {
        var (machine, _) = DisputeMachine.open(dispute(.chargeback))
        let due = try #require(machine.dispute.evidenceDueBy)
        #expect(!machine.dispute.isPastDue(at: due.addingTimeInterval(-1)))
        #expect(machine.dispute.isPastDue(at: due))
        _ = machine.apply(.evidenceSubmitted, at: t0)
        #expect(!machine.dispute.isPastDue(at: due.addingTimeInterval(86_400)))
    }

    @Test func stagesEscalateInSchemeOrder() {
        #expect(Dispute.Stage.allCases.sorted() == [.inquiry, .chargeback, .preArbitration, .arbitration])
        #expect(Dispute.Status.allCases.filter(\.isClosed) == [.warningClosed, .won, .lost])
    }
}
