import Foundation
import ProviderKit
import SwitchyardCore

/// Payments and their attempts, refunds and operations, over the shared ``PostgresDatabase``.
public struct PostgresPayments: PaymentRepository, PaymentRecordListing, PostgresRepository {
    let database: PostgresDatabase
}

extension PostgresPayments {
    public func commit(_ changes: PaymentChanges) async throws {
        let tenant =
            changes.payment?.tenantId ?? changes.attempts.first?.tenantId ?? changes.refunds.first?.tenantId
            ?? changes.operations.first?.tenantId
        guard let tenant else { return }
        let write = try ChangeWrite(changes, store: self)
        try await tenantScoped(tenant) { c in
            guard write.onlyOperations, let statements = try await write.statements(on: c) else {
                return try await write.run(on: c)
            }
            try await c.commit(after: statements, repeatable: true)
        }
    }

    public func begin(_ changes: PaymentChanges, claim: IdempotencyScope?) async throws -> IdempotencyClaim {
        guard let tenant = changes.payment?.tenantId else {
            throw CoreError(.invalidRequest, "a payment create needs its payment")
        }
        let write = try ChangeWrite(changes, store: self)
        let now = clock()
        return try await tenantScoped(tenant) { c -> IdempotencyClaim in
            if let claim {
                let result = try await PostgresIdempotencyKeys.claim(
                    tenant: tenant, key: claim.key, requestHash: claim.requestHash, owner: claim.owner, now: now,
                    until: now.addingTimeInterval(claim.lease), on: c)
                guard result == .proceed || result == .resume(resourceId: nil) else { return result }
                // The claim above made this request the key's owner in this transaction, so the link
                // cannot miss: it goes with the writes, in their round trip when they have one.
                let link = changes.payment.map {
                    PostgresIdempotencyKeys.linking(key: claim.key, owner: claim.owner, resourceId: $0.id)
                }
                if let statements = try await write.statements(on: c, paymentIsNew: true) {
                    try await c.commit(after: statements + (link.map { [$0] } ?? []))
                } else {
                    try await write.run(on: c, paymentIsNew: true)
                    if let link { try await c.query(link.sql, link.params) }
                }
                return result
            }
            try await write.run(on: c, paymentIsNew: true)
            return .proceed
        }
    }

    public func transition<T: Sendable>(
        tenant: UUID, paymentId: String, with changes: PaymentChanges,
        concluding: @escaping @Sendable (T) -> Bool,
        answer: @escaping @Sendable (Payment) -> IdempotentAnswer?,
        _ body: @escaping @Sendable (inout Payment) throws -> T
    ) async throws -> (T, PaymentRecord?, answered: Bool) {
        var parts = changes
        parts.payment = nil
        let write = try ChangeWrite(parts, store: self)
        return try await tenantScoped(tenant) { c in
            guard let row = try await c.query(Self.paymentForUpdate, [.text(paymentId)]).first
            else { throw CoreError.notFound("payment") }
            var payment = try Self.payment(row)
            let previous = payment.status
            let result = try body(&payment)
            let concludes = concluding(result)
            // The payment, its event, the other changes, (when it concludes) the record read back and the key's
            // answer, and COMMIT: one round trip when no refund changes.
            let own =
                [PGStatement(Self.upsertPayment, try Self.paymentParameters(payment))]
                + (try self.announcement(payment, previous: previous.rawValue))
            let answering = concludes ? answer(payment) : nil
            let finishing = try answering.map {
                try PostgresIdempotencyKeys.finishing(
                    key: $0.key, owner: $0.owner, outcome: $0.outcome, now: self.clock())
            }
            let record: PaymentRecord?
            if let writes = try await write.statements(on: c) {
                let reads = concludes ? Self.recordReads(paymentId) : []
                guard let finishing else {
                    let results = try await c.commit(after: own + writes + reads)
                    record = concludes ? try self.record(from: Array(results.suffix(reads.count))) : nil
                    return (result, record, false)
                }
                // The key's answer is stored with the writes and reads, in the round trip that commits.
                let results = try await c.commit(after: own + writes + reads + [finishing])
                record = try self.record(from: Array(results.dropLast().suffix(reads.count)))
                return (result, record, results.last?.affectedRows == 1)
            } else {
                try await c.pipeline(own)
                try await write.run(on: c)
                record = await concludes ? try self.record(paymentId, on: c) : nil
            }
            guard concludes else { return (result, nil, false) }
            guard let record, let finishing else { return (result, record, false) }
            // The answer is stored in the round trip that commits.
            let answered = try await c.commit(after: [finishing]).first?.affectedRows == 1
            return (result, record, answered)
        }
    }

