import Foundation

/// The dispute state machine: a pure value type, tested without I/O. Every provider's dispute
/// notification is mapped (by its plugin) onto one ``Event``; the machine says how the dispute moves, what
/// the merchant is told and where the disputed funds go. An event that arrives late or twice (a
/// notification resent until acknowledged, or overtaken by a later one) changes nothing; a closed dispute
/// moves again only when the provider escalates it to a later ``Dispute/Stage``.
public struct DisputeMachine: Sendable, Equatable {
    /// Something the provider reported, or the merchant did, about the dispute.
    public enum Event: Sendable, Equatable {
        /// The dispute is reported at `stage`: its creation, or an escalation to a later stage (an inquiry
        /// becoming a chargeback, a rejected defence becoming a pre-arbitration).
        case opened(stage: Dispute.Stage, evidenceDueBy: Date?)
        /// The provider asks for evidence, or reminds of it, by `dueBy`.
        case evidenceRequested(dueBy: Date?)
        /// Evidence was submitted: through the provider's API, or reported by the provider.
        case evidenceSubmitted
        /// The merchant accepted the dispute: it does not defend it.
        case accepted
        /// The cardholder withdrew it.
        case withdrawn
        /// The issuer or the scheme decided it.
        case decided(merchantWon: Bool)
        /// The provider closed the case without saying how it was decided.
        case closed
        /// The evidence deadline passed (with the policy's grace) while the dispute still waited for the
        /// merchant: it ends as the providers rule, lost (an inquiry closes as a warning).
        case expired
    }

    /// The webhook events a dispute sends to the merchant.
    public enum Announcement: String, Sendable, Codable, CaseIterable {
        case created = "dispute.created"
        case updated = "dispute.updated"
        case closed = "dispute.closed"
        case fundsWithdrawn = "dispute.funds_withdrawn"
        case fundsReinstated = "dispute.funds_reinstated"
    }

    /// What the caller must do next.
    public enum Action: Sendable, Equatable {
        /// Send the merchant this event with the dispute as it now is.
        case announce(Announcement)
        /// The disputed amount leaves the payment's money (its `amount_disputed` grows; the ledger moves).
        case withdrawFunds(Int64)
        /// The disputed amount comes back to the payment's money.
        case reinstateFunds(Int64)
        /// An operator must look: the provider reported what the machine cannot apply.
        case listForReview(String)
    }

    public private(set) var dispute: Dispute

    public init(dispute: Dispute) {
        self.dispute = dispute
    }

    /// A new dispute as the provider first reported it, and what its creation does: `dispute.created`, and
    /// for a chargeback the funds withdrawn.
    public static func open(_ dispute: Dispute) -> (DisputeMachine, [Action]) {
        var actions: [Action] = [.announce(.created)]
        if dispute.funds == .withdrawn {
            actions += [.withdrawFunds(dispute.amount), .announce(.fundsWithdrawn)]
        }
        return (DisputeMachine(dispute: dispute), actions)
    }

    /// Applies `event`, reported with the provider's own `providerStatus`, at `time`; returns the actions to
    /// carry out. An event that does not apply (late, repeated, after the decision) returns none and
    /// changes nothing.
    public mutating func apply(_ event: Event, providerStatus: String? = nil, at time: Date) -> [Action] {
        let before = dispute
        let actions = transition(event)
        guard dispute != before || !actions.isEmpty else { return [] }
        if let providerStatus { dispute.providerStatus = providerStatus }
        dispute.updatedAt = time
        return actions
    }

    private mutating func transition(_ event: Event) -> [Action] {
        switch event {
        case .opened(let stage, let dueBy):
            guard stage > dispute.stage else { return [] }
            return escalate(to: stage, dueBy: dueBy)
        case .evidenceRequested(let dueBy):
            guard !dispute.status.isClosed else { return [] }
            let waiting: Dispute.Status = dispute.stage == .inquiry ? .warningNeedsResponse : .needsResponse
            guard dispute.status != waiting || (dueBy != nil && dueBy != dispute.evidenceDueBy) else { return [] }
            dispute.status = waiting
            if let dueBy { dispute.evidenceDueBy = dueBy }
            return [.announce(.updated)]
        case .evidenceSubmitted:
            guard !dispute.status.isClosed else { return [] }
            dispute.status = dispute.stage == .inquiry ? .warningUnderReview : .underReview
            dispute.submissionCount += 1
            return [.announce(.updated)]
        case .accepted:
            guard !dispute.status.isClosed else { return [] }
            if dispute.stage == .inquiry {
                dispute.status = .warningClosed
                return [.announce(.closed)]
            }
            return decide(merchantWon: false)
        case .withdrawn:
            guard !dispute.status.isClosed else { return [] }
            if dispute.stage == .inquiry {
                dispute.status = .warningClosed
                return [.announce(.closed)]
            }
            return decide(merchantWon: true)
        case .decided(let merchantWon):
            if dispute.status.isClosed {
                let same = (dispute.status == .lost) == !merchantWon
                return same ? [] : [.listForReview("the provider reported another decision of a decided dispute")]
            }
            if dispute.stage == .inquiry && merchantWon {
                dispute.status = .warningClosed
                return [.announce(.closed)]
            }
            return decide(merchantWon: merchantWon)
        case .expired:
            guard dispute.isWaitingForEvidence else { return [] }
            if dispute.stage == .inquiry {
                dispute.status = .warningClosed
                return [.announce(.closed)]
            }
            return decide(merchantWon: false)
        case .closed:
            guard !dispute.status.isClosed else { return [] }
            if dispute.stage == .inquiry {
                dispute.status = .warningClosed
                return [.announce(.closed)]
            }
            return [.listForReview("the provider closed the dispute without saying how it was decided")]
        }
    }

    /// Moves the dispute to a later stage: it waits for the merchant again, with the funds taken.
    private mutating func escalate(to stage: Dispute.Stage, dueBy: Date?) -> [Action] {
        dispute.stage = stage
        dispute.status = .needsResponse
        dispute.evidenceDueBy = dueBy
        var actions: [Action] = [.announce(.updated)]
        if dispute.funds != .withdrawn {
            dispute.funds = .withdrawn
            actions += [.withdrawFunds(dispute.amount), .announce(.fundsWithdrawn)]
        }
        return actions
    }

    /// Closes a chargeback (or later stage): won gives the funds back, lost keeps them taken.
    private mutating func decide(merchantWon: Bool) -> [Action] {
        if dispute.stage == .inquiry { dispute.stage = .chargeback }
        var actions: [Action] = [.announce(.closed)]
        if merchantWon {
            dispute.status = .won
            if dispute.funds == .withdrawn {
                dispute.funds = .reinstated
                actions += [.reinstateFunds(dispute.amount), .announce(.fundsReinstated)]
            }
        } else {
            dispute.status = .lost
            if dispute.funds != .withdrawn {
                dispute.funds = .withdrawn
                actions += [.withdrawFunds(dispute.amount), .announce(.fundsWithdrawn)]
            }
        }
        return actions
    }
}
