import Foundation
import SwitchyardCore

extension InMemoryPaymentRepository: SettlementRepository {
    public func claimHeldAuthorizations(now: Date, hold: AuthorizationHold, limit: Int) async throws
        -> [(tenant: UUID, paymentId: String)]
    {
        claimPayments(limit: limit) { _, row in
            guard row.payment.status == .authorized else { return nil }
            let due = hold.syncPoints(start: row.payment.createdAt).contains { point in
                point <= now && (row.holdSyncedAt.map { $0 < point } ?? true)
            }
            return due ? row.payment.createdAt : nil
        } mark: {
            $0.holdSyncedAt = now
        }
    }

    public func claimOpenOperations(now: Date, firstDelay: TimeInterval, leaseUntil: Date, limit: Int) async throws
        -> [OpenOperation]
    {
        let limit = max(0, limit)
        return transact { state in
            func due<V>(_ row: OpenRow<V>, createdAt: Date) -> Bool {
                (row.syncs == 0 && row.nextSyncAt == nil && createdAt.addingTimeInterval(firstDelay) <= now)
                    || (row.nextSyncAt.map { $0 <= now } ?? false)
            }
            let refunds = state.refunds.values.filter {
                ($0.value.status == .pending || $0.value.status == .unknown) && due($0, createdAt: $0.value.createdAt)
            }.sorted { ($0.value.createdAt, $0.value.id) < ($1.value.createdAt, $1.value.id) }.prefix(limit)
            let captures = state.operations.values.filter {
                $0.value.kind == .capture && ($0.value.outcome == .pending || $0.value.outcome == .unknown)
                    && due($0, createdAt: $0.value.createdAt)
            }.sorted { ($0.value.createdAt, $0.value.id) < ($1.value.createdAt, $1.value.id) }.prefix(limit)
            var claimed: [OpenOperation] = []
            for row in refunds {
                state.refunds[row.value.id]?.nextSyncAt = leaseUntil
                let r = row.value
                claimed.append(
                    OpenOperation(
                        kind: .refund, tenant: r.tenantId, paymentId: r.paymentId, id: r.id, syncs: row.syncs,
                        since: r.createdAt))
            }
            for row in captures {
                state.operations[row.value.id]?.nextSyncAt = leaseUntil
                let o = row.value
                claimed.append(
                    OpenOperation(
                        kind: .capture, tenant: o.tenantId, paymentId: o.paymentId, id: o.id, syncs: row.syncs,
                        since: o.createdAt))
            }
            return claimed
        }
    }

    public func scheduleOpenOperation(
        _ operation: OpenOperation, syncs: Int, nextSyncAt: Date?, reviewReason: String?
    ) async throws {
        transact { state in
            switch operation.kind {
            case .refund: Self.schedule(&state.refunds, operation.id, syncs, nextSyncAt, reviewReason)
            case .capture: Self.schedule(&state.operations, operation.id, syncs, nextSyncAt, reviewReason)
            }
        }
    }

    /// Records a look at the open row `id` of `rows`; a review reason, once given, is kept.
    private static func schedule<V>(
        _ rows: inout [String: OpenRow<V>], _ id: String, _ syncs: Int, _ nextSyncAt: Date?, _ reviewReason: String?
    ) {
        guard var row = rows[id] else { return }
        (row.syncs, row.nextSyncAt) = (syncs, nextSyncAt)
        row.reviewReason = reviewReason ?? row.reviewReason
        rows[id] = row
    }

    /// The review reason recorded for an open refund or capture (for assertions).
    public func reviewReason(of operationId: String) -> String? {
        transact { $0.refunds[operationId]?.reviewReason ?? $0.operations[operationId]?.reviewReason }
    }
}
