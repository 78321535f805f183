import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

/// A sync that proves the attempt never reached the provider fails an unknown payment cleanly (`not_sent`);
/// nothing else does, and nothing else is moved by it.
struct NotReceivedTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    let proof = NotFoundRule(delay: 60).outcome(
        provider: "Citcon", attemptStartedAt: Date(timeIntervalSince1970: 1_700_000_000),
        now: Date(timeIntervalSince1970: 1_700_000_060))

    func payment(_ status: PaymentStatus) -> Payment {
        Payment(
            id: "pay_1", tenantId: UUID(), amount: 1000, currency: "USD", country: "US", method: "alipay",
            reference: "order-1", captureMode: .automatic, customerId: nil, returnURL: nil, paymentData: [:],
            status: status, createdAt: t0)
    }

    func attempt(outcome: Outcome.Kind?, providerPaymentId: String? = nil) -> Attempt {
        var attempt = Attempt(
            id: "att_1", paymentId: "pay_1", tenantId: UUID(), accountId: UUID(), pluginId: "citcon", sequence: 1,
            reason: "first", startedAt: t0)
        attempt.outcome = outcome
        attempt.providerPaymentId = providerPaymentId
        return attempt
    }

    @Test func theRuleJudgesByTheAttemptsStart() {
        let rule = NotFoundRule(delay: 60)
        let early = rule.outcome(provider: "X", attemptStartedAt: t0, now: t0.addingTimeInterval(59.9))
        #expect(early.kind == .unknown && early.code == NotFoundRule.notFoundYetCode && !early.provesNotReceived)
        #expect(proof.kind == .notSent && proof.provesNotReceived)
        #expect(rule.outcome(provider: "X", attemptStartedAt: nil, now: t0).kind == .unknown)
        #expect(!Outcome.notSent("connection refused").provesNotReceived)
        #expect(NotFoundRule(options: ["not_found_delay_seconds": "0"], defaultDelay: 60).delay == 1)
        #expect(NotFoundRule(options: ["not_found_delay_seconds": " 90 "], defaultDelay: 60).delay == 90)
        #expect(NotFoundRule(options: [:], defaultDelay: 45).delay == 45)
    }

    @Test func anUnknownPaymentFailsNotSent() {
        var p = payment(.unknown)
        p.resolution = Payment.Resolution(since: t0)
        let actions = PaymentMachine.apply(.providerReported(proof), to: &p, at: t0)
        #expect(actions.isEmpty)
        #expect(p.status == .failed)
        #expect(p.failureCode == "not_sent")
        #expect(p.resolution == nil)
    }

    @Test func anyOtherNotSentLeavesAnUnknownPaymentToTheJanitor() {
        var p = payment(.unknown)
        let actions = PaymentMachine.apply(.providerReported(.notSent("sync not sent")), to: &p, at: t0)
        #expect(actions == [.scheduleSync])
        #expect(p.status == .unknown)
    }

    @Test(arguments: [PaymentStatus.requiresAction, .authorized, .processing, .succeeded, .canceled])
    func theProofMovesNoOtherState(status: PaymentStatus) {
        var p = payment(status)
        _ = PaymentMachine.apply(.providerReported(proof), to: &p, at: t0)
        #expect(p.status == status)
    }

    @Test func theProofHoldsOnlyForAnOpenAttemptTheProviderNeverNamed() {
        #expect(PaymentService.judgedNotReceived(proof, attempt: attempt(outcome: .unknown)).provesNotReceived)
        #expect(PaymentService.judgedNotReceived(proof, attempt: attempt(outcome: nil)).provesNotReceived)
        let named = PaymentService.judgedNotReceived(
            proof, attempt: attempt(outcome: .unknown, providerPaymentId: "c1"))
        #expect(named.kind == .unknown)
        let settled = PaymentService.judgedNotReceived(proof, attempt: attempt(outcome: .authorized))
        #expect(settled.kind == .unknown)
    }
}
