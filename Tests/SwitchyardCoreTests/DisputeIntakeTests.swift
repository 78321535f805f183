import Foundation
import ProviderKit
import SwitchyardCore
import Testing

/// A plugin's dispute events applied to the stored dispute and its payment, without I/O.
struct DisputeIntakeTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let source = DisputeIntake.Source(tenantId: UUID(), accountId: UUID(), livemode: false)

    func payment(amount: Int64 = 5_000, refunded: Int64 = 0) -> Payment {
        var p = Payment(
            id: "pay_1", tenantId: source.tenantId, amount: amount, currency: "EUR", country: "FR", method: "card",
            reference: "r", captureMode: .automatic, customerId: nil, returnURL: nil, paymentData: [:],
            status: .succeeded, createdAt: t0)
        p.amountCaptured = amount
        p.amountRefunded = refunded
        return p
    }

    func event(
        _ kind: DisputeEvent.Kind, stage: DisputeEvent.Stage? = nil, amount: Int64? = 5_000, currency: String? = "EUR"
    ) -> DisputeEvent {
        DisputeEvent(
            kind: kind, providerDisputeId: "D-1", reference: "att_1", stage: stage, providerStatus: "\(kind)",
            amount: amount, currency: currency, reasonCode: "4853", reason: "product_unacceptable",
            evidenceDueBy: t0.addingTimeInterval(86_400))
    }

    func step(_ e: DisputeEvent, _ existing: Dispute? = nil, payment: Payment?) -> DisputeStep {
        DisputeIntake.step(e, existing: existing, payment: payment, source: source, newId: "dp_1", at: t0)
    }

    @Test func aChargebackOnAKnownPaymentTakesItsFunds() throws {
        let s = step(event(.opened, stage: .chargeback), payment: payment())
        let dispute = try #require(s.dispute)
        #expect(dispute.paymentId == "pay_1")
        #expect(dispute.status == .needsResponse)
        #expect(dispute.reason == .productUnacceptable)
        #expect(dispute.review == nil)
        #expect(s.actions == [.announce(.created), .withdrawFunds(5_000), .announce(.fundsWithdrawn)])
        #expect(s.disputedChange == 5_000)
    }

    @Test func aDisputeOfAnUnknownPaymentIsKeptForReviewAndMovesNoFunds() throws {
        let s = step(event(.opened, stage: .chargeback), payment: nil)
        let dispute = try #require(s.dispute)
        #expect(dispute.paymentId == nil)
        #expect(dispute.review != nil)
        #expect(!dispute.countsOnPayment)
        #expect(s.disputedChange == 0)
        #expect(s.actions.contains(.announce(.created)))
        #expect(s.actions.contains { if case .listForReview = $0 { true } else { false } })
    }

    @Test func anAmountOverThePaymentOrInAnotherCurrencyIsKeptForReview() throws {
        let over = try #require(step(event(.opened, amount: 9_000), payment: payment()).dispute)
        #expect(over.review?.contains("9000") == true)
        #expect(!over.countsOnPayment)
        let other = try #require(step(event(.opened, currency: "USD"), payment: payment()).dispute)
        #expect(other.review?.contains("USD") == true)
        #expect(!other.countsOnPayment)
    }

    @Test func aDisputeOfARefundedPaymentIsFlaggedAndStillCounts() throws {
        let s = step(event(.opened, amount: 2_000), payment: payment(refunded: 3_000))
        let dispute = try #require(s.dispute)
        #expect(dispute.review?.contains("refunded") == true)
        #expect(dispute.countsOnPayment)
        #expect(s.disputedChange == 2_000)
    }

    @Test func aFirstNotificationThatIsAlreadyADecisionOpensAndDecides() throws {
        let s = step(event(.won, stage: .chargeback), payment: payment())
        let dispute = try #require(s.dispute)
        #expect(dispute.status == .won)
        #expect(dispute.funds == .reinstated)
        #expect(s.disputedChange == 0)
        #expect(s.actions.contains(.announce(.created)))
        #expect(s.actions.contains(.announce(.fundsReinstated)))
    }

    @Test func aLaterEventMovesTheStoredDisputeAndARepeatChangesNothing() throws {
        let opened = try #require(step(event(.opened, stage: .chargeback), payment: payment()).dispute)
        let lost = step(event(.lost), opened, payment: payment())
        #expect(lost.dispute?.status == .lost)
        #expect(lost.actions == [.announce(.closed)])
        #expect(lost.disputedChange == 0)
        let decided = try #require(lost.dispute)
        let again = step(event(.lost), decided, payment: payment())
        #expect(again.actions.isEmpty)
        #expect(again.dispute == decided)
    }

    @Test func aWinGivesTheFundsBack() throws {
        let opened = try #require(step(event(.opened, stage: .chargeback), payment: payment()).dispute)
        let won = step(event(.won), opened, payment: payment())
        #expect(won.disputedChange == -5_000)
        #expect(won.dispute?.providerStatus == "won")
    }

    @Test func anInquiryMovesNoFundsUntilItEscalates() throws {
        let inquiry = try #require(step(event(.opened, stage: .inquiry), payment: payment()).dispute)
        #expect(inquiry.status == .warningNeedsResponse)
        let escalated = step(event(.opened, stage: .chargeback), inquiry, payment: payment())
        #expect(escalated.dispute?.stage == .chargeback)
        #expect(escalated.disputedChange == 5_000)
    }
}

