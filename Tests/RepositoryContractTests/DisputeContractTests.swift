import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// What both dispute repositories promise: one dispute per account and provider id, its funds on the
/// payment's disputed amount in the same transaction, and lists filtered by payment, due date and status.
struct DisputeContractTests {
    func event(_ kind: DisputeEvent.Kind, id: String = "D-1", amount: Int64 = 600, dueIn: TimeInterval = 86_400)
        -> DisputeEvent
    {
        DisputeEvent(
            kind: kind, providerDisputeId: id, stage: kind == .opened ? .chargeback : nil, providerStatus: "\(kind)",
            amount: amount, currency: "EUR", evidenceDueBy: Date(timeIntervalSince1970: 1_800_000_000 + dueIn))
    }

    func record(_ s: ContractSubject, _ e: DisputeEvent, payment: String?, newId: String) async throws -> DisputeStep {
        let source = DisputeIntake.Source(tenantId: s.tenant, accountId: s.account, livemode: false)
        let now = s.clock.date
        return try await s.disputes.record(
            tenant: s.tenant, accountId: s.account, providerDisputeId: e.providerDisputeId, paymentId: payment
        ) { existing, payment in
            DisputeIntake.step(e, existing: existing, payment: payment, source: source, newId: newId, at: now)
        }
    }

    func disputed(_ s: ContractSubject, _ id: String) async throws -> Int64? {
        try await s.payments.record(tenant: s.tenant, paymentId: id)?.payment.amountDisputed
    }

    @Test(arguments: Backend.allCases)
    func aDisputeIsKeptOnceAndMovesItsPaymentsDisputedAmount(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_1", amount: 1_000, status: .succeeded)))
        let opened = try await record(s, event(.opened), payment: "pay_1", newId: "dp_1")
        #expect(opened.dispute?.id == "dp_1")
        #expect(try await disputed(s, "pay_1") == 600)
        s.clock.advance(60)
        // The same provider dispute again, under a new candidate id: the stored one is found and moved.
        let won = try await record(s, event(.won), payment: "pay_1", newId: "dp_2")
        #expect(won.dispute?.id == "dp_1")
        #expect(won.dispute?.status == .won)
        #expect(try await disputed(s, "pay_1") == 0)
        let stored = try #require(try await s.disputes.dispute(tenant: s.tenant, id: "dp_1"))
        #expect(stored.status == .won)
        #expect(stored.funds == .reinstated)
        #expect(stored.evidenceDueBy == Date(timeIntervalSince1970: 1_800_086_400))
        #expect(try await s.disputes.dispute(tenant: UUID(), id: "dp_1") == nil)
    }

