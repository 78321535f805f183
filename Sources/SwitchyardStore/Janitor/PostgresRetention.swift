import Foundation
import SwitchyardCore

/// The retention deletes of finished rows, over the shared ``PostgresDatabase``.
public struct PostgresRetention: RetentionRepository, PostgresRepository {
    let database: PostgresDatabase
}

/// The retention deletes: each picks at most `limit` of the oldest finished rows of one kind through its
/// index (migration 17), locks them skipping any row another transaction holds (a worker's lease, a replica's
/// janitor, a request answering a key), and deletes them. The selection's conditions are re-checked on each
/// row once it is locked, so a row that stopped being finished meanwhile is kept.
extension PostgresRetention {
    public func deleteExpired(_ kind: RetentionKind, before cutoff: Date, limit: Int) async throws -> Int {
        let sql = Self.retentionDelete(kind)
        return try await system { c in
            try await c.query(sql, [.timestamp(cutoff), .int(Int64(max(0, limit)))]).affectedRows
        }
    }

    /// The statement deleting rows of `kind` finished before `$1`, at most `$2` of them.
    static func retentionDelete(_ kind: RetentionKind) -> String {
        switch kind {
        case .idempotencyKeys:
            return """
                DELETE FROM idempotency_keys WHERE (tenant_id, key) IN (\(retentionSelection(kind)))
                """
        case .webhookDeliveries:
            // The attempts go in the same statement: their foreign key is checked at its end.
            return """
                WITH doomed AS (\(retentionSelection(kind))),
                    attempts AS (DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM doomed))
                DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM doomed)
                """
        case .webhookEvents:
            return "DELETE FROM webhook_events WHERE id IN (\(retentionSelection(kind)))"
        case .notifications:
            return "DELETE FROM notifications WHERE id IN (\(retentionSelection(kind)))"
        case .auditEntries:
            return "DELETE FROM audit_log WHERE id IN (\(retentionSelection(kind)))"
        }
    }

    /// The rows of `kind` a retention delete removes: finished before `$1`, oldest first, at most `$2`,
    /// locked unless another transaction holds them.
    static func retentionSelection(_ kind: RetentionKind) -> String {
        switch kind {
        case .idempotencyKeys:
            return """
                SELECT tenant_id, key FROM idempotency_keys
                WHERE completed_at IS NOT NULL AND completed_at < $1::timestamptz
                ORDER BY completed_at LIMIT $2::bigint FOR UPDATE SKIP LOCKED
                """
        case .webhookDeliveries:
            return """
                SELECT id FROM webhook_deliveries
                WHERE status IN ('succeeded', 'dead', 'canceled') AND updated_at < $1::timestamptz
                ORDER BY updated_at LIMIT $2::bigint FOR UPDATE SKIP LOCKED
                """
        case .webhookEvents:
            return """
                SELECT e.id FROM webhook_events e
                WHERE e.created_at < $1::timestamptz
                    AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
                ORDER BY e.created_at LIMIT $2::bigint FOR UPDATE OF e SKIP LOCKED
                """
        case .notifications:
            let open = PaymentStatus.allCases.filter { !$0.isFinal }.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            return """
                SELECT n.id FROM notifications n
                WHERE n.verified AND n.applied_at IS NOT NULL AND n.applied_at < $1::timestamptz
                    AND (n.review_code IS NULL OR NOT EXISTS (
                        SELECT 1 FROM payments p WHERE p.id = n.payment_id AND p.status IN (\(open))))
                ORDER BY n.applied_at LIMIT $2::bigint FOR UPDATE OF n SKIP LOCKED
                """
        case .auditEntries:
            return """
                SELECT id FROM audit_log WHERE at < $1::timestamptz
                ORDER BY at LIMIT $2::bigint FOR UPDATE SKIP LOCKED
                """
        }
    }
}