    public func reserveRefund(_ refund: Refund, linking claim: IdempotencyScope?) async throws {
        let params = try Self.refundParameters(refund)
        try await tenantScoped(refund.tenantId) { c in
            if let claim,
                await
                    !(try PostgresIdempotencyKeys.link(
                        key: claim.key, owner: claim.owner, resourceId: refund.id, on: c))
            {
                throw CoreError(.idempotencyInProgress, "another request with this Idempotency-Key took it over")
            }
            guard
                let payment = try await c.query(
                    "SELECT amount_captured, amount_refunded, amount_disputed, status FROM payments WHERE id = $1 FOR UPDATE",
                    [.text(refund.paymentId)]
                ).first
            else { throw CoreError.notFound("payment") }
            let reserved =
                try await c.query(
                    "SELECT COALESCE(SUM(amount), 0)::bigint AS total FROM refunds WHERE payment_id = $1 AND status IN ('pending', 'unknown')",
                    [.text(refund.paymentId)]
                ).first?.int64("total") ?? 0
            try RefundLimit(
                captured: try payment.int64("amount_captured"), refunded: try payment.int64("amount_refunded"),
                pending: reserved, disputed: try payment.int64("amount_disputed")
            ).check(refund.amount)
            try await c.query(Self.upsertRefund, params)
            try await self.announce(refund, previous: nil, on: c)
        }
    }

    /// Upserts refunds, announcing each whose status changes.
    func upsertAnnouncing(_ refunds: [Refund], _ params: [[PGValue]], on c: PGConnection) async throws {
        for (refund, params) in zip(refunds, params) {
            let previous = try await PostgresOutbox.lockedStatus("refunds", id: refund.id, on: c)
            try await c.query(Self.upsertRefund, params)
            try await announce(refund, previous: previous, on: c)
        }
    }

    public func attempt(accountId: UUID, attemptId: String) async throws -> Attempt? {
        try await system(
            repeatable: PGStatement(
                "SELECT * FROM attempts WHERE id = $1 AND account_id = $2::uuid", [.text(attemptId), .uuid(accountId)])
        ).first.map(Self.attempt)
    }

    public func attempt(accountId: UUID, providerPaymentId: String) async throws -> Attempt? {
        try await system(
            repeatable: PGStatement(
                "SELECT * FROM attempts WHERE provider_payment_id = $1 AND account_id = $2::uuid ORDER BY started_at DESC LIMIT 1",
                [.text(providerPaymentId), .uuid(accountId)])
        ).first.map(Self.attempt)
    }

    public func refund(id: String) async throws -> Refund? {
        try await system { c in
            try await c.query("SELECT * FROM refunds WHERE id = $1", [.text(id)]).first.map(Self.refund)
        }
    }

    public func openPayments(accountId: UUID, limit: Int) async throws -> [(tenant: UUID, paymentId: String)] {
        let rows = try await system { c in
            try await c.query(
                """
                SELECT tenant_id, id FROM payments WHERE provider_account_id = $1::uuid
                AND status IN ('processing', 'requires_action', 'unknown') ORDER BY updated_at DESC LIMIT $2::bigint
                """,
                [.uuid(accountId), .int(Int64(limit))]
            ).rows
        }
        return try rows.map { (tenant: try $0.uuid("tenant_id"), paymentId: try $0.string("id")) }
    }
}

extension PostgresPayments {
    public func claimUnresolved(now: Date, firstDelay: TimeInterval, leaseUntil: Date, limit: Int) async throws
        -> [(tenant: UUID, paymentId: String)]
    {
        let rows = try await system { c in
            try await c.query(
                """
                UPDATE payments SET next_sync_at = $3::timestamptz WHERE id IN (
                    SELECT id FROM payments
                    WHERE status = 'unknown' AND NOT review_required
                    AND COALESCE(next_sync_at, unknown_since + make_interval(secs => $2::double precision))
                        <= $1::timestamptz
                    ORDER BY COALESCE(next_sync_at, unknown_since) LIMIT $4::bigint
                    FOR UPDATE SKIP LOCKED)
                RETURNING tenant_id, id
                """,
                [.timestamp(now), .double(firstDelay), .timestamp(leaseUntil), .int(Int64(limit))]
            ).rows
        }
        return try rows.map { (tenant: try $0.uuid("tenant_id"), paymentId: try $0.string("id")) }
    }

