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
