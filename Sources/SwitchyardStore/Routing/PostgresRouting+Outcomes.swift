import Foundation
import SwitchyardCore

/// The ledger of definite answers that the authorisation statistics count.
extension PostgresRouting {
    /// Records an attempt's definite answer once: a later write of the same attempt (authorized, then
    /// succeeded; a replay; another replica) finds the row and changes nothing. Method, currency, country and
    /// amount are the payment's; for a first attempt, the probability with which routing chose its account
    /// is read from the payment's routing decision (none without a rule); the fee from the decision's
    /// ranking; the rollout arm and rollout id from the decision (null outside a rollout).
    static let recordRoutingOutcome = """
        INSERT INTO routing_outcomes (attempt_id, tenant_id, account_id, method, currency, country, approved,
            decided_at, payment_id, amount, first_attempt, propensity, fee, arm, rollout_id)
        SELECT $1, p.tenant_id, $2::uuid, p.method, p.currency, p.country, $3::boolean, $4::timestamptz,
            p.id, p.amount, $6::boolean,
            CASE WHEN $6::boolean THEN (
                SELECT (e->>'probability')::float8 FROM jsonb_array_elements(
                    CASE WHEN jsonb_typeof(p.routing->'propensities') = 'array' THEN p.routing->'propensities'
                    ELSE '[]'::jsonb END) e
                WHERE e->>'account_id' = $2::uuid::text AND (e->>'probability')::float8 > 0 LIMIT 1) END,
            (SELECT (e->>'fee')::bigint FROM jsonb_array_elements(
                CASE WHEN jsonb_typeof(p.routing->'ranking') = 'array' THEN p.routing->'ranking'
                ELSE '[]'::jsonb END) e
             WHERE e->>'account_id' = $2::uuid::text AND jsonb_typeof(e->'fee') = 'number' LIMIT 1),
            p.routing->>'arm', (p.routing->>'rolloutId')::uuid
        FROM payments p WHERE p.id = $5
        ON CONFLICT (attempt_id) DO NOTHING
        """

    /// The parameters of ``recordRoutingOutcome`` for an attempt whose outcome counts, else nil.
    static func routingOutcomeParameters(_ a: Attempt) -> [PGValue]? {
        guard let approved = AuthorizationStats.counts(a.outcome) else { return nil }
        return [
            .text(a.id), .uuid(a.accountId), .bool(approved), .timestamp(a.finishedAt ?? a.startedAt),
            .text(a.paymentId), .bool(a.sequence == 1),
        ]
    }

    /// Deletes answers decided before `cutoff`, the oldest first, at most `limit` of them and none another
    /// replica's janitor is deleting; returns how many (served by `routing_outcomes_age`).
    public func pruneRoutingOutcomes(before cutoff: Date, limit: Int) async throws -> Int {
        try await system { c in
            try await c.query(
                """
                DELETE FROM routing_outcomes WHERE attempt_id IN (
                    SELECT attempt_id FROM routing_outcomes WHERE decided_at < $1::timestamptz
                    ORDER BY decided_at LIMIT $2::bigint FOR UPDATE SKIP LOCKED)
                """,
                [.timestamp(cutoff), .int(Int64(max(0, limit)))]
            ).affectedRows
        }
    }
}
