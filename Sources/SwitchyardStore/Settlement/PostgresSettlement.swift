import Foundation
import SwitchyardCore

/// The settlement janitor's claims of held authorizations and open operations, over the shared ``PostgresDatabase``.
public struct PostgresSettlement: SettlementRepository, PostgresRepository {
    let database: PostgresDatabase
}

extension PostgresSettlement {
    public func claimHeldAuthorizations(now: Date, hold: AuthorizationHold, limit: Int) async throws
        -> [(tenant: UUID, paymentId: String)]
    {
        // The rule of `AuthorizationHold`: due when a sync point (a share of the hold after creation) has
        // passed and the payment was not synced since it. Marking the sync at `now` is the claim.
        let shares = try StoreJSON.encode(hold.shares)
        let rows = try await system { c in
            try await c.query(
                """
                UPDATE payments SET hold_synced_at = $1::timestamptz WHERE id IN (
                    SELECT p.id FROM payments p
                    WHERE p.status = 'authorized' AND EXISTS (
                        SELECT 1 FROM jsonb_array_elements_text($2::jsonb) AS s(share)
                        WHERE p.created_at + make_interval(secs => s.share::double precision * $3::double precision)
                            <= $1::timestamptz
                        AND (p.hold_synced_at IS NULL OR p.hold_synced_at
                            < p.created_at + make_interval(secs => s.share::double precision * $3::double precision)))
                    ORDER BY p.created_at LIMIT $4::bigint
                    FOR UPDATE OF p SKIP LOCKED)
                RETURNING tenant_id, id
                """,
                [.timestamp(now), .json(shares), .double(hold.hold), .int(Int64(max(0, limit)))]
            ).rows
        }
        return try rows.map { (tenant: try $0.uuid("tenant_id"), paymentId: try $0.string("id")) }
    }

    public func claimOpenOperations(now: Date, firstDelay: TimeInterval, leaseUntil: Date, limit: Int) async throws
        -> [OpenOperation]
    {
        // Never looked at: due `firstDelay` after creation. Looked at: due at `next_sync_at`; none (the
        // horizon passed) means no more looks. The claim moves `next_sync_at` to the lease.
        let due = """
            ((sync_count = 0 AND next_sync_at IS NULL
                AND created_at + make_interval(secs => $2::double precision) <= $1::timestamptz)
             OR next_sync_at <= $1::timestamptz)
            """
        let limit = Int64(max(0, limit))
        let params: [PGValue] = [.timestamp(now), .double(firstDelay), .timestamp(leaseUntil), .int(limit)]
        return try await system { c in
            let refunds = try await c.query(
                """
                UPDATE refunds SET next_sync_at = $3::timestamptz WHERE id IN (
                    SELECT id FROM refunds WHERE status IN ('pending', 'unknown') AND \(due)
                    ORDER BY created_at LIMIT $4::bigint FOR UPDATE SKIP LOCKED)
                RETURNING tenant_id, payment_id, id, sync_count, created_at
                """, params
            ).rows.map { try Self.openOperation(.refund, $0) }
            let captures = try await c.query(
                """
                UPDATE payment_operations SET next_sync_at = $3::timestamptz WHERE id IN (
                    SELECT id FROM payment_operations
                    WHERE kind = 'capture' AND outcome IN ('pending', 'unknown') AND \(due)
                    ORDER BY created_at LIMIT $4::bigint FOR UPDATE SKIP LOCKED)
                RETURNING tenant_id, payment_id, id, sync_count, created_at
                """, params
            ).rows.map { try Self.openOperation(.capture, $0) }
            return refunds + captures
        }
    }

    public func scheduleOpenOperation(
        _ operation: OpenOperation, syncs: Int, nextSyncAt: Date?, reviewReason: String?
    ) async throws {
        let table = operation.kind == .refund ? "refunds" : "payment_operations"
        try await system { c in
            try await c.query(
                """
                UPDATE \(table) SET sync_count = $2::integer, next_sync_at = $3::timestamptz,
                    review_reason = COALESCE($4, review_reason)
                WHERE id = $1
                """,
                [.text(operation.id), .int(Int64(syncs)), nextSyncAt.pg, reviewReason.pg])
        }
    }

    static func openOperation(_ kind: OpenOperation.Kind, _ row: PGRow) throws -> OpenOperation {
        OpenOperation(
            kind: kind, tenant: try row.uuid("tenant_id"), paymentId: try row.string("payment_id"),
            id: try row.string("id"), syncs: Int(try row.int64("sync_count")), since: try row.date("created_at"))
    }
}