    @Test(arguments: Backend.allCases)
    func theLedgerGetsEachWithdrawalAndReinstatementOnce(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_1", amount: 1_000, status: .succeeded)))
        _ = try await record(s, event(.opened), payment: "pay_1", newId: "dp_1")
        s.clock.advance(60)
        // A resent notification moves nothing, so it writes nothing.
        _ = try await record(s, event(.opened), payment: "pay_1", newId: "dp_2")
        s.clock.advance(60)
        _ = try await record(s, event(.won), payment: "pay_1", newId: "dp_3")
        let all = try await s.disputes.ledgerEntries(tenant: s.tenant, filter: LedgerFilter(), page: PageRequest())
        #expect(all.items.map(\.kind) == [.disputeReinstatement, .disputeWithdrawal])
        #expect(all.items.map(\.amount) == [600, -600])
        #expect(all.items.allSatisfy { $0.source == "dp_1" && $0.paymentId == "pay_1" && $0.currency == "EUR" })
        #expect(Set(all.items.map(\.id)).count == 2)
        let withdrawals = try await s.disputes.ledgerEntries(
            tenant: s.tenant, filter: LedgerFilter(source: "dp_1"), page: PageRequest(status: "dispute_withdrawal"))
        #expect(withdrawals.items.map(\.amount) == [-600])
        let paged = try await s.disputes.ledgerEntries(
            tenant: s.tenant, filter: LedgerFilter(paymentId: "pay_1"), page: PageRequest(limit: 1))
        #expect(paged.items.count == 1 && paged.hasMore)
        #expect(
            try await s.disputes.ledgerEntries(
                tenant: s.tenant, filter: LedgerFilter(paymentId: "pay_2"), page: PageRequest()
            )
            .items.isEmpty)
        #expect(
            try await s.disputes.ledgerEntries(tenant: UUID(), filter: LedgerFilter(), page: PageRequest()).items
                .isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func anUnknownPaymentsDisputeIsListedForReview(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_1", amount: 1_000, status: .succeeded)))
        _ = try await record(s, event(.opened, id: "D-1", dueIn: 3_600), payment: "pay_1", newId: "dp_1")
        s.clock.advance(1)
        _ = try await record(s, event(.opened, id: "D-2", dueIn: 7 * 86_400), payment: nil, newId: "dp_2")
        let all = try await s.disputes.disputes(tenant: s.tenant, filter: DisputeFilter(), page: PageRequest())
        #expect(all.items.map(\.id) == ["dp_2", "dp_1"])
        let review = try await s.disputes.disputes(
            tenant: s.tenant, filter: DisputeFilter(needsReview: true), page: PageRequest())
        #expect(review.items.map(\.id) == ["dp_2"])
        let ofPayment = try await s.disputes.disputes(
            tenant: s.tenant, filter: DisputeFilter(paymentId: "pay_1"), page: PageRequest())
        #expect(ofPayment.items.map(\.id) == ["dp_1"])
        let dueSoon = try await s.disputes.disputes(
            tenant: s.tenant, filter: DisputeFilter(dueBefore: Date(timeIntervalSince1970: 1_800_086_400)),
            page: PageRequest())
        #expect(dueSoon.items.map(\.id) == ["dp_1"])
        let won = try await s.disputes.disputes(
            tenant: s.tenant, filter: DisputeFilter(), page: PageRequest(status: "won"))
        #expect(won.items.isEmpty)
        let paged = try await s.disputes.disputes(
            tenant: s.tenant, filter: DisputeFilter(), page: PageRequest(limit: 1, cursor: .after("dp_2")))
        #expect(paged.items.map(\.id) == ["dp_1"])
    }

    @Test(arguments: Backend.allCases)
    func aRefundCannotReturnWhatADisputeTook(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_1", amount: 1_000, status: .succeeded)))
        _ = try await record(s, event(.opened), payment: "pay_1", newId: "dp_1")
        do {
            try await s.payments.reserveRefund(s.refund("re_1", of: "pay_1", amount: 500), linking: nil)
            Issue.record("a refund over the undisputed remainder was reserved")
        } catch let error as CoreError {
            #expect(error.code == .refundExceedsUndisputed)
        }
        try await s.payments.reserveRefund(s.refund("re_2", of: "pay_1", amount: 400), linking: nil)
    }

    @Test(arguments: Backend.allCases)
    func eachReminderIsClaimedOnceAndPastDueDisputesAreFound(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_1", amount: 1_000, status: .succeeded)))
        let due = s.clock.date.addingTimeInterval(71 * 3600)
        var opened = event(.opened)
        opened.evidenceDueBy = due
        _ = try await record(s, opened, payment: "pay_1", newId: "dp_1")
        let first = try await s.disputes.remindEvidenceDue(now: s.clock.date, horizons: [72, 24], limit: 10)
        #expect(first.map(\.id) == ["dp_1"])
        #expect(try await s.disputes.remindEvidenceDue(now: s.clock.date, horizons: [72, 24], limit: 10).isEmpty)
        #expect(try await s.disputes.openByDueWindow(now: s.clock.date) == ["within_72h": 1])
        s.clock.advance(48 * 3600)
        let second = try await s.disputes.remindEvidenceDue(now: s.clock.date, horizons: [72, 24], limit: 10)
        #expect(second.map(\.id) == ["dp_1"])
        #expect(try await s.disputes.pastDue(before: due, limit: 10).isEmpty)
        #expect(try await s.disputes.pastDue(before: due.addingTimeInterval(1), limit: 10).map(\.id) == ["dp_1"])
        #expect(try await s.disputes.openByDueWindow(now: due) == ["past_due": 1])
    }
}
