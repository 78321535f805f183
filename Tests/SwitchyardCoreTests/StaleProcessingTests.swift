import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

struct StaleProcessingTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    let rule = StaleProcessing(deadline: 30)

    func payment(_ status: PaymentStatus = .processing, updatedAt: Date? = nil) -> Payment {
        var p = Payment(
            id: "pay_1", tenantId: UUID(), amount: 1000, currency: "USD", country: "US", method: "alipay",
            reference: "order-1", captureMode: .automatic, customerId: nil, returnURL: nil, paymentData: [:],
            status: status, createdAt: t0)
        p.updatedAt = updatedAt ?? t0
        return p
    }

    func attempt(startedAt: Date, outcome: Outcome.Kind? = nil) -> Attempt {
        var a = Attempt(
            id: "att_1", paymentId: "pay_1", tenantId: UUID(), accountId: UUID(), pluginId: "citcon", sequence: 1,
            reason: "first", startedAt: startedAt)
        a.outcome = outcome
        return a
    }

    @Test func aPaymentWithoutAttemptFailsOnlyOnceItsDeadlinePassed() {
        #expect(rule.action(for: payment(), lastAttempt: nil, now: t0.addingTimeInterval(29)) == .wait)
        #expect(rule.action(for: payment(), lastAttempt: nil, now: t0.addingTimeInterval(30)) == .failNotSent)
    }

    @Test func anAttemptWithoutOutcomeIsResolvedWithTheProviderAfterItsOwnDeadline() {
        // The attempt started 20 s after the payment's last update: its deadline counts from its start.
        let live = attempt(startedAt: t0.addingTimeInterval(20))
        #expect(rule.action(for: payment(), lastAttempt: live, now: t0.addingTimeInterval(40)) == .wait)
        #expect(rule.action(for: payment(), lastAttempt: live, now: t0.addingTimeInterval(50)) == .resolveWithProvider)
        let unknown = attempt(startedAt: t0, outcome: .unknown)
        #expect(
            rule.action(for: payment(), lastAttempt: unknown, now: t0.addingTimeInterval(31)) == .resolveWithProvider)
    }

    @Test func aLaterUpdateOfThePaymentRestartsTheDeadline() {
        let p = payment(updatedAt: t0.addingTimeInterval(100))
        #expect(rule.action(for: p, lastAttempt: attempt(startedAt: t0), now: t0.addingTimeInterval(120)) == .wait)
        #expect(rule.expiry(of: p, lastAttempt: attempt(startedAt: t0)) == t0.addingTimeInterval(130))
    }

    @Test func aFailoverThatNeverStartedItsNextAttemptFails() {
        for outcome: Outcome.Kind in [.notSent, .authExpired, .declined] {
            let last = attempt(startedAt: t0, outcome: outcome)
            #expect(rule.action(for: payment(), lastAttempt: last, now: t0.addingTimeInterval(60)) == .failNotSent)
        }
        for outcome: Outcome.Kind in [.pending, .succeeded, .authorized] {
            let last = attempt(startedAt: t0, outcome: outcome)
            #expect(
                rule.action(for: payment(), lastAttempt: last, now: t0.addingTimeInterval(60)) == .resolveWithProvider)
        }
    }

    @Test func onlyProcessingPaymentsAreTouched() {
        for status in PaymentStatus.allCases where status != .processing {
            #expect(rule.action(for: payment(status), lastAttempt: nil, now: t0.addingTimeInterval(1_000)) == .wait)
        }
    }

    @Test func theDeadlineIsTwiceTheProviderTimeout() {
        var policy = PlatformPolicy()
        policy.limits.providerTimeoutMs = 4_000
        #expect(StaleProcessing(policy: policy).deadline == 8)
    }
}
