import Foundation
import SwitchyardCore

extension PostgresDisputes {
    /// The statuses of a dispute waiting for the merchant's evidence.
    static let waiting = "('needs_response', 'warning_needs_response')"

    public func remindEvidenceDue(now: Date, horizons: [Int], limit: Int) async throws -> [Dispute] {
        guard !horizons.isEmpty else { return [] }
        return try await system { c in
            // The smallest horizon begun is the reminder due; one already sent at it (or a smaller one) is not
            // sent again. Marking the horizon is the claim; its event is written in the same transaction.
            let rows = try await c.query(
                """
                WITH due AS (
                    SELECT d.id, h.horizon FROM disputes d
                    CROSS JOIN LATERAL (
                        SELECT min(x) AS horizon FROM unnest($2::int[]) AS x
                        WHERE d.evidence_due_by - make_interval(hours => x) <= $1::timestamptz
                    ) h
                    WHERE d.status IN \(Self.waiting) AND d.evidence_due_by > $1::timestamptz
                        AND h.horizon IS NOT NULL AND (d.reminded_hours IS NULL OR d.reminded_hours > h.horizon)
                    ORDER BY d.evidence_due_by LIMIT $3::bigint
                    FOR UPDATE OF d SKIP LOCKED
                )
                UPDATE disputes d SET reminded_hours = due.horizon FROM due WHERE d.id = due.id
                RETURNING d.*
                """,
                [
                    .timestamp(now), .text("{\(horizons.map(String.init).joined(separator: ","))}"),
                    .int(Int64(max(0, limit))),
                ]
            ).rows
            let disputes = try rows.map(Self.dispute)
            var statements: [PGStatement] = []
            for dispute in disputes {
                let event = try WebhookEvent.dispute(
                    WebhookEventType.evidenceDueSoon, dispute, id: PostgresOutbox.eventIds.make("evt"), at: now)
                statements += PostgresOutbox.enqueueing(event)
            }
            if !statements.isEmpty { try await c.pipeline(statements) }
            return disputes
        }
    }

    public func pastDue(before: Date, limit: Int) async throws -> [Dispute] {
        try await system { c in
            try await c.query(
                """
                SELECT * FROM disputes WHERE status IN \(Self.waiting) AND evidence_due_by < $1::timestamptz
                ORDER BY evidence_due_by LIMIT $2::bigint
                """, [.timestamp(before), .int(Int64(max(0, limit)))]
            ).rows.map(Self.dispute)
        }
    }

    public func openByDueWindow(now: Date) async throws -> [String: Int64] {
        try await system { c in
            let rows = try await c.query(
                """
                SELECT CASE
                    WHEN evidence_due_by IS NULL THEN 'no_deadline'
                    WHEN evidence_due_by <= $1::timestamptz THEN 'past_due'
                    WHEN evidence_due_by <= $1::timestamptz + interval '24 hours' THEN 'within_24h'
                    WHEN evidence_due_by <= $1::timestamptz + interval '72 hours' THEN 'within_72h'
                    ELSE 'later' END AS due, count(*) AS n
                FROM disputes
                WHERE status IN ('needs_response', 'warning_needs_response', 'under_review', 'warning_under_review')
                GROUP BY 1
                """, [.timestamp(now)]
            ).rows
            var windows: [String: Int64] = [:]
            for row in rows { windows[try row.string("due")] = try row.int64("n") }
            return windows
        }
    }
}
