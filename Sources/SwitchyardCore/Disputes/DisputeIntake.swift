import Foundation
import ProviderKit

/// How a plugin's ``DisputeEvent`` changes the dispute it concerns: a pure function of the event, the
/// dispute as stored (nil: not seen before) and its payment (nil: unknown), tested without I/O.
///
/// A dispute not seen before is created at the event's stage, and the event applied on top when it reports
/// more than the opening (the first notification Switchyard receives may already be a decision). A dispute
/// whose payment is unknown, whose currency differs from the payment's or whose amount exceeds it is kept
/// for review and moves no funds on the payment; one on a payment already refunded is flagged for review.
public enum DisputeIntake {
    /// Who reported the event: the account's tenant, id and mode.
    public struct Source: Sendable, Equatable {
        public var tenantId: UUID
        public var accountId: UUID
        public var livemode: Bool

        public init(tenantId: UUID, accountId: UUID, livemode: Bool) {
            self.tenantId = tenantId
            self.accountId = accountId
            self.livemode = livemode
        }
    }

    /// The step `event` makes; `newId` names a dispute created by it.
    public static func step(
        _ event: DisputeEvent, existing: Dispute?, payment: Payment?, source: Source, newId: String, at now: Date
    ) -> DisputeStep {
        guard var machine = existing.map(DisputeMachine.init(dispute:)) else {
            return open(event, payment: payment, source: source, newId: newId, at: now)
        }
        var actions = machine.apply(
            machineEvent(event, current: machine.dispute.stage), providerStatus: event.providerStatus, at: now)
        var dispute = machine.dispute
        actions = kept(actions, on: &dispute)
        return DisputeStep(dispute: dispute, actions: actions)
    }

    /// A dispute first heard of through `event`.
    private static func open(
        _ event: DisputeEvent, payment: Payment?, source: Source, newId: String, at now: Date
    ) -> DisputeStep {
        let stage = event.stage.flatMap { Dispute.Stage(rawValue: $0.rawValue) } ?? .chargeback
        let amount = event.amount ?? payment?.amount ?? 0
        let currency = event.currency ?? payment?.currency ?? ""
        var dispute = Dispute(
            id: newId, tenantId: source.tenantId, accountId: source.accountId, livemode: source.livemode,
            paymentId: payment?.id, providerDisputeId: event.providerDisputeId, amount: amount, currency: currency,
            stage: stage, reason: event.reason.flatMap(Dispute.ReasonCategory.init(rawValue:)) ?? .general,
            reasonCode: event.reasonCode, evidenceDueBy: event.evidenceDueBy, createdAt: now)
        dispute.providerStatus = event.providerStatus
        let review = reviewReason(amount: event.amount, currency: currency, payment: payment)
        dispute.countsOnPayment = review.countsOnPayment
        dispute.review = review.reason
        var (machine, actions) = DisputeMachine.open(dispute)
        if event.kind != .opened {
            actions += machine.apply(machineEvent(event, current: stage), providerStatus: event.providerStatus, at: now)
        }
        dispute = machine.dispute
        actions = kept(actions, on: &dispute)
        if let reason = review.reason, !actions.contains(.listForReview(reason)) {
            actions.append(.listForReview(reason))
        }
        return DisputeStep(dispute: dispute, actions: actions)
    }

    /// Why a new dispute needs an operator's look, and whether its funds may move the payment's.
    static func reviewReason(amount: Int64?, currency: String, payment: Payment?) -> (
        reason: String?, countsOnPayment: Bool
    ) {
        guard let payment else {
            return ("the disputed payment is unknown to Switchyard", false)
        }
        if currency != payment.currency {
            return ("the dispute's currency \(currency) differs from the payment's \(payment.currency)", false)
        }
        if let amount, amount <= 0 || amount > payment.amount {
            return ("the disputed amount \(amount) is not within the payment's \(payment.amount)", false)
        }
        if payment.amountRefunded > 0 {
            return ("the payment was refunded (\(payment.amountRefunded)) before the dispute", true)
        }
        if payment.status != .succeeded {
            return ("the disputed payment's status is \(payment.status.rawValue)", true)
        }
        return (nil, true)
    }

    /// The actions that apply to `dispute`: a dispute that does not count on its payment moves no funds
    /// there; a review the machine asks for is kept on the dispute.
    private static func kept(_ actions: [DisputeMachine.Action], on dispute: inout Dispute) -> [DisputeMachine.Action] {
        var kept: [DisputeMachine.Action] = []
        for action in actions {
            switch action {
            case .withdrawFunds, .reinstateFunds:
                if dispute.countsOnPayment { kept.append(action) }
            case .listForReview(let reason):
                dispute.review = reason
                kept.append(action)
            case .announce:
                kept.append(action)
            }
        }
        return kept
    }

    /// The machine's event for a plugin's.
    static func machineEvent(_ event: DisputeEvent, current: Dispute.Stage) -> DisputeMachine.Event {
        switch event.kind {
        case .opened:
            let stage = event.stage.flatMap { Dispute.Stage(rawValue: $0.rawValue) } ?? current
            return .opened(stage: stage, evidenceDueBy: event.evidenceDueBy)
        case .evidenceRequested: return .evidenceRequested(dueBy: event.evidenceDueBy)
        case .evidenceSubmitted: return .evidenceSubmitted
        case .accepted: return .accepted
        case .withdrawn: return .withdrawn
        case .won: return .decided(merchantWon: true)
        case .lost: return .decided(merchantWon: false)
        case .closed: return .closed
        }
    }
}
