import Foundation
import ProviderKit

/// The refund state machine: a pure value type. A refund is reserved `pending` (within the payment's
/// refundable remainder, see ``PaymentMachine/validateRefund(amount:pendingRefunds:)``), then the provider's
/// answer, its notification, a refund inquiry or the payment's refunded total move it on. `succeeded` and
/// `failed` are final: nothing moves a final refund again. When the janitor gives up on an open refund, the
/// machine lists it for review and keeps its status: nobody can say whether money moved. No I/O, no clock of
/// its own.
public struct RefundMachine: Sendable, Equatable {
    /// Something that happened to the refund.
    public enum Event: Sendable, Equatable {
        /// The refund call ended with this outcome.
        case providerAnswered(Outcome)
        /// A verified notification of the provider reported the refund.
        case notified(Outcome)
        /// The provider's refund inquiry answered (see ``RefundSettlement/status(for:)``).
        case inquiryAnswered(Outcome)
        /// The payment's refunded total at the provider proves the refund succeeded (see
        /// ``RefundSettlement/succeededByRefundedTotal(_:refunds:)``).
        case provenByRefundedTotal
        /// The janitor stops settling the refund by itself: its schedule reached the horizon
        /// (`unresolved_at_horizon`) or the provider cannot tell (`refund_inquiry_unsupported`). An open refund
        /// keeps its status and is listed for review with `reason`; a later answer still settles it.
        case gaveUp(reason: String)
    }

    /// What the caller must do next.
    public enum Action: Sendable, Equatable {
        /// The outcome is still open: the janitor asks the provider later; nothing is refunded again.
        case syncLater
        /// The refund moved to this status: its `refund.<status>` webhook event goes out with the change.
        case announce(Refund.Status)
        /// An operator must settle the refund: it is listed for review with this reason.
        case listForReview(String)
    }

    public private(set) var refund: Refund

    public init(refund: Refund) {
        self.refund = refund
    }

    /// Whether the refund's status can no longer change.
    public var isFinal: Bool { refund.status == .succeeded || refund.status == .failed }

    /// Applies an event at `time`; returns the actions to carry out. A final refund refuses every event
    /// (it only learns the provider's refund id when it had none) and returns no action.
    public mutating func handle(_ event: Event, at time: Date) -> [Action] {
        if isFinal {
            if case .providerAnswered(let outcome) = event, refund.providerRefundId == nil,
                let providerId = outcome.providerPaymentId
            {
                refund.providerRefundId = providerId
                refund.updatedAt = time
            }
            return []
        }
        let before = refund.status
        switch event {
        case .providerAnswered(let outcome):
            providerAnswered(outcome, at: time)
        case .notified(let outcome):
            switch outcome.kind {
            case .succeeded: move(to: .succeeded, at: time)
            case .declined, .canceled: move(to: .failed, at: time)
            default: break
            }
        case .inquiryAnswered(let outcome):
            if let status = RefundSettlement.status(for: outcome), status != refund.status {
                refund.providerRefundId = refund.providerRefundId ?? outcome.providerPaymentId
                if status == .failed {
                    refund.failureCode = outcome.code ?? "declined"
                    refund.failureMessage = outcome.message
                }
                move(to: status, at: time)
            }
        case .provenByRefundedTotal:
            move(to: .succeeded, at: time)
        case .gaveUp(let reason):
            return [.listForReview(reason)]
        }
        var actions: [Action] = []
        if refund.status != before { actions.append(.announce(refund.status)) }
        if !isFinal { actions.append(.syncLater) }
        return actions
    }

    private mutating func providerAnswered(_ outcome: Outcome, at time: Date) {
        refund.providerRefundId = outcome.providerPaymentId ?? refund.providerRefundId
        refund.updatedAt = time
        switch outcome.kind {
        case .succeeded:
            refund.status = .succeeded
        case .declined:
            refund.status = .failed
            refund.failureCode = outcome.code ?? "declined"
            refund.failureMessage = outcome.message
        case .notSent, .authExpired, .canceled:
            // Nothing was refunded: the refund failed and its amount is refundable again.
            refund.status = .failed
            refund.failureCode = "provider_unreachable"
            refund.failureMessage = outcome.message
        case .pending, .authorized:
            refund.status = .pending
        case .unknown:
            refund.status = .unknown
        }
    }

    private mutating func move(to status: Refund.Status, at time: Date) {
        refund.status = status
        refund.updatedAt = time
    }
}

extension RefundMachine {
    /// Applies `event` to `refund` in place; returns the actions.
    public static func apply(_ event: Event, to refund: inout Refund, at time: Date) -> [Action] {
        var machine = RefundMachine(refund: refund)
        let actions = machine.handle(event, at: time)
        refund = machine.refund
        return actions
    }
}
