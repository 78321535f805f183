import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// What both repositories promise of the janitor's claims: a row is claimed when due, and not again
/// until its lease ends or its next look is due.
struct ClaimContractTests {
    @Test(arguments: Backend.allCases)
    func unknownPaymentsAreLeasedWhileSynced(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        var p = s.payment("pay_1", status: .unknown)
        p.resolution = Payment.Resolution(since: s.clock.date)
        try await s.payments.commit(PaymentChanges(payment: p))
        func claim() async throws -> [String] {
            try await s.payments.claimUnresolved(
                now: s.clock.date, firstDelay: 5, leaseUntil: s.clock.date.addingTimeInterval(30), limit: 10
            ).map(\.paymentId)
        }
        #expect(try await claim().isEmpty)
        s.clock.advance(5)
        #expect(try await claim() == ["pay_1"])
        #expect(try await claim().isEmpty)
        s.clock.advance(30)
        #expect(try await claim() == ["pay_1"])
        // Flagged for review: never claimed again.
        try await s.payments.transition(tenant: s.tenant, paymentId: "pay_1", with: PaymentChanges()) {
            $0.resolution?.reviewRequired = true
            $0.resolution?.nextSyncAt = nil
        }
        s.clock.advance(3_600)
        #expect(try await claim().isEmpty)
        #expect(try await s.payments.paymentsForReview(tenant: s.tenant, limit: 5).map(\.id) == ["pay_1"])
    }

    @Test(arguments: Backend.allCases)
    func staleProcessingIsClaimedOnceAndNotWithARecentAttempt(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_old")))
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_tried")))
        s.clock.advance(20)
        try await s.payments.commit(PaymentChanges(attempts: [s.attempt("att_1", of: "pay_tried")]))
        s.clock.advance(20)
        func claim() async throws -> [String] {
            try await s.payments.claimStaleProcessing(
                now: s.clock.date, cutoff: s.clock.date.addingTimeInterval(-30),
                leaseUntil: s.clock.date.addingTimeInterval(30), limit: 10
            ).map(\.paymentId)
        }
        #expect(try await claim() == ["pay_old"])
        #expect(try await claim().isEmpty)
        s.clock.advance(30)
        #expect(Set(try await claim()) == ["pay_old", "pay_tried"])
    }

    /// A subject holding `pay_1`, waiting for the app with a session that expires in 100 s.
    private func waitingForTheApp(_ backend: Backend) async throws -> ContractSubject {
        let s = try await ContractSubject.make(backend)
        var p = s.payment("pay_1", status: .requiresAction)
        p.nextAction = NextAction(type: "app", data: [:], expiresAt: s.clock.date.addingTimeInterval(100))
        try await s.payments.commit(PaymentChanges(payment: p))
        return s
    }

    /// The expired sessions claimed now, retried after 10 s within a 60 s horizon.
    private func expiredSessions(_ s: ContractSubject) async throws -> [String] {
        try await s.payments.claimExpiredSessions(now: s.clock.date, retryAfter: 10, horizon: 60, limit: 10)
            .map(\.paymentId)
    }

    @Test(arguments: Backend.allCases)
    func expiredSessionsAreSweptOnceThenRetriedWithinTheHorizon(_ backend: Backend) async throws {
        let s = try await waitingForTheApp(backend)
        func expired() async throws -> [String] { try await expiredSessions(s) }
        func halfLife() async throws -> [String] {
            try await s.payments.claimHalfLifeSessions(now: s.clock.date, limit: 10).map(\.paymentId)
        }
        #expect(try await expired().isEmpty)
        #expect(try await halfLife().isEmpty)
        s.clock.advance(50)
        #expect(try await halfLife() == ["pay_1"])
        #expect(try await halfLife().isEmpty)
        s.clock.advance(50)
        #expect(try await expired() == ["pay_1"])
        #expect(try await expired().isEmpty)
        s.clock.advance(10)
        #expect(try await expired() == ["pay_1"])
        s.clock.advance(49)
        #expect(try await expired() == ["pay_1"], "retried until the horizon")
        s.clock.advance(1)
        #expect(try await expired() == ["pay_1"], "a last sweep at the horizon")
        #expect(try await expired().isEmpty)
        s.clock.advance(3_600)
        #expect(try await expired().isEmpty, "never again past the horizon")
    }

    @Test(arguments: Backend.allCases)
    func aSessionUnsweptPastTheHorizonIsSweptOnceAndItsFlagIsListed(_ backend: Backend) async throws {
        let s = try await waitingForTheApp(backend)
        func expired() async throws -> [String] { try await expiredSessions(s) }
        s.clock.advance(1_000)
        #expect(try await expired() == ["pay_1"])
        #expect(try await expired().isEmpty)
        let since = s.clock.date
        try await s.payments.transition(tenant: s.tenant, paymentId: "pay_1", with: PaymentChanges()) {
            $0.resolution = Payment.Resolution(since: since, reviewRequired: true)
        }
        let listed = try await s.payments.paymentsForReview(tenant: s.tenant, limit: 5)
        #expect(listed.map(\.id) == ["pay_1"])
        #expect(listed.first?.status == .requiresAction)
        #expect(listed.first?.resolution == Payment.Resolution(since: since, reviewRequired: true))
    }

    @Test(arguments: Backend.allCases)
    func openRefundsAndCapturesAreLeasedAndScheduled(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        var capture = PaymentOperation(
            id: "cap_1", paymentId: "pay_1", tenantId: s.tenant, kind: .capture, amount: 100, createdAt: s.clock.date)
        capture.outcome = .unknown
        try await s.payments.commit(
            PaymentChanges(
                payment: s.payment("pay_1", status: .succeeded), refunds: [s.refund("re_1", of: "pay_1", amount: 100)],
                operations: [capture]))
        func claim() async throws -> [OpenOperation] {
            try await s.settlement.claimOpenOperations(
                now: s.clock.date, firstDelay: 5, leaseUntil: s.clock.date.addingTimeInterval(30), limit: 10)
        }
        #expect(try await claim().isEmpty)
        s.clock.advance(5)
        let claimed = try await claim()
        #expect(Set(claimed.map(\.id)) == ["re_1", "cap_1"])
        #expect(claimed.allSatisfy { $0.syncs == 0 && $0.paymentId == "pay_1" })
        #expect(try await claim().isEmpty)
        let refund = try #require(claimed.first { $0.kind == .refund })
        try await s.settlement.scheduleOpenOperation(
            refund, syncs: 1, nextSyncAt: s.clock.date.addingTimeInterval(60), reviewReason: nil)
        let op = try #require(claimed.first { $0.kind == .capture })
        try await s.settlement.scheduleOpenOperation(op, syncs: 1, nextSyncAt: nil, reviewReason: "horizon")
        s.clock.advance(60)
        let again = try await claim()
        #expect(again.map(\.id) == ["re_1"])
        #expect(again.first?.syncs == 1)
    }

    @Test(arguments: Backend.allCases)
    func heldAuthorizationsAreSyncedOncePerSyncPoint(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_1", status: .authorized)))
        let hold = AuthorizationHold(hold: 1_000, shares: [0.5, 0.9])
        func claim() async throws -> [String] {
            try await s.settlement.claimHeldAuthorizations(now: s.clock.date, hold: hold, limit: 10).map(\.paymentId)
        }
        #expect(try await claim().isEmpty)
        s.clock.advance(500)
        #expect(try await claim() == ["pay_1"])
        #expect(try await claim().isEmpty)
        s.clock.advance(400)
        #expect(try await claim() == ["pay_1"])
        #expect(try await claim().isEmpty)
    }
}
