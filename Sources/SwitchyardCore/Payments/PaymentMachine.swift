import Foundation
import ProviderKit

/// The payment state machine: a pure value type. Events go in, the new payment state and the
/// actions to carry out come out. No I/O, no clock of its own.
public struct PaymentMachine: Sendable, Equatable {
    /// Something that happened to the payment.
    public enum Event: Sendable, Equatable {
        /// An authorize attempt ended; `moreCandidates` tells whether another account could be tried,
        /// `retryDeclines` whether the tenant fails over on declines the provider marks retryable.
        case authorizeFinished(Outcome, moreCandidates: Bool, retryDeclines: Bool = false)
        /// The provider reported the payment's state (verified notification or sync).
        case providerReported(Outcome)
        /// A capture of `amount` ended.
        case captureFinished(amount: Int64, Outcome)
        /// A cancellation ended.
        case voidFinished(Outcome)
        /// The step that finishes a payment with the customer app's output ended.
        case completeFinished(Outcome)
    }

    /// What the caller must do next.
    public enum Action: Sendable, Equatable {
        /// Try the next candidate account (only after `notSent`, or a retryable decline where allowed).
        case tryNextCandidate
        /// The outcome is unknown: resolve it by sync, never by charging again.
        case scheduleSync
        /// Tell the operation's caller it was refused, with the provider's code.
        case reportDecline(code: String, message: String)
    }

    public private(set) var payment: Payment

    public init(payment: Payment) {
        self.payment = payment
    }

    /// Applies an event at `time`; returns the actions to carry out.
    public mutating func handle(_ event: Event, at time: Date) -> [Action] {
        let before = payment.status
        defer {
            payment.updatedAt = time
            // The janitor's bookkeeping lives exactly as long as the outcome is unknown; a review flagged
            // while the customer's action was pending at the horizon stays while it still is.
            if payment.status == .unknown {
                if payment.resolution == nil || before != .unknown {
                    payment.resolution = Payment.Resolution(since: time)
                }
            } else if payment.status != .requiresAction || before != .requiresAction {
                payment.resolution = nil
            }
        }
        switch event {
        case .authorizeFinished(let outcome, let moreCandidates, let retryDeclines):
            return authorizeFinished(outcome, moreCandidates: moreCandidates, retryDeclines: retryDeclines)
        case .providerReported(let outcome):
            return providerReported(outcome)
        case .captureFinished(let amount, let outcome):
            return captureFinished(amount: amount, outcome)
        case .voidFinished(let outcome):
            return voidFinished(outcome)
        case .completeFinished(let outcome):
            return completeFinished(outcome)
        }
    }

    private mutating func authorizeFinished(_ outcome: Outcome, moreCandidates: Bool, retryDeclines: Bool)
        -> [Action]
    {
        // The payment moved on while the call was out (a notification or the janitor's sync settled it):
        // the late answer is one more report of the provider's state, never a step back or a reason to fail over.
        guard payment.status == .processing else { return providerReported(outcome) }
        switch outcome.kind {
        case .declined where retryDeclines && outcome.retryable == true && moreCandidates:
            payment.status = .processing
            return [.tryNextCandidate]
        case .notSent, .authExpired:
            if moreCandidates {
                payment.status = .processing
                return [.tryNextCandidate]
            }
            payment.status = .failed
            payment.failureCode = "provider_unreachable"
            payment.failureMessage = "no provider could be reached; nothing was charged"
            return []
        case .unknown:
            payment.status = .unknown
            return [.scheduleSync]
        default:
            apply(outcome)
            return []
        }
    }

    private mutating func providerReported(_ reported: Outcome) -> [Action] {
        var outcome = reported
        if payment.captureMode == .manual, outcome.kind == .succeeded, outcome.capturedAmount == nil,
            payment.amountCaptured == 0
        {
            // A payment result that names no captured amount confirms a manual-capture payment's
            // authorisation; only a capture (ours, or one the provider reports with its amount) takes money.
            outcome.kind = .authorized
        }
        switch outcome.kind {
        case .notSent where outcome.provesNotReceived && payment.status == .unknown && payment.amountCaptured == 0:
            // The provider confirms it never received the attempt: nothing can have been charged.
            payment.status = .failed
            payment.failureCode = StaleProcessing.notSentCode
            payment.failureMessage = outcome.message ?? "the payment never reached the provider; nothing was charged"
            payment.nextAction = nil
            return []
        case .notSent, .authExpired, .unknown:
            return payment.status == .unknown ? [.scheduleSync] : []
        default:
            apply(outcome)
            return []
        }
    }

    /// An amount a provider reports, kept within what the payment can hold (0 to its amount): a provider's
    /// figure is never trusted to be sane, and later arithmetic on the payment must not overflow.
    private func reported(_ amount: Int64) -> Int64 {
        min(max(amount, 0), payment.amount)
    }

