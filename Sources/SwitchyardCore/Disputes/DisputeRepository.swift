import Foundation

/// What one provider event did to a dispute: the dispute as it is now (nil when the event was about
/// nothing that can be kept) and what the store must carry out with it in the same transaction.
public struct DisputeStep: Sendable, Equatable {
    public var dispute: Dispute?
    /// The machine's actions: webhook events to write, funds to move on the payment, a review to list.
    public var actions: [DisputeMachine.Action]

    public init(dispute: Dispute?, actions: [DisputeMachine.Action]) {
        self.dispute = dispute
        self.actions = actions
    }

    /// The webhook events the actions announce, in order.
    public var announcements: [DisputeMachine.Announcement] {
        actions.compactMap { if case .announce(let announcement) = $0 { announcement } else { nil } }
    }

    /// The change of the payment's disputed amount the actions make (withdrawn minus reinstated); nil
    /// when it does not fit an `Int64`.
    public var disputedChange: Int64? {
        var total: Int64 = 0
        for action in actions {
            let (sum, overflow): (Int64, Bool)
            switch action {
            case .withdrawFunds(let amount): (sum, overflow) = total.addingReportingOverflow(amount)
            case .reinstateFunds(let amount): (sum, overflow) = total.subtractingReportingOverflow(amount)
            default: continue
            }
            if overflow { return nil }
            total = sum
        }
        return total
    }
}

/// The merchant's filters of a dispute list, beside the page's cursor, creation window and status.
public struct DisputeFilter: Sendable, Equatable {
    /// Only the disputes of this payment.
    public var paymentId: String?
    /// Only the disputes whose evidence is due at or before this time.
    public var dueBefore: Date?
    /// Only the disputes an operator should look at (``Dispute/review``).
    public var needsReview: Bool?

    public init(paymentId: String? = nil, dueBefore: Date? = nil, needsReview: Bool? = nil) {
        self.paymentId = paymentId
        self.dueBefore = dueBefore
        self.needsReview = needsReview
    }
}

/// Storage of disputes. Every method commits before it returns.
public protocol DisputeRepository: Sendable {
    /// In one transaction: reads the dispute `providerDisputeId` of `accountId` and the payment `paymentId`
    /// (nil: none), both locked, calls `step` with them, and stores what it returns: the dispute, its
    /// funds moved on the payment's `amount_disputed` and written to the ledger, and a webhook event for
    /// each announcement. Returns the step.
    func record(
        tenant: UUID, accountId: UUID, providerDisputeId: String, paymentId: String?,
        _ step: @escaping @Sendable (_ dispute: Dispute?, _ payment: Payment?) throws -> DisputeStep
    ) async throws -> DisputeStep
    /// The tenant's dispute `id`, or nil.
    func dispute(tenant: UUID, id: String) async throws -> Dispute?
    /// A page of the tenant's disputes, newest first.
    func disputes(tenant: UUID, filter: DisputeFilter, page: PageRequest) async throws -> Page<Dispute>
    /// A page of the tenant's ledger, newest first: the funds movements ``record(tenant:accountId:providerDisputeId:paymentId:_:)``
    /// wrote with each dispute step (``LedgerEntry/entries(of:at:makeId:)``), in the step's transaction.
    func ledgerEntries(tenant: UUID, filter: LedgerFilter, page: PageRequest) async throws -> Page<LedgerEntry>
    /// Across tenants: up to `limit` disputes waiting for evidence whose reminder at one of `horizons`
    /// (hours before the deadline, see ``DisputePolicy/reminder(dueBy:sent:now:)``) is due at `now`. Each is
    /// marked reminded at that horizon and its `dispute.evidence_due_soon` event written in one transaction,
    /// so every replica's janitor sends each reminder once.
    func remindEvidenceDue(now: Date, horizons: [Int], limit: Int) async throws -> [Dispute]
    /// Across tenants: up to `limit` disputes still waiting for evidence whose deadline passed before
    /// `before`, oldest deadline first.
    func pastDue(before: Date, limit: Int) async throws -> [Dispute]
    /// Stages `file` as evidence of the tenant's dispute `disputeId` (not yet submitted); refuses a
    /// dispute that holds ``DisputeEvidenceRules/maximumFiles`` already.
    func stageEvidence(tenant: UUID, disputeId: String, file: EvidenceFile, id: String, at: Date) async throws
    /// The documents of the dispute not yet submitted, oldest first.
    func stagedEvidence(tenant: UUID, disputeId: String) async throws -> [EvidenceFile]
    /// Marks every staged document of the dispute submitted at `at`.
    func markEvidenceSubmitted(tenant: UUID, disputeId: String, at: Date) async throws
    /// The disputes not yet decided, by how soon their evidence is due at `now`: `past_due`, `within_24h`,
    /// `within_72h`, `later`, `no_deadline`.
    func openByDueWindow(now: Date) async throws -> [String: Int64]
}
