import Foundation
import SwitchyardCore

/// The janitor's and the sweeper's claims: each picks due rows oldest first and leases or marks them in
/// the same transaction, so a claimed row is not returned again until its lease ends.
extension InMemoryPaymentRepository {
    /// Fails during an ``InMemoryOutage`` like the janitor's first query of a look does against an unreachable
    /// database.
    public func claimUnresolved(now: Date, firstDelay: TimeInterval, leaseUntil: Date, limit: Int) async throws
        -> [(tenant: UUID, paymentId: String)]
    {
        try outage.check()
        return claimPayments(limit: limit) { _, row in
            guard row.payment.status == .unknown, row.payment.resolution?.reviewRequired != true,
                let due = row.nextSyncAt ?? row.payment.resolution.map({ $0.since.addingTimeInterval(firstDelay) }),
                due <= now
            else { return nil }
            return row.nextSyncAt ?? row.payment.resolution?.since
        } mark: {
            $0.nextSyncAt = leaseUntil
        }
    }

    public func claimStaleProcessing(now: Date, cutoff: Date, leaseUntil: Date, limit: Int) async throws
        -> [(tenant: UUID, paymentId: String)]
    {
        claimPayments(limit: limit) { state, row in
            guard row.payment.status == .processing, row.payment.updatedAt <= cutoff,
                row.nextSyncAt.map({ $0 <= now }) ?? true,
                !state.attempts.values.contains(where: { $0.paymentId == row.payment.id && $0.startedAt > cutoff })
            else { return nil }
            return row.payment.updatedAt
        } mark: {
            $0.nextSyncAt = leaseUntil
        }
    }

    public func claimExpiredSessions(now: Date, retryAfter: TimeInterval, horizon: TimeInterval, limit: Int)
        async throws -> [(tenant: UUID, paymentId: String)]
    {
        claimWaitingSessions(now: now, limit: limit) { row, expiry in
            guard expiry <= now else { return false }
            let end = expiry.addingTimeInterval(horizon)
            // Past the horizon: one last sweep, if none came since it passed.
            if now >= end { return row.sessionSweptAt.map { $0 < end } ?? true }
            guard let swept = row.sessionSweptAt else { return true }
            return swept < expiry || swept.addingTimeInterval(retryAfter) <= now
        }
    }

    public func claimHalfLifeSessions(now: Date, limit: Int) async throws -> [(tenant: UUID, paymentId: String)] {
        claimWaitingSessions(now: now, limit: limit) { row, expiry in
            let half = Date(
                timeIntervalSince1970: (row.payment.createdAt.timeIntervalSince1970 + expiry.timeIntervalSince1970) / 2)
            return now < expiry && now >= half && (row.sessionSweptAt.map { $0 < half } ?? true)
        }
    }

    /// Claims payments waiting for the app whose session has an expiry and passes `due`, marking them swept.
    private func claimWaitingSessions(now: Date, limit: Int, due: (PaymentRow, Date) -> Bool)
        -> [(tenant: UUID, paymentId: String)]
    {
        claimPayments(limit: limit) { _, row in
            guard row.payment.status == .requiresAction, let expiry = row.payment.nextAction?.expiresAt,
                due(row, expiry)
            else { return nil }
            return row.payment.updatedAt
        } mark: {
            $0.sessionSweptAt = now
        }
    }

    /// Claims up to `limit` payments for which `order` gives a sort key (nil: not due), in that order, and
    /// applies `mark` to each in the same transaction.
    func claimPayments(limit: Int, order: (State, PaymentRow) -> Date?, mark: (inout PaymentRow) -> Void)
        -> [(tenant: UUID, paymentId: String)]
    {
        transact { state in
            let due = state.payments.values.compactMap { row in order(state, row).map { (row.payment.id, $0) } }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(max(0, limit))
            return due.compactMap { id, _ in
                guard var row = state.payments[id] else { return nil }
                mark(&row)
                state.payments[id] = row
                return (tenant: row.payment.tenantId, paymentId: id)
            }
        }
    }
}

/// The settlement janitor's claims of held authorizations and open operations, over the same rows.
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

/// What the retention janitor deletes, and what tests assert on.
extension InMemoryPaymentRepository {
    /// Deletes up to `limit` `Idempotency-Key`s answered before `cutoff`, oldest first, as the store's
    /// retention does (a key not answered is kept); returns how many.
    func deleteAnsweredKeys(before cutoff: Date, limit: Int) -> Int {
        transact { state in
            let doomed = state.keys.compactMap { id, row in row.completedAt.map { (id, $0) } }
                .filter { $0.1 < cutoff }.sorted { $0.1 < $1.1 }.prefix(max(0, limit))
            for (id, _) in doomed { state.keys[id] = nil }
            return doomed.count
        }
    }

    /// Whether the payment `id` exists and has not reached a final status.
    func isOpenPayment(_ id: String) -> Bool {
        transact { state in state.payments[id].map { !$0.payment.status.isFinal } ?? false }
    }

    /// Whether `tenant` holds `key` (answered or not), for assertions.
    public func holdsIdempotencyKey(tenant: UUID, key: String) -> Bool {
        transact { $0.keys[KeyID(tenant: tenant, key: key)] != nil }
    }
}
