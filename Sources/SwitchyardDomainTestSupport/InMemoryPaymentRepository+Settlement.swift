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
        transact { state in
            func due<V>(_ row: OpenRow<V>, createdAt: Date) -> Bool {
                (row.syncs == 0 && row.nextSyncAt == nil && createdAt.addingTimeInterval(firstDelay) <= now)
                    || (row.nextSyncAt.map { $0 <= now } ?? false)
            }
            let refunds = Self.claim(&state.refunds, .refund, limit: limit, leaseUntil: leaseUntil) {
                ($0.value.status == .pending || $0.value.status == .unknown) && due($0, createdAt: $0.value.createdAt)
            }
            let captures = Self.claim(&state.operations, .capture, limit: limit, leaseUntil: leaseUntil) {
                $0.value.kind == .capture && ($0.value.outcome == .pending || $0.value.outcome == .unknown)
                    && due($0, createdAt: $0.value.createdAt)
            }
            return refunds + captures
        }
    }

    /// Claims up to `limit` rows of `rows` that are `due`, oldest first, leasing them until `leaseUntil`.
    private static func claim<V: OpenValue>(
        _ rows: inout [String: OpenRow<V>], _ kind: OpenOperation.Kind, limit: Int, leaseUntil: Date,
        due: (OpenRow<V>) -> Bool
    ) -> [OpenOperation] {
        let claimed = rows.values.filter(due).sorted {
            ($0.value.createdAt, $0.value.id) < ($1.value.createdAt, $1.value.id)
        }.prefix(max(0, limit))
        return claimed.map { row in
            rows[row.value.id]?.nextSyncAt = leaseUntil
            let v = row.value
            return OpenOperation(
                kind: kind, tenant: v.tenantId, paymentId: v.paymentId, id: v.id, syncs: row.syncs, since: v.createdAt)
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

/// What the janitor's claim reads of a refund or an operation.
protocol OpenValue {
    var id: String { get }
    var paymentId: String { get }
    var tenantId: UUID { get }
    var createdAt: Date { get }
}

extension Refund: OpenValue {}
extension PaymentOperation: OpenValue {}
