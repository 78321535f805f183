import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

struct PaymentMachineTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    func machine(status: PaymentStatus = .processing, amount: Int64 = 1000) -> PaymentMachine {
        PaymentMachine(
            payment: Payment(
                id: "pay_1", tenantId: UUID(), amount: amount, currency: "USD", country: "US", method: "alipay",
                reference: "order-1", captureMode: .automatic, customerId: nil, returnURL: nil, paymentData: [:],
                status: status, createdAt: t0))
    }

    @Test func aResultWithoutCapturedAmountOnlyConfirmsAManualAuthorisation() {
        var manual = machine(status: .authorized).payment
        manual.captureMode = .manual
        var m = PaymentMachine(payment: manual)
        _ = m.handle(.providerReported(Outcome(kind: .succeeded, providerPaymentId: "p1")), at: t0)
        #expect(m.payment.status == .authorized)
        #expect(m.payment.amountCaptured == 0)
        var captured = Outcome(kind: .succeeded, providerPaymentId: "p1")
        captured.capturedAmount = 1000
        _ = m.handle(.providerReported(captured), at: t0)
        #expect(m.payment.status == .succeeded)
        #expect(m.payment.amountCaptured == 1000)

        var automatic = machine(status: .requiresAction)
        _ = automatic.handle(.providerReported(Outcome(kind: .succeeded, providerPaymentId: "p2")), at: t0)
        #expect(automatic.payment.status == .succeeded)
        #expect(automatic.payment.amountCaptured == 1000)
    }

    @Test func aLateAuthorizeAnswerNeverMovesASettledPaymentBack() {
        // The janitor's sync settled the payment while the create's call was still out.
        var paid = machine(status: .succeeded).payment
        paid.amountCaptured = 1000
        var settled = PaymentMachine(payment: paid)
        #expect(settled.handle(.authorizeFinished(.unknown("timeout"), moreCandidates: true), at: t0).isEmpty)
        #expect(settled.payment.status == .succeeded)
        #expect(settled.handle(.authorizeFinished(.notSent("refused"), moreCandidates: true), at: t0).isEmpty)
        #expect(settled.payment.status == .succeeded)

        // A notification asked the customer to act; a late "not sent" tries no other account.
        var waiting = machine(status: .requiresAction)
        #expect(waiting.handle(.authorizeFinished(.notSent("refused"), moreCandidates: true), at: t0).isEmpty)
        #expect(waiting.payment.status == .requiresAction)

        // Marked unknown meanwhile: a late timeout keeps it for the sync, a late definite answer settles it.
        var unknown = machine(status: .unknown)
        #expect(
            unknown.handle(.authorizeFinished(.unknown("timeout"), moreCandidates: true), at: t0) == [.scheduleSync])
        _ = unknown.handle(
            .authorizeFinished(Outcome(kind: .succeeded, providerPaymentId: "p1"), moreCandidates: false), at: t0)
        #expect(unknown.payment.status == .succeeded)
    }

    @Test func aRetryableDeclineFailsOverOnlyWhereTheTenantAllowsIt() {
        let retryable = Outcome.declined(code: "A1", message: "soft decline", retryable: true)
        var allowed = machine()
        #expect(
            allowed.handle(.authorizeFinished(retryable, moreCandidates: true, retryDeclines: true), at: t0) == [
                .tryNextCandidate
            ])
        #expect(allowed.payment.status == .processing)
        var refused = machine()
        #expect(refused.handle(.authorizeFinished(retryable, moreCandidates: true), at: t0).isEmpty)
        #expect(refused.payment.status == .failed)
        var definitive = machine()
        let hard = Outcome.declined(code: "05", message: "do not honour", retryable: false)
        #expect(definitive.handle(.authorizeFinished(hard, moreCandidates: true, retryDeclines: true), at: t0).isEmpty)
        #expect(definitive.payment.failureCode == "05")
        var last = machine()
        #expect(last.handle(.authorizeFinished(retryable, moreCandidates: false, retryDeclines: true), at: t0).isEmpty)
        #expect(last.payment.status == .failed)
    }

    @Test func aReviewFlaggedWhileTheCustomerActsStaysUntilThePaymentMovesOn() {
        var m = machine(status: .requiresAction)
        var flagged = m.payment
        flagged.resolution = Payment.Resolution(since: t0, reviewRequired: true)
        m = PaymentMachine(payment: flagged)
        _ = m.handle(.providerReported(Outcome(kind: .pending, providerPaymentId: "p")), at: t0.addingTimeInterval(5))
        #expect(m.payment.status == .requiresAction)
        #expect(m.payment.resolution == Payment.Resolution(since: t0, reviewRequired: true))
        _ = m.handle(.providerReported(.unknown("timeout")), at: t0.addingTimeInterval(7))
        #expect(m.payment.status == .requiresAction)
        #expect(m.payment.resolution?.reviewRequired == true, "an unanswered sync clears nothing")
        _ = m.handle(.providerReported(Outcome(kind: .succeeded, providerPaymentId: "p")), at: t0.addingTimeInterval(9))
        #expect(m.payment.status == .succeeded)
        #expect(m.payment.resolution == nil)
    }

    @Test func anUnknownOutcomeNeverFailsOverAndStartsTheJanitorsBookkeeping() {
        var m = machine()
        #expect(
            m.handle(.authorizeFinished(.unknown("timeout"), moreCandidates: true, retryDeclines: true), at: t0) == [
                .scheduleSync
            ])
        #expect(m.payment.resolution == Payment.Resolution(since: t0))
        _ = m.handle(.providerReported(.unknown("still")), at: t0.addingTimeInterval(5))
        #expect(m.payment.resolution?.since == t0)
        _ = m.handle(.providerReported(Outcome(kind: .succeeded, providerPaymentId: "p")), at: t0.addingTimeInterval(9))
        #expect(m.payment.status == .succeeded)
        #expect(m.payment.resolution == nil)
    }

    @Test func notSentWithMoreCandidatesFailsOver() {
        var m = machine()
        let actions = m.handle(.authorizeFinished(.notSent("refused"), moreCandidates: true), at: t0)
        #expect(actions == [.tryNextCandidate])
        #expect(m.payment.status == .processing)
    }

    @Test func notSentOnLastCandidateFailsWithoutCharge() {
        var m = machine()
        let actions = m.handle(.authorizeFinished(.notSent("refused"), moreCandidates: false), at: t0)
        #expect(actions.isEmpty)
        #expect(m.payment.status == .failed)
        #expect(m.payment.failureCode == "provider_unreachable")
    }

    @Test func unknownNeverFailsOverAndSchedulesSync() {
        var m = machine()
        let actions = m.handle(.authorizeFinished(.unknown("read timeout"), moreCandidates: true), at: t0)
        #expect(actions == [.scheduleSync])
        #expect(m.payment.status == .unknown)
    }

    @Test func declineNeverFailsOver() {
        var m = machine()
        let actions = m.handle(
            .authorizeFinished(.declined(code: "4021", message: "declined"), moreCandidates: true), at: t0)
        #expect(actions.isEmpty)
        #expect(m.payment.status == .failed)
        #expect(m.payment.failureCode == "4021")
    }

    @Test func pendingKeepsNextAction() {
        var m = machine()
        let next = NextAction(type: "citcon_sdk", data: ["charge_token": .string("abc")])
        _ = m.handle(.authorizeFinished(Outcome(kind: .pending, nextAction: next), moreCandidates: false), at: t0)
        #expect(m.payment.status == .requiresAction)
        #expect(m.payment.nextAction == next)
    }

    @Test func syncResolvesUnknownToSucceeded() {
        var m = machine(status: .unknown)
        let actions = m.handle(.providerReported(Outcome(kind: .succeeded, capturedAmount: 1000)), at: t0)
        #expect(actions.isEmpty)
        #expect(m.payment.status == .succeeded)
        #expect(m.payment.amountCaptured == 1000)
    }

    @Test func syncStillUnknownReschedules() {
        var m = machine(status: .unknown)
        #expect(m.handle(.providerReported(.unknown("still processing")), at: t0) == [.scheduleSync])
        #expect(m.payment.status == .unknown)
    }

    @Test func finalStatesNeverMoveBack() {
        var m = machine(status: .succeeded)
        _ = m.handle(.providerReported(Outcome(kind: .pending)), at: t0)
        _ = m.handle(.providerReported(.declined(code: "x", message: "late")), at: t0)
        _ = m.handle(.providerReported(Outcome(kind: .authorized)), at: t0)
        #expect(m.payment.status == .succeeded)
        var canceled = machine(status: .canceled)
        _ = canceled.handle(.providerReported(Outcome(kind: .succeeded)), at: t0)
        #expect(canceled.payment.status == .canceled)
    }

    @Test func lateAuthorizedDoesNotUndoCapture() {
        var m = machine(status: .requiresAction)
        _ = m.handle(.providerReported(Outcome(kind: .succeeded)), at: t0)
        _ = m.handle(.providerReported(Outcome(kind: .authorized)), at: t0)
        #expect(m.payment.status == .succeeded)
    }

    @Test func captureAccumulatesAndValidates() throws {
        var m = machine(status: .authorized)
        #expect(throws: CoreError.self) { try m.validateCapture(amount: 1001) }
        #expect(throws: CoreError.self) { try m.validateCapture(amount: 0) }
        try m.validateCapture(amount: 600)
        _ = m.handle(.captureFinished(amount: 600, Outcome(kind: .succeeded)), at: t0)
        #expect(m.payment.status == .succeeded)
        #expect(m.payment.amountCaptured == 600)
    }

    @Test func captureDeclineReportedAndStateKept() {
        var m = machine(status: .authorized)
        let actions = m.handle(.captureFinished(amount: 100, .declined(code: "4201", message: "no")), at: t0)
        #expect(actions == [.reportDecline(code: "4201", message: "no")])
        #expect(m.payment.status == .authorized)
    }

    @Test func unknownCaptureMakesThePaymentUnknownUntilSynced() {
        var m = machine(status: .authorized)
        #expect(m.handle(.captureFinished(amount: 1000, .unknown("read timeout")), at: t0) == [.scheduleSync])
        #expect(m.payment.status == .unknown)
        #expect(throws: CoreError.self) { try m.validateCapture(amount: 1000) }
        _ = m.handle(.providerReported(Outcome(kind: .succeeded, capturedAmount: 1000)), at: t0)
        #expect(m.payment.status == .succeeded)
        #expect(m.payment.amountCaptured == 1000)
    }

    @Test func voidOnlyBeforeCapture() throws {
        try machine(status: .authorized).validateVoid()
        try machine(status: .requiresAction).validateVoid()
        #expect(throws: CoreError.self) { try machine(status: .succeeded).validateVoid() }
        var m = machine(status: .authorized)
        _ = m.handle(.voidFinished(Outcome(kind: .succeeded)), at: t0)
        #expect(m.payment.status == .canceled)
    }

    @Test func captureReportedByANotificationFirstIsNotCountedTwice() {
        var m = machine(status: .authorized)
        _ = m.handle(.providerReported(Outcome(kind: .succeeded, capturedAmount: 1000)), at: t0)
        #expect(m.handle(.captureFinished(amount: 1000, Outcome(kind: .succeeded)), at: t0).isEmpty)
        #expect(m.payment.amountCaptured == 1000)
        _ = m.handle(.captureFinished(amount: 1000, .unknown("late timeout")), at: t0)
        #expect(m.payment.status == .succeeded, "a late unknown never undoes a settled payment")
    }

    @Test func refundsNeverExceedCaptured() throws {
        var m = machine(status: .requiresAction)
        _ = m.handle(.providerReported(Outcome(kind: .succeeded, capturedAmount: 1000)), at: t0)
        try m.validateRefund(amount: 400, pendingRefunds: 0)
        var p = m.payment
        p.amountRefunded = 400
        m = PaymentMachine(payment: p)
        try m.validateRefund(amount: 600, pendingRefunds: 0)
        #expect(throws: CoreError.self) { try m.validateRefund(amount: 601, pendingRefunds: 0) }
        #expect(throws: CoreError.self) { try m.validateRefund(amount: 300, pendingRefunds: 400) }
        #expect(throws: CoreError.self) {
            try machine(status: .authorized).validateRefund(amount: 1, pendingRefunds: 0)
        }
    }

    @Test func absurdAmountsAProviderReportsStayWithinThePayment() throws {
        // A negative captured amount used to make the refundable remainder overflow (and trap).
        var negative = machine(status: .requiresAction)
        _ = negative.handle(.providerReported(Outcome(kind: .succeeded, capturedAmount: Int64.min)), at: t0)
        #expect(negative.payment.amountCaptured == 0)
        #expect(throws: CoreError.self) { try negative.validateRefund(amount: 1, pendingRefunds: 0) }
        var p = negative.payment
        p.amountRefunded = 1
        #expect(throws: CoreError.self) { try PaymentMachine(payment: p).validateRefund(amount: 1, pendingRefunds: 1) }

        var huge = machine(status: .requiresAction)
        _ = huge.handle(.providerReported(Outcome(kind: .succeeded, capturedAmount: Int64.max)), at: t0)
        #expect(huge.payment.amountCaptured == 1000)
        _ = huge.handle(.providerReported(Outcome(kind: .succeeded, capturedAmount: Int64.max)), at: t0)
        #expect(huge.payment.amountCaptured == 1000)
        try huge.validateRefund(amount: 1000, pendingRefunds: 0)
    }

    @Test func everyOutcomeFromEveryOpenStateIsHandled() {
        let outcomes: [Outcome] = [
            Outcome(kind: .succeeded), Outcome(kind: .authorized), Outcome(kind: .pending),
            .declined(code: "d", message: "d"),
            Outcome(kind: .canceled), .notSent("n"), .unknown("u"), .authExpired,
        ]
        for status in PaymentStatus.allCases {
            for outcome in outcomes {
                var m = machine(status: status)
                _ = m.handle(.providerReported(outcome), at: t0)
                if status.isFinal { #expect(m.payment.status == status) }
                if outcome.kind == .notSent || outcome.kind == .unknown || outcome.kind == .authExpired {
                    #expect(m.payment.status == status, "a non-answer never changes the status")
                }
            }
        }
    }

    @Test func completeNeedsALiveSessionAndKeepsThePaymentOnNotSent() throws {
        var m = machine(status: .requiresAction)
        #expect(throws: CoreError.self) { try m.validateComplete(at: t0) }  // no next action
        _ = m.handle(
            .authorizeFinished(
                Outcome(
                    kind: .pending, nextAction: NextAction(type: "s", data: [:], expiresAt: t0.addingTimeInterval(60))),
                moreCandidates: false),
            at: t0)
        try m.validateComplete(at: t0)
        #expect {
            try m.validateComplete(at: t0.addingTimeInterval(61))
        } throws: { ($0 as? CoreError)?.code == .sessionExpired }
        #expect(m.handle(.completeFinished(.notSent("refused")), at: t0).isEmpty)
        #expect(m.payment.status == .requiresAction)
        #expect(m.handle(.completeFinished(.unknown("timeout")), at: t0) == [.scheduleSync])
        #expect(m.payment.status == .unknown)
        var done = machine(status: .requiresAction)
        _ = done.handle(.completeFinished(Outcome(kind: .authorized)), at: t0)
        #expect(done.payment.status == .authorized)
    }
}