    /// Moves to the state a definite provider outcome describes; final states never move back.
    private mutating func apply(_ outcome: Outcome) {
        if payment.status.isFinal {
            // A final state only learns amounts (a late capture report after success, say).
            if payment.status == .succeeded, let captured = outcome.capturedAmount {
                payment.amountCaptured = max(payment.amountCaptured, reported(captured))
            }
            return
        }
        switch outcome.kind {
        case .succeeded:
            payment.status = .succeeded
            payment.amountCaptured = reported(outcome.capturedAmount ?? outcome.amount ?? payment.amount)
            payment.nextAction = nil
        case .authorized:
            payment.status = .authorized
            payment.nextAction = nil
        case .pending:
            if payment.status != .authorized {
                payment.status = .requiresAction
                if let nextAction = outcome.nextAction { payment.nextAction = nextAction }
            }
        case .declined:
            payment.status = .failed
            payment.failureCode = outcome.code ?? "declined"
            payment.failureMessage = outcome.message ?? "declined by the provider"
            payment.nextAction = nil
        case .canceled:
            payment.status = .canceled
            payment.nextAction = nil
        case .notSent, .unknown, .authExpired:
            break
        }
    }

    private mutating func completeFinished(_ outcome: Outcome) -> [Action] {
        if payment.status.isFinal { return [] }
        switch outcome.kind {
        case .notSent, .authExpired:
            // Nothing reached the provider: the customer can try again while the session lives.
            return []
        case .unknown:
            payment.status = .unknown
            return [.scheduleSync]
        default:
            apply(outcome)
            return []
        }
    }

    private mutating func captureFinished(amount: Int64, _ outcome: Outcome) -> [Action] {
        if payment.status.isFinal {
            // A report of this capture (a notification) arrived first and already settled the payment.
            return []
        }
        switch outcome.kind {
        case .succeeded:
            payment.amountCaptured = min(payment.amount, payment.amountCaptured + amount)
            payment.status = .succeeded
            return []
        case .declined:
            return [.reportDecline(code: outcome.code ?? "declined", message: outcome.message ?? "capture refused")]
        case .unknown:
            // The capture may have happened: nothing moves money again until a sync says what is true.
            payment.status = .unknown
            return [.scheduleSync]
        default:
            return []
        }
    }

    private mutating func voidFinished(_ outcome: Outcome) -> [Action] {
        if payment.status.isFinal { return [] }
        switch outcome.kind {
        case .succeeded, .canceled:
            payment.status = .canceled
            payment.nextAction = nil
            return []
        case .declined:
            return [.reportDecline(code: outcome.code ?? "declined", message: outcome.message ?? "cancel refused")]
        case .unknown:
            return [.scheduleSync]
        default:
            return []
        }
    }
}

extension PaymentMachine {
    /// Applies `event` to `payment` in place; returns the actions.
    public static func apply(_ event: Event, to payment: inout Payment, at time: Date) -> [Action] {
        var machine = PaymentMachine(payment: payment)
        let actions = machine.handle(event, at: time)
        payment = machine.payment
        return actions
    }

    /// Checks that `amount` can be captured now.
    public func validateCapture(amount: Int64) throws {
        guard payment.status == .authorized else {
            throw CoreError(
                .invalidState, "only an authorized payment can be captured (status \(payment.status.rawValue))")
        }
        guard amount > 0, amount <= payment.amount - payment.amountCaptured else {
            throw CoreError(
                .invalidAmount, "capture amount must be between 1 and \(payment.amount - payment.amountCaptured)")
        }
    }

    /// Checks that the payment waits for the customer's app and its session is still usable at `now`.
    public func validateComplete(at now: Date) throws {
        guard payment.status == .requiresAction, let action = payment.nextAction else {
            throw CoreError(
                .invalidState,
                "only a payment waiting for the customer's app can be completed (status \(payment.status.rawValue))")
        }
        if ClientSession.status(of: action, at: now) == .expired {
            throw CoreError.sessionExpired(renewable: action.renewable == true)
        }
    }

    /// Checks that the payment can be cancelled now.
    public func validateVoid() throws {
        switch payment.status {
        case .requiresAction, .authorized: return
        default:
            throw CoreError(
                .invalidState, "a payment with status \(payment.status.rawValue) cannot be canceled")
        }
    }

    /// Checks that `amount` can be refunded now, given refunds still pending at the provider, and returns
    /// the amount to refund: `amount`, or the whole remainder when the request names none.
    @discardableResult
    public func validateRefund(amount: Int64?, pendingRefunds: Int64) throws -> Int64 {
        guard payment.status == .succeeded else {
            throw CoreError(
                .invalidState, "only a succeeded payment can be refunded (status \(payment.status.rawValue))")
        }
        let limit = RefundLimit(
            captured: payment.amountCaptured, refunded: payment.amountRefunded, pending: pendingRefunds,
            disputed: payment.amountDisputed)
        guard let amount else { return try limit.defaultAmount() }
        guard amount > 0 else {
            throw CoreError(.invalidAmount, "refund amount must be positive")
        }
        try limit.check(amount)
        return amount
    }
}
