import Foundation
import SwitchyardCore

extension PostgresPayments {
    public func recordNotificationDelay(tenant: UUID, accountId: UUID, seconds: TimeInterval, at time: Date)
        async throws
    {
        try await tenantScoped(tenant) { c in
            try await c.query(
                """
                INSERT INTO notification_delays (tenant_id, account_id, seconds, observed_at)
                VALUES ($1::uuid, $2::uuid, $3::double precision, $4::timestamptz)
                """, [.uuid(tenant), .uuid(accountId), .double(max(0, seconds)), .timestamp(time)])
        }
    }

    public func observedNotificationDelays(since: Date, percentile: Int, minSamples: Int) async throws
        -> [UUID: TimeInterval]
    {
        // `percentile_disc` is the nearest rank: the first delay whose cumulative share reaches the fraction.
        let rows = try await system { c in
            try await c.query(
                """
                SELECT account_id, percentile_disc($2::double precision) WITHIN GROUP (ORDER BY seconds) AS p
                FROM notification_delays WHERE observed_at >= $1::timestamptz
                GROUP BY account_id HAVING count(*) >= $3::bigint
                """,
                [
                    .timestamp(since), .double(Double(min(max(percentile, 1), 100)) / 100),
                    .int(Int64(max(1, minSamples))),
                ]
            ).rows
        }
        var observed: [UUID: TimeInterval] = [:]
        for row in rows { observed[try row.uuid("account_id")] = try row.double("p") }
        return observed
    }

    public func pruneNotificationDelays(before cutoff: Date, limit: Int) async throws -> Int {
        try await system { c in
            try await c.query(
                """
                DELETE FROM notification_delays WHERE ctid IN (
                    SELECT ctid FROM notification_delays WHERE observed_at < $1::timestamptz
                    LIMIT $2::bigint FOR UPDATE SKIP LOCKED)
                """, [.timestamp(cutoff), .int(Int64(max(0, limit)))]
            ).affectedRows
        }
    }

    public func claimOverdueWaiting(
        now: Date, thresholds: [UUID: TimeInterval], fallback: TimeInterval, policy: OverdueNotifications,
        perAccount: Int, limit: Int
    ) async throws -> [(tenant: UUID, paymentId: String)] {
        var map: [String: Double] = [:]
        for (account, seconds) in thresholds { map[account.uuidString.lowercased()] = seconds }
        let thresholdsJSON = try StoreJSON.encode(map)
        let rows = try await system { c in
            // Due: past the account's threshold after creation the first time, then at `overdue_next_at`. The
            // next is the threshold doubled per inquiry, at most `max_interval_seconds` (the rule of
            // `OverdueNotifications.interval(after:threshold:)`). At most `perAccount` per account per look.
            try await c.query(
                """
                WITH t AS (
                    SELECT key::uuid AS account_id, value::double precision AS threshold
                    FROM jsonb_each_text($2::jsonb)
                ), ranked AS (
                    SELECT p.id, COALESCE(t.threshold, $3::double precision) AS threshold,
                        row_number() OVER (PARTITION BY p.provider_account_id ORDER BY p.created_at, p.id) AS n
                    FROM payments p LEFT JOIN t ON t.account_id = p.provider_account_id
                    WHERE p.status = 'requires_action' AND COALESCE(p.overdue_next_at,
                        p.created_at + make_interval(secs => COALESCE(t.threshold, $3::double precision)))
                        <= $1::timestamptz
                ), chosen AS (
                    SELECT p.id, r.threshold FROM payments p JOIN ranked r ON r.id = p.id
                    WHERE r.n <= $5::bigint AND p.status = 'requires_action'
                        AND COALESCE(p.overdue_next_at, p.created_at + make_interval(secs => r.threshold))
                            <= $1::timestamptz
                    ORDER BY p.created_at LIMIT $6::bigint
                    FOR UPDATE OF p SKIP LOCKED
                )
                UPDATE payments p SET overdue_inquiries = p.overdue_inquiries + 1,
                    overdue_next_at = $1::timestamptz + make_interval(secs =>
                        LEAST(c.threshold * power(2, LEAST(p.overdue_inquiries + 1, 30)), $4::double precision))
                FROM chosen c WHERE p.id = c.id
                RETURNING p.tenant_id, p.id
                """,
                [
                    .timestamp(now), .json(thresholdsJSON), .double(fallback),
                    .double(Double(max(1, policy.maxIntervalSeconds))), .int(Int64(max(1, perAccount))),
                    .int(Int64(max(0, limit))),
                ]
            ).rows
        }
        return try rows.map { (tenant: try $0.uuid("tenant_id"), paymentId: try $0.string("id")) }
    }
}