/// When the merchant is reminded of an evidence deadline, and when a dispute past it is closed.
struct DisputeDeadlineTests {
    let due = Date(timeIntervalSince1970: 1_800_000_000)

    func hours(_ h: Double) -> Date { due.addingTimeInterval(-h * 3600) }

    @Test func eachHorizonIsRemindedOnceSmallestBegunFirst() {
        let deadlines = DisputePolicy()
        #expect(deadlines.reminder(dueBy: due, sent: nil, now: hours(100)) == nil)
        #expect(deadlines.reminder(dueBy: due, sent: nil, now: hours(71)) == 72)
        #expect(deadlines.reminder(dueBy: due, sent: 72, now: hours(30)) == nil)
        #expect(deadlines.reminder(dueBy: due, sent: 72, now: hours(23)) == 24)
        // A dispute first seen a few hours before its deadline gets only the nearest reminder.
        #expect(deadlines.reminder(dueBy: due, sent: nil, now: hours(2)) == 24)
        #expect(deadlines.reminder(dueBy: due, sent: 24, now: hours(1)) == nil)
        #expect(deadlines.reminder(dueBy: due, sent: nil, now: hours(-1)) == nil)
    }

    @Test func outOfRangeHorizonsAreIgnored() {
        var deadlines = DisputePolicy()
        deadlines.reminderHours = [0, 24, 24, 99_999]
        #expect(deadlines.horizons == [24])
        #expect(deadlines.rangeProblem()?.key == "reminder_hours")
    }

    @Test func theDueWindowsCountFromNow() {
        #expect(DisputePolicy.window(dueBy: nil, now: due) == "no_deadline")
        #expect(DisputePolicy.window(dueBy: due, now: due) == "past_due")
        #expect(DisputePolicy.window(dueBy: due, now: hours(23)) == "within_24h")
        #expect(DisputePolicy.window(dueBy: due, now: hours(48)) == "within_72h")
        #expect(DisputePolicy.window(dueBy: due, now: hours(100)) == "later")
    }

    @Test func aChargebackPastItsDeadlineIsLostAndAnInquiryClosesAsAWarning() {
        let chargeback = Dispute(
            id: "dp_1", tenantId: UUID(), accountId: UUID(), paymentId: "pay_1", providerDisputeId: "D",
            amount: 100, currency: "EUR", stage: .chargeback, evidenceDueBy: due, createdAt: hours(200))
        var machine = DisputeMachine(dispute: chargeback)
        #expect(machine.apply(.expired, at: due) == [.announce(.closed)])
        #expect(machine.dispute.status == .lost)
        #expect(machine.apply(.expired, at: due).isEmpty)
        var inquiry = chargeback
        inquiry.stage = .inquiry
        inquiry.status = .warningNeedsResponse
        inquiry.funds = .untouched
        var second = DisputeMachine(dispute: inquiry)
        #expect(second.apply(.expired, at: due) == [.announce(.closed)])
        #expect(second.dispute.status == .warningClosed)
        // Evidence submitted: the deadline no longer closes it.
        var answered = DisputeMachine(dispute: chargeback)
        _ = answered.apply(.evidenceSubmitted, at: hours(5))
        #expect(answered.apply(.expired, at: due).isEmpty)
    }
}
