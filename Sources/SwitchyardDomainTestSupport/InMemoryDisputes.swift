import Foundation
import SwitchyardCore
import Synchronization

/// Disputes kept in memory with the PostgreSQL store's contracts: one dispute per account and provider
/// dispute id, each step applied as one transaction with the payment's disputed amount (never below
/// nothing nor above the payment), and the webhook events it announces recorded in order.
public final class InMemoryDisputes: DisputeRepository, Sendable {
    private struct State {
        var disputes: [String: Dispute] = [:]
        var events: [(type: String, disputeId: String)] = []
        /// The smallest reminder horizon sent, by dispute id.
        var reminded: [String: Int] = [:]
        /// Evidence documents by dispute id, with whether each was submitted.
        var evidence: [String: [(file: EvidenceFile, submitted: Bool)]] = [:]
        /// The ledger, oldest first.
        var ledger: [LedgerEntry] = []
        var ledgerIds = 0
    }

    private let payments: InMemoryPaymentRepository
    private let state = Mutex(State())

    /// Disputes over `payments`, whose `amount_disputed` they move.
    public init(payments: InMemoryPaymentRepository) {
        self.payments = payments
    }

    /// The webhook events announced so far, oldest first, as (type, dispute id).
    public var announced: [(type: String, disputeId: String)] { state.withLock { $0.events } }

    public func record(
        tenant: UUID, accountId: UUID, providerDisputeId: String, paymentId: String?,
        _ step: @escaping @Sendable (Dispute?, Payment?) throws -> DisputeStep
    ) async throws -> DisputeStep {
        try payments.transact { paymentState in
            try state.withLock { state in
                let existing = state.disputes.values.first {
                    $0.tenantId == tenant && $0.accountId == accountId && $0.providerDisputeId == providerDisputeId
                }
                let payment = paymentId.flatMap { paymentState.payments[$0]?.stored }.flatMap {
                    $0.tenantId == tenant ? $0 : nil
                }
                let result = try step(existing, payment)
                guard let dispute = result.dispute else { return result }
                if dispute.countsOnPayment, let id = dispute.paymentId, var row = paymentState.payments[id] {
                    guard let change = result.disputedChange,
                        case (let sum, false) = row.payment.amountDisputed.addingReportingOverflow(change)
                    else { throw CoreError(.invalidAmount, "the disputed amounts do not fit in 64 bits") }
                    row.payment.amountDisputed = min(row.payment.amount, max(0, sum))
                    paymentState.payments[id] = row
                }
                state.disputes[dispute.id] = dispute
                var ids = state.ledgerIds
                state.ledger += LedgerEntry.entries(of: result, at: dispute.updatedAt) {
                    ids += 1
                    return "bt_\(ids)"
                }
                state.ledgerIds = ids
                for case .announce(let announcement) in result.actions {
                    state.events.append((announcement.rawValue, dispute.id))
                }
                return result
            }
        }
    }

    public func dispute(tenant: UUID, id: String) async throws -> Dispute? {
        state.withLock { $0.disputes[id] }.flatMap { $0.tenantId == tenant ? $0 : nil }
    }

    public func disputes(tenant: UUID, filter: DisputeFilter, page: PageRequest) async throws -> Page<Dispute> {
        let all = state.withLock { Array($0.disputes.values) }.filter { d in
            d.tenantId == tenant && filter.paymentId.map { d.paymentId == $0 } ?? true
                && filter.dueBefore.map { due in d.evidenceDueBy.map { $0 <= due } ?? false } ?? true
                && filter.needsReview.map { $0 == (d.review != nil) } ?? true
        }
        return page.page(
            try page.select(
                all, id: \.id, created: \.createdAt, status: \.status.rawValue, livemode: \.livemode))
    }

    public func ledgerEntries(tenant: UUID, filter: LedgerFilter, page: PageRequest) async throws
        -> Page<LedgerEntry>
    {
        let all = state.withLock { $0.ledger }.filter { entry in
            entry.tenantId == tenant && filter.paymentId.map { entry.paymentId == $0 } ?? true
                && filter.source.map { entry.source == $0 } ?? true
        }
        return page.page(
            try page.select(all, id: \.id, created: \.createdAt, status: \.kind.rawValue, livemode: \.livemode))
    }

    public func remindEvidenceDue(now: Date, horizons: [Int], limit: Int) async throws -> [Dispute] {
        var deadlines = DisputePolicy()
        deadlines.reminderHours = horizons
        return state.withLock { state in
            let due = state.disputes.values.filter(\.isWaitingForEvidence).sorted {
                ($0.evidenceDueBy ?? .distantFuture) < ($1.evidenceDueBy ?? .distantFuture)
            }
            var reminded: [Dispute] = []
            for dispute in due where reminded.count < limit {
                guard let dueBy = dispute.evidenceDueBy,
                    let horizon = deadlines.reminder(dueBy: dueBy, sent: state.reminded[dispute.id], now: now)
                else { continue }
                state.reminded[dispute.id] = horizon
                state.events.append((WebhookEventType.evidenceDueSoon, dispute.id))
                reminded.append(dispute)
            }
            return reminded
        }
    }

    public func pastDue(before: Date, limit: Int) async throws -> [Dispute] {
        let all = state.withLock { Array($0.disputes.values) }
        return Array(
            all.filter { $0.isWaitingForEvidence && ($0.evidenceDueBy.map { $0 < before } ?? false) }
                .sorted { ($0.evidenceDueBy ?? .distantPast) < ($1.evidenceDueBy ?? .distantPast) }
                .prefix(limit))
    }

    public func openByDueWindow(now: Date) async throws -> [String: Int64] {
        var windows: [String: Int64] = [:]
        for dispute in state.withLock({ Array($0.disputes.values) }) where !dispute.status.isClosed {
            windows[DisputePolicy.window(dueBy: dispute.evidenceDueBy, now: now), default: 0] += 1
        }
        return windows
    }

    public func stageEvidence(tenant: UUID, disputeId: String, file: EvidenceFile, id: String, at: Date) async throws {
        try state.withLock { state in
            guard state.disputes[disputeId]?.tenantId == tenant else { throw CoreError.notFound("dispute") }
            let staged = state.evidence[disputeId, default: []].filter { !$0.submitted }.count
            guard staged < DisputeEvidenceRules.maximumFiles else {
                throw CoreError(.evidenceTooLarge, "the dispute holds its most staged documents", param: "files")
            }
            state.evidence[disputeId, default: []].append((file, false))
        }
    }

    public func stagedEvidence(tenant: UUID, disputeId: String) async throws -> [EvidenceFile] {
        state.withLock { state in
            guard state.disputes[disputeId]?.tenantId == tenant else { return [] }
            return state.evidence[disputeId, default: []].filter { !$0.submitted }.map(\.file)
        }
    }

    public func markEvidenceSubmitted(tenant: UUID, disputeId: String, at: Date) async throws {
        state.withLock { state in
            guard state.disputes[disputeId]?.tenantId == tenant else { return }
            state.evidence[disputeId] = state.evidence[disputeId, default: []].map { ($0.file, true) }
        }
    }
}
