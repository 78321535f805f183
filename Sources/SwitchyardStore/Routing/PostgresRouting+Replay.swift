import Foundation
import SwitchyardCore

extension PostgresRouting {
    /// One query, hence one snapshot: the first attempts with a propensity, newest first, each with its
    /// payment's reference (served by `routing_outcomes_replay`). It reads the ledger only and takes no lock.
    static let loggedDecisionsQuery = """
        SELECT o.payment_id, p.reference, o.account_id, o.method, o.currency, o.country, o.amount, o.approved,
            o.propensity, o.fee, o.decided_at
        FROM routing_outcomes o LEFT JOIN payments p ON p.id = o.payment_id
        WHERE o.tenant_id = $1::uuid AND o.propensity IS NOT NULL AND o.first_attempt
            AND o.amount IS NOT NULL AND o.payment_id IS NOT NULL
            AND ($2::timestamptz IS NULL OR o.decided_at >= $2::timestamptz)
            AND ($3::timestamptz IS NULL OR o.decided_at < $3::timestamptz)
        ORDER BY o.decided_at DESC, o.attempt_id DESC
        LIMIT $4::bigint
        """

    public func loggedDecisions(tenant: UUID, window: ReplayWindow, limit: Int) async throws -> [LoggedDecision] {
        let rows = try await tenantScoped(tenant) { c in
            try await c.query(
                Self.loggedDecisionsQuery,
                [
                    .uuid(tenant), window.from.map { .timestamp($0) } ?? .null,
                    window.to.map { .timestamp($0) } ?? .null, .int(Int64(max(0, limit))),
                ]
            ).rows
        }
        return try rows.map { row in
            LoggedDecision(
                paymentId: try row.string("payment_id"), reference: row.optionalString("reference"),
                segment: RoutingSegment(
                    country: try row.string("country"), currency: try row.string("currency"),
                    method: try row.string("method")),
                amount: try row.int64("amount"), accountId: try row.uuid("account_id"),
                propensity: try row.double("propensity"), approved: try row.bool("approved"),
                fee: row.optionalInt64("fee"), decidedAt: try row.date("decided_at"))
        }
    }
}