    public func claimStaleProcessing(now: Date, cutoff: Date, leaseUntil: Date, limit: Int) async throws
        -> [(tenant: UUID, paymentId: String)]
    {
        // A `processing` payment has no sync schedule, so `next_sync_at` serves as its claim's lease; the
        // next write of the payment clears it.
        let rows = try await system { c in
            try await c.query(
                """
                UPDATE payments SET next_sync_at = $3::timestamptz WHERE id IN (
                    SELECT p.id FROM payments p
                    WHERE p.status = 'processing' AND p.updated_at <= $2::timestamptz
                    AND (p.next_sync_at IS NULL OR p.next_sync_at <= $1::timestamptz)
                    AND NOT EXISTS (
                        SELECT 1 FROM attempts a WHERE a.payment_id = p.id AND a.started_at > $2::timestamptz)
                    ORDER BY p.updated_at LIMIT $4::bigint
                    FOR UPDATE OF p SKIP LOCKED)
                RETURNING tenant_id, id
                """,
                [.timestamp(now), .timestamp(cutoff), .timestamp(leaseUntil), .int(Int64(limit))]
            ).rows
        }
        return try rows.map { (tenant: try $0.uuid("tenant_id"), paymentId: try $0.string("id")) }
    }

    public func paymentsForReview(tenant: UUID?, limit: Int) async throws -> [Payment] {
        try await system { c in
            try await c.query(
                """
                SELECT * FROM payments WHERE review_required AND ($1::uuid IS NULL OR tenant_id = $1::uuid)
                ORDER BY unknown_since, id LIMIT $2::bigint
                """,
                [tenant.pg, .int(Int64(limit))]
            ).rows.map(Self.payment)
        }
    }
}

extension PostgresPayments {
    public func claimExpiredSessions(now: Date, retryAfter: TimeInterval, horizon: TimeInterval, limit: Int)
        async throws -> [(tenant: UUID, paymentId: String)]
    {
        // `next_action.expiresAt` is stored as seconds since 1970; a renewed session expires later than the
        // last sweep, so it is swept again when it expires in turn. A session swept after its expiry that
        // is still waiting (the provider still called it open) is swept again `retryAfter` seconds after
        // the last sweep, until `horizon` seconds past its expiry; past that, it is swept once more (the
        // caller flags it for review if it still waits).
        try await claimWaitingSessions(
            now: now, limit: limit,
            where: """
                (next_action->>'expiresAt')::double precision <= extract(epoch FROM $1::timestamptz)
                AND CASE WHEN extract(epoch FROM $1::timestamptz)
                        >= (next_action->>'expiresAt')::double precision + \(horizon)
                    THEN session_swept_at IS NULL OR extract(epoch FROM session_swept_at)
                        < (next_action->>'expiresAt')::double precision + \(horizon)
                    ELSE session_swept_at IS NULL
                        OR extract(epoch FROM session_swept_at) < (next_action->>'expiresAt')::double precision
                        OR extract(epoch FROM session_swept_at) + \(retryAfter) <= extract(epoch FROM $1::timestamptz)
                    END
                """)
    }

    public func claimHalfLifeSessions(now: Date, limit: Int) async throws -> [(tenant: UUID, paymentId: String)] {
        // The rule of `SessionHalfLife`, from the payment's creation to `next_action.expiresAt` (seconds
        // since 1970). Marking the sync in `session_swept_at` (at or after the half-life point, before the
        // expiry) keeps the expiry sweep due, and takes the payment again only for a later, renewed session.
        try await claimWaitingSessions(
            now: now, limit: limit,
            where: """
                extract(epoch FROM $1::timestamptz) < (next_action->>'expiresAt')::double precision
                AND extract(epoch FROM $1::timestamptz) >= (extract(epoch FROM created_at)
                    + (next_action->>'expiresAt')::double precision) / 2
                AND (session_swept_at IS NULL
                    OR extract(epoch FROM session_swept_at) < (extract(epoch FROM created_at)
                        + (next_action->>'expiresAt')::double precision) / 2)
                """)
    }

    /// Claims up to `limit` payments waiting for the app whose session has an expiry and matches
    /// `condition` (SQL over `payments`, with `$1` the time `now`), marking them swept at `now`.
    private func claimWaitingSessions(now: Date, limit: Int, where condition: String) async throws -> [(
        tenant: UUID, paymentId: String
    )] {
        let rows = try await system { c in
            try await c.query(
                """
                UPDATE payments SET session_swept_at = $1::timestamptz WHERE id IN (
                    SELECT id FROM payments
                    WHERE status = 'requires_action' AND next_action ? 'expiresAt' AND \(condition)
                    ORDER BY updated_at LIMIT $2::bigint
                    FOR UPDATE SKIP LOCKED)
                RETURNING tenant_id, id
                """,
                [.timestamp(now), .int(Int64(limit))]
            ).rows
        }
        return try rows.map { (tenant: try $0.uuid("tenant_id"), paymentId: try $0.string("id")) }
    }
}
