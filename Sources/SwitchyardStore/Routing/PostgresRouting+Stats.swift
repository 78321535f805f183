import Foundation
import SwitchyardCore

extension PostgresRouting {
    /// One query: each answer is numbered newest first within its account × method × currency and within
    /// its account × method × currency × country; the first `window.attempts` of each are counted.
    static let authorizationStatsQuery = """
        WITH recent AS (
            SELECT account_id, method, currency, country, approved, decided_at,
                row_number() OVER (PARTITION BY account_id, method, currency
                    ORDER BY decided_at DESC, attempt_id DESC) AS overall,
                row_number() OVER (PARTITION BY account_id, method, currency, country
                    ORDER BY decided_at DESC, attempt_id DESC) AS local
            FROM routing_outcomes WHERE tenant_id = $1::uuid AND decided_at >= $2::timestamptz
        )
        SELECT account_id, method, currency, NULL AS country, count(*) FILTER (WHERE approved) AS approved,
            count(*) FILTER (WHERE NOT approved) AS declined, max(decided_at) AS newest
        FROM recent WHERE overall <= $3::bigint GROUP BY account_id, method, currency
        UNION ALL
        SELECT account_id, method, currency, country, count(*) FILTER (WHERE approved),
            count(*) FILTER (WHERE NOT approved), max(decided_at)
        FROM recent WHERE local <= $3::bigint GROUP BY account_id, method, currency, country
        ORDER BY account_id, method, currency, country NULLS FIRST
        """

    public func authorizationStats(tenant: UUID, window: AuthorizationStatsWindow) async throws
        -> [AuthorizationStats]
    {
        let rows = try await tenantScoped(tenant) { c in
            try await c.query(
                Self.authorizationStatsQuery,
                [.uuid(tenant), .timestamp(window.since), .int(Int64(max(0, window.attempts)))]
            ).rows
        }
        return try rows.map { row in
            AuthorizationStats(
                accountId: try row.uuid("account_id"), method: try row.string("method"),
                currency: try row.string("currency"), country: row.optionalString("country"),
                approved: Int(try row.int64("approved")), declined: Int(try row.int64("declined")),
                newest: row.optionalDate("newest"))
        }
    }
}
