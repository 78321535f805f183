import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

/// Every refund state against every event: the allowed moves, and the refusals that keep a final refund final.
struct RefundMachineTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    let t1 = Date(timeIntervalSince1970: 1_700_000_060)
    let tenant = UUID()

    static let states: [Refund.Status] = [.pending, .unknown, .succeeded, .failed]
    static let kinds: [Outcome.Kind] = [
        .succeeded, .authorized, .pending, .declined, .canceled, .notSent, .unknown, .authExpired,
    ]

    func refund(_ status: Refund.Status) -> Refund {
        var r = Refund(
            id: "re_1", paymentId: "pay_1", tenantId: tenant, amount: 500, currency: "USD", reason: nil, createdAt: t0)
        r.status = status
        return r
    }

    func outcome(_ kind: Outcome.Kind) -> Outcome {
        Outcome(kind: kind, providerPaymentId: "prv_re_1", code: "CODE_\(kind.rawValue)", message: "said \(kind)")
    }

    /// Every event the machine knows, each outcome class for the events that carry one.
    var events: [RefundMachine.Event] {
        Self.kinds.flatMap { kind in
            [.providerAnswered(outcome(kind)), .notified(outcome(kind)), .inquiryAnswered(outcome(kind))]
        } + [.provenByRefundedTotal, .gaveUp(reason: "unresolved_at_horizon")]
    }

    /// The status an open refund takes, written out by hand (nil: it stays as it is).
    func expectedStatus(_ event: RefundMachine.Event) -> Refund.Status? {
        switch event {
        case .providerAnswered(let o):
            switch o.kind {
            case .succeeded: return .succeeded
            case .authorized, .pending: return .pending
            case .declined, .canceled, .notSent, .authExpired: return .failed
            case .unknown: return .unknown
            }
        case .notified(let o):
            switch o.kind {
            case .succeeded: return .succeeded
            case .declined, .canceled: return .failed
            default: return nil
            }
        case .inquiryAnswered(let o):
            switch o.kind {
            case .succeeded: return .succeeded
            case .declined, .canceled: return .failed
            case .pending, .authorized: return .pending
            case .unknown, .notSent, .authExpired: return nil
            }
        case .provenByRefundedTotal:
            return .succeeded
        case .gaveUp:
            return nil
        }
    }

    /// The actions an open refund in `state` gets for `event`, written out by hand.
    func expectedActions(_ event: RefundMachine.Event, from state: Refund.Status) -> [RefundMachine.Action] {
        if case .gaveUp(let reason) = event { return [.listForReview(reason)] }
        let expected = expectedStatus(event) ?? state
        var wanted: [RefundMachine.Action] = []
        if expected != state { wanted.append(.announce(expected)) }
        if expected == .pending || expected == .unknown { wanted.append(.syncLater) }
        return wanted
    }

    @Test func everyStateAgainstEveryEvent() {
        for state in Self.states {
            for event in events {
                var machine = RefundMachine(refund: refund(state))
                let actions = machine.handle(event, at: t1)
                let after = machine.refund.status
                if state == .succeeded || state == .failed {
                    #expect(after == state, "final \(state) refused \(event)")
                    #expect(actions.isEmpty, "\(state) × \(event)")
                    continue
                }
                let expected = expectedStatus(event) ?? state
                #expect(after == expected, "\(state) × \(event)")
                #expect(actions == expectedActions(event, from: state), "\(state) × \(event)")
                #expect((machine.refund.updatedAt == t1) == (machine.refund != refund(state)), "\(state) × \(event)")
            }
        }
    }

    @Test func aFinalRefundChangesNothingButLearnsTheProvidersIdOnce() {
        for state in [Refund.Status.succeeded, .failed] {
            var original = refund(state)
            original.failureCode = state == .failed ? "declined" : nil
            for event in events {
                var machine = RefundMachine(refund: original)
                _ = machine.handle(event, at: t1)
                var expected = original
                if case .providerAnswered = event {
                    expected.providerRefundId = "prv_re_1"
                    expected.updatedAt = t1
                }
                #expect(machine.refund == expected, "\(state) × \(event)")
            }
            var known = original
            known.providerRefundId = "prv_first"
            #expect(RefundMachine.apply(.providerAnswered(outcome(.succeeded)), to: &known, at: t1).isEmpty)
            #expect(known.providerRefundId == "prv_first")
        }
    }

    @Test func failuresCarryTheirCodes() {
        var declined = refund(.pending)
        _ = RefundMachine.apply(.providerAnswered(outcome(.declined)), to: &declined, at: t1)
        #expect(declined.failureCode == "CODE_declined")
        #expect(declined.failureMessage == "said declined")

        var unsent = refund(.pending)
        _ = RefundMachine.apply(.providerAnswered(.notSent("down")), to: &unsent, at: t1)
        #expect(unsent.failureCode == "provider_unreachable")

        var bare = refund(.pending)
        _ = RefundMachine.apply(.providerAnswered(Outcome(kind: .declined)), to: &bare, at: t1)
        #expect(bare.failureCode == "declined")

        var asked = refund(.unknown)
        _ = RefundMachine.apply(
            .inquiryAnswered(.declined(code: "ORDER_NOT_EXIST", message: "none")), to: &asked, at: t1)
        #expect(asked.status == .failed)
        #expect(asked.failureCode == "ORDER_NOT_EXIST")
        #expect(asked.providerRefundId == nil)

        // A notification's failure keeps the refund's own code (it names none).
        var notified = refund(.pending)
        _ = RefundMachine.apply(.notified(outcome(.declined)), to: &notified, at: t1)
        #expect(notified.status == .failed)
        #expect(notified.failureCode == nil)
    }

    @Test func theProvidersRefundIdIsKept() {
        var answered = refund(.pending)
        _ = RefundMachine.apply(
            .providerAnswered(.unknown("timeout", providerPaymentId: "prv_9")), to: &answered, at: t1)
        #expect(answered.providerRefundId == "prv_9")
        _ = RefundMachine.apply(.inquiryAnswered(outcome(.succeeded)), to: &answered, at: t1)
        #expect(answered.status == .succeeded)
        #expect(answered.providerRefundId == "prv_9", "an inquiry never replaces a known id")
    }

    @Test func aLostAnswerThenTheInquiryThenALateNotification() {
        // The refund call times out; the janitor's inquiry settles it; the provider's late notification
        // and a repeated inquiry change nothing more.
        var r = refund(.pending)
        #expect(
            RefundMachine.apply(.providerAnswered(.unknown("timeout")), to: &r, at: t0) == [
                .announce(.unknown), .syncLater,
            ])
        #expect(RefundMachine.apply(.inquiryAnswered(.unknown("busy")), to: &r, at: t0) == [.syncLater])
        #expect(
            RefundMachine.apply(.inquiryAnswered(outcome(.pending)), to: &r, at: t0) == [
                .announce(.pending), .syncLater,
            ])
        #expect(RefundMachine.apply(.inquiryAnswered(outcome(.succeeded)), to: &r, at: t1) == [.announce(.succeeded)])
        #expect(RefundMachine.apply(.notified(outcome(.declined)), to: &r, at: t1).isEmpty)
        #expect(RefundMachine.apply(.inquiryAnswered(outcome(.declined)), to: &r, at: t1).isEmpty)
        #expect(r.status == .succeeded)
    }

    @Test func givingUpListsAnOpenRefundForReviewAndChangesNothingElse() {
        for state in [Refund.Status.pending, .unknown] {
            var open = refund(state)
            open.providerRefundId = "prv_open"
            let before = open
            #expect(
                RefundMachine.apply(.gaveUp(reason: "refund_inquiry_unsupported"), to: &open, at: t1) == [
                    .listForReview("refund_inquiry_unsupported")
                ])
            #expect(open == before, "no status, id or time changes: \(state)")
            // A later answer still settles a refund listed for review.
            #expect(RefundMachine.apply(.notified(outcome(.succeeded)), to: &open, at: t1) == [.announce(.succeeded)])
            #expect(open.status == .succeeded)
            // Giving up on a final refund lists nothing.
            #expect(RefundMachine.apply(.gaveUp(reason: "unresolved_at_horizon"), to: &open, at: t1).isEmpty)
        }
    }
}
