import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// What both payment repositories promise: transitions serialized per payment and all or nothing, reads
/// scoped by tenant, refunds reserved within the remainder, and the upsert rules that keep what is known.
struct PaymentContractTests {
    @Test(arguments: Backend.allCases)
    func concurrentTransitionsNeverOverwriteEachOther(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_1", status: .authorized)))
        let (tenant, payments) = (s.tenant, s.payments)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await payments.transition(tenant: tenant, paymentId: "pay_1", with: PaymentChanges()) {
                        $0.amountCaptured += 1
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await s.payments.record(tenant: s.tenant, paymentId: "pay_1")?.payment.amountCaptured == 20)
    }

    @Test(arguments: Backend.allCases)
    func aTransitionThatThrowsChangesNothing(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_1")))
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await s.payments.transition(
                tenant: s.tenant, paymentId: "pay_1", with: PaymentChanges(attempts: [s.attempt("att_1", of: "pay_1")])
            ) { payment -> Void in
                payment.status = .failed
                throw Refused()
            }
        }
        let record = try #require(try await s.payments.record(tenant: s.tenant, paymentId: "pay_1"))
        #expect(record.payment.status == .processing)
        #expect(record.attempts.isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func theRoutingDecisionAndPaymentDataAreWrittenOnceAndKeptThroughTransitions(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        var payment = s.payment("pay_1")
        let decision = RoutingDecision(
            ruleId: UUID(), ruleName: "euro cards", candidates: [UUID(), UUID()],
            skipped: [.init(accountId: UUID(), reason: "circuit open")])
        payment.routing = decision
        payment.paymentData = ["wallet": .string("alipay"), "device": .object(["os": .string("ios")])]
        _ = try await s.payments.begin(PaymentChanges(payment: payment), claim: nil)
        let seen = try await s.payments.transition(tenant: s.tenant, paymentId: "pay_1", with: PaymentChanges()) {
            payment -> Payment in
            let seen = payment
            payment.status = .authorized
            payment.routing = RoutingDecision(ruleId: nil, ruleName: "rewritten", candidates: [], skipped: [])
            payment.paymentData = ["wallet": .string("rewritten")]
            return seen
        }
        // A transition is given the payment without its decision and data, and cannot replace them.
        #expect(seen.routing == nil)
        #expect(seen.paymentData.isEmpty)
        let record = try #require(try await s.payments.record(tenant: s.tenant, paymentId: "pay_1"))
        #expect(record.payment.status == .authorized)
        #expect(record.payment.routing == decision)
        #expect(record.payment.paymentData == payment.paymentData)
    }

    @Test(arguments: Backend.allCases)
    func anotherTenantSeesNothing(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_1")))
        let stranger = UUID()
        #expect(try await s.payments.record(tenant: stranger, paymentId: "pay_1") == nil)
        #expect(
            try await s.payments.records(tenant: stranger, reference: nil, startingAfter: nil, limit: 10).isEmpty)
        await #expect(throws: CoreError.self) {
            try await s.payments.transition(tenant: stranger, paymentId: "pay_1", with: PaymentChanges()) {
                $0.status = .failed
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func reserveRefundRefusesOverRefundCountingOpenRefunds(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_1", status: .succeeded)))
        try await s.payments.reserveRefund(s.refund("re_1", of: "pay_1", amount: 600))
        await #expect(throws: CoreError.self) {
            try await s.payments.reserveRefund(s.refund("re_2", of: "pay_1", amount: 500))
        }
        // A failed refund frees its amount; a succeeded one is counted in the payment's refunded amount.
        try await s.payments.commit(
            PaymentChanges(refunds: [s.refund("re_1", of: "pay_1", amount: 600, status: .failed)]))
        try await s.payments.reserveRefund(s.refund("re_3", of: "pay_1", amount: 1_000))
        try await s.payments.commit(
            PaymentChanges(refunds: [s.refund("re_3", of: "pay_1", amount: 1_000, status: .succeeded)]))
        #expect(try await s.payments.record(tenant: s.tenant, paymentId: "pay_1")?.payment.amountRefunded == 1_000)
        await #expect(throws: CoreError.self) {
            try await s.payments.reserveRefund(s.refund("re_4", of: "pay_1", amount: 1))
        }
        #expect(try await s.payments.refund(id: "re_4") == nil)
    }

    @Test(arguments: Backend.allCases)
    func concurrentReservationsNeverExceedTheCapturedAmount(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_1", status: .succeeded)))
        let subject = s
        let reserved = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<10 {
                group.addTask {
                    do {
                        try await subject.payments.reserveRefund(
                            subject.refund("re_\(index)", of: "pay_1", amount: 300))
                        return true
                    } catch is CoreError {
                        return false
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(reserved == 3)
    }

    @Test(arguments: Backend.allCases)
    func aFinalRefundStaysFinal(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.commit(PaymentChanges(payment: s.payment("pay_1", status: .succeeded)))
        var refund = s.refund("re_1", of: "pay_1", amount: 400, status: .succeeded)
        refund.providerRefundId = "psp-re"
        try await s.payments.commit(PaymentChanges(refunds: [refund]))
        var late = s.refund("re_1", of: "pay_1", amount: 400, status: .unknown)
        late.failureCode = "timeout"
        try await s.payments.commit(PaymentChanges(refunds: [late]))
        let stored = try #require(try await s.payments.refund(id: "re_1"))
        #expect(stored.status == .succeeded)
        #expect(stored.failureCode == nil)
        #expect(stored.providerRefundId == "psp-re")
        #expect(try await s.payments.record(tenant: s.tenant, paymentId: "pay_1")?.payment.amountRefunded == 400)
    }

    @Test(arguments: Backend.allCases)
    func knownOutcomesAndProviderIdsAreKept(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        var attempt = s.attempt("att_1", of: "pay_1")
        attempt.providerPaymentId = "psp-1"
        var capture = PaymentOperation(
            id: "cap_1", paymentId: "pay_1", tenantId: s.tenant, kind: .capture, amount: 100, createdAt: s.clock.date)
        capture.outcome = .succeeded
        try await s.payments.commit(
            PaymentChanges(payment: s.payment("pay_1"), attempts: [attempt], operations: [capture]))
        attempt.providerPaymentId = nil
        attempt.outcome = .unknown
        capture.outcome = .unknown
        try await s.payments.commit(PaymentChanges(attempts: [attempt], operations: [capture]))
        let record = try #require(try await s.payments.record(tenant: s.tenant, paymentId: "pay_1"))
        #expect(record.attempts.first?.providerPaymentId == "psp-1")
        #expect(record.attempts.first?.outcome == .unknown)
        #expect(record.operations.first?.outcome == .succeeded)
        #expect(try await s.payments.attempt(accountId: s.account, providerPaymentId: "psp-1")?.id == "att_1")
    }

    @Test(arguments: Backend.allCases)
    func listIsNewestFirstAndPages(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        for index in 0..<5 {
            try await s.payments.commit(PaymentChanges(payment: s.payment("pay_\(index)")))
            s.clock.advance(1)
        }
        let first = try await s.payments.records(tenant: s.tenant, reference: nil, startingAfter: nil, limit: 2)
        #expect(first.map(\.payment.id) == ["pay_4", "pay_3"])
        let next = try await s.payments.records(tenant: s.tenant, reference: nil, startingAfter: "pay_3", limit: 2)
        #expect(next.map(\.payment.id) == ["pay_2", "pay_1"])
        let named = try await s.payments.records(
            tenant: s.tenant, reference: "ref-pay_2", startingAfter: nil, limit: 9)
        #expect(named.map(\.payment.id) == ["pay_2"])
    }

    @Test(arguments: Backend.allCases)
    func overdueWaitingPaymentsAreClaimedAtTheirThresholdThenBackOff(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        let policy = OverdueNotifications()
        for id in ["pay_1", "pay_2"] {
            var waiting = s.payment(id, status: .requiresAction)
            waiting.providerAccountId = s.account
            try await s.payments.commit(PaymentChanges(payment: waiting, attempts: [s.attempt("att_\(id)", of: id)]))
        }
        let start = s.clock.date
        func claim(after seconds: TimeInterval, perAccount: Int = 5) async throws -> [String] {
            try await s.payments.claimOverdueWaiting(
                now: start.addingTimeInterval(seconds), thresholds: [s.account: 10], fallback: 60, policy: policy,
                perAccount: perAccount, limit: 10
            ).map(\.paymentId).sorted()
        }
        #expect(try await claim(after: 9).isEmpty)
        #expect(try await claim(after: 10, perAccount: 1) == ["pay_1"])
        #expect(try await claim(after: 10) == ["pay_2"])
        #expect(try await claim(after: 11).isEmpty)
        // The next inquiry comes at the threshold doubled: 20 s after the first.
        #expect(try await claim(after: 29).isEmpty)
        #expect(try await claim(after: 30) == ["pay_1", "pay_2"])
        #expect(try await claim(after: 59).isEmpty)
        #expect(try await claim(after: 60) == ["pay_1", "pay_2"])
        // An account without a threshold waits for the fallback.
        s.clock.advance(100)
        var late = s.payment("pay_3", status: .requiresAction)
        late.providerAccountId = s.account
        try await s.payments.commit(PaymentChanges(payment: late, attempts: [s.attempt("att_pay_3", of: "pay_3")]))
        func fallbackClaim(after seconds: TimeInterval) async throws -> [String] {
            try await s.payments.claimOverdueWaiting(
                now: start.addingTimeInterval(seconds), thresholds: [:], fallback: 200, policy: policy, perAccount: 5,
                limit: 10
            ).map(\.paymentId)
        }
        #expect(try await !fallbackClaim(after: 299).contains("pay_3"))
        #expect(try await fallbackClaim(after: 300).contains("pay_3"))
    }

    @Test(arguments: Backend.allCases)
    func notificationDelaysAreObservedByAccountWithinTheirWindow(_ backend: Backend) async throws {
        let s = try await ContractSubject.make(backend)
        try await s.payments.recordNotificationDelay(
            tenant: s.tenant, accountId: s.account, seconds: 40, at: s.clock.date)
        s.clock.advance(3_600)
        // Ten more, 1 s to 10 s: the nearest rank of the 90th percentile of all eleven is the tenth (10 s), of
        // the 50th the sixth (5 s); within the last minute only the ten count.
        for seconds in (1...10).reversed() {
            try await s.payments.recordNotificationDelay(
                tenant: s.tenant, accountId: s.account, seconds: TimeInterval(seconds), at: s.clock.date)
        }
        let everything = s.clock.date.addingTimeInterval(-7_200)
        let recent = s.clock.date.addingTimeInterval(-60)
        #expect(
            try await s.payments.observedNotificationDelays(since: everything, percentile: 90, minSamples: 5)
                == [s.account: 10])
        #expect(
            try await s.payments.observedNotificationDelays(since: everything, percentile: 100, minSamples: 5)
                == [s.account: 40])
        #expect(
            try await s.payments.observedNotificationDelays(since: recent, percentile: 50, minSamples: 5)
                == [s.account: 5])
        #expect(
            try await s.payments.observedNotificationDelays(since: recent, percentile: 100, minSamples: 5)
                == [s.account: 10])
        // Too few samples: no percentile of the account's own.
        #expect(try await s.payments.observedNotificationDelays(since: recent, percentile: 50, minSamples: 11) == [:])
        // Pruning deletes what is older than the cutoff, a batch at a time.
        #expect(try await s.payments.pruneNotificationDelays(before: recent, limit: 100) == 1)
        #expect(try await s.payments.pruneNotificationDelays(before: recent, limit: 100) == 0)
        #expect(
            try await s.payments.observedNotificationDelays(since: everything, percentile: 100, minSamples: 1)
                == [s.account: 10])
    }
}
