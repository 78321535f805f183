import Foundation
import SwitchyardCore

/// What the webhook workers of every replica share: claims that skip rows another worker holds, and
/// leases that keep a claimed delivery from being sent twice while its attempt runs.
extension PostgresWebhooks {
    /// Claims up to `limit` pending deliveries due at `now`, at most `perEndpoint` in flight per endpoint
    /// and `perTenant` per tenant over all workers, skipping rows another worker holds; moves their due
    /// time and lease to `leaseUntil` (and counts the attempt) so no other worker takes them meanwhile.
    /// Deliveries to an endpoint disabled since are cancelled instead.
    public func claimWebhookDeliveries(
        now: Date, leaseUntil: Date, limit: Int, perEndpoint: Int, perTenant: Int
    ) async throws -> [ClaimedDelivery] {
        let rows = try await system { c in
            // Endpoints with due deliveries, locked (in id order, so concurrent claims cannot deadlock) so
            // that claims never count the same endpoint's leases at once. A claim waits for another's rather
            // than skipping its endpoints: skipping would leave a freed slot idle until the next poll. The
            // lock does not block the key-share locks of transactions adding deliveries to the endpoint.
            let endpoints = try await c.query(
                """
                SELECT e.id FROM webhook_endpoints e
                WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id
                    AND d.status = 'pending' AND d.next_attempt_at <= $1::timestamptz)
                ORDER BY e.id FOR NO KEY UPDATE OF e
                """,
                [.timestamp(now)]
            ).rows.map { try $0.string("id") }
            if endpoints.isEmpty { return [PGRow]() }
            // A new statement sees every lease committed before the locks were taken.
            return try await c.query(
                """
                WITH endpoint AS (
                    SELECT e.id, e.tenant_id FROM webhook_endpoints e
                    WHERE e.id IN (SELECT jsonb_array_elements_text($4::jsonb))),
                candidate AS (
                    SELECT x.id, x.next_attempt_at, ep.tenant_id FROM endpoint ep
                    CROSS JOIN LATERAL (
                        SELECT count(*) AS n FROM webhook_deliveries b
                        WHERE b.endpoint_id = ep.id AND b.status = 'pending' AND b.leased_until > $1::timestamptz
                    ) busy
                    CROSS JOIN LATERAL (
                        SELECT d.id, d.next_attempt_at, row_number() OVER (ORDER BY d.next_attempt_at, d.id) AS rank
                        FROM webhook_deliveries d
                        WHERE d.endpoint_id = ep.id AND d.status = 'pending' AND d.next_attempt_at <= $1::timestamptz
                        ORDER BY d.next_attempt_at, d.id LIMIT $5::bigint
                    ) x
                    WHERE x.rank + busy.n <= $5::bigint),
                tenant_busy AS (
                    SELECT b.tenant_id, count(*) AS n FROM webhook_deliveries b
                    WHERE b.status = 'pending' AND b.leased_until > $1::timestamptz
                        AND b.tenant_id IN (SELECT tenant_id FROM endpoint)
                    GROUP BY b.tenant_id),
                ranked AS (
                    SELECT c.id, c.next_attempt_at,
                        row_number() OVER (PARTITION BY c.tenant_id ORDER BY c.next_attempt_at, c.id)
                            + coalesce(t.n, 0) AS load
                    FROM candidate c LEFT JOIN tenant_busy t USING (tenant_id)),
                due AS (
                    SELECT d.id FROM webhook_deliveries d JOIN ranked USING (id)
                    WHERE d.status = 'pending' AND ranked.load <= $6::bigint
                    ORDER BY ranked.next_attempt_at, d.id LIMIT $3::bigint
                    FOR UPDATE OF d SKIP LOCKED),
                claimed AS (
                    UPDATE webhook_deliveries d SET next_attempt_at = $2::timestamptz, leased_until = $2::timestamptz,
                        attempt_count = d.attempt_count + 1, updated_at = $1::timestamptz
                    FROM due WHERE d.id = due.id
                    RETURNING d.id, d.tenant_id, d.event_id, d.endpoint_id, d.attempt_count)
                SELECT c.id, c.tenant_id, c.event_id, c.endpoint_id, c.attempt_count, e.type, e.payload,
                    p.url, p.secret_encrypted, p.enabled, p.previous_secret_encrypted, p.previous_secret_expires_at
                FROM claimed c JOIN webhook_events e ON e.id = c.event_id
                JOIN webhook_endpoints p ON p.id = c.endpoint_id
                """,
                [
                    .timestamp(now), .timestamp(leaseUntil), .int(Int64(limit)), .json(try StoreJSON.encode(endpoints)),
                    .int(Int64(perEndpoint)), .int(Int64(perTenant)),
                ]
            ).rows
        }
        var claims: [ClaimedDelivery] = []
        var canceled: [String] = []
        for row in rows {
            let endpointId = try row.string("endpoint_id")
            guard try row.bool("enabled") else {
                canceled.append(try row.string("id"))
                continue
            }
            let context = SealContext.webhook(endpointId)
            claims.append(
                ClaimedDelivery(
                    id: try row.string("id"), tenantId: try row.uuid("tenant_id"), eventId: try row.string("event_id"),
                    eventType: try row.string("type"), endpointId: endpointId, url: try row.string("url"),
                    secret: try secrets.open(try row.string("secret_encrypted"), context: context),
                    payload: Data(try row.string("payload").utf8), attemptNumber: Int(try row.int64("attempt_count")),
                    previousSecret: try row.optionalString("previous_secret_encrypted").map {
                        try secrets.open($0, context: context)
                    },
                    previousSecretExpiresAt: row.optionalDate("previous_secret_expires_at")))
        }
        if !canceled.isEmpty {
            try await system { [canceled] c in
                for id in canceled {
                    try await c.query(
                        """
                        UPDATE webhook_deliveries SET status = 'canceled', next_attempt_at = NULL, leased_until = NULL
                        WHERE id = $1
                        """,
                        [.text(id)])
                }
            }
        }
        return claims
    }

    /// Records an attempt of a claimed delivery and where the delivery goes next: `succeeded` on a 2xx,
    /// else pending until `retryAt`, or `dead` when there is no retry left.
    public func recordWebhookAttempt(
        _ claim: ClaimedDelivery, attempt: WebhookAttempt, retryAt: Date?
    ) async throws {
        let now = clock()
        let status: WebhookDelivery.Status = attempt.succeeded ? .succeeded : (retryAt == nil ? .dead : .pending)
        try await system { c in
            try await c.query(
                """
                INSERT INTO webhook_attempts (tenant_id, delivery_id, number, started_at, status_code, latency_ms,
                    error, worker)
                VALUES ($1::uuid, $2, $3::integer, $4::timestamptz, $5::integer, $6::integer, $7, $8)
                """,
                [
                    .uuid(claim.tenantId), .text(claim.id), .int(Int64(attempt.number)), .timestamp(attempt.startedAt),
                    attempt.statusCode.map { .int(Int64($0)) } ?? .null, .int(Int64(attempt.latencyMs)),
                    attempt.error.pg, .text(attempt.worker),
                ])
            try await c.query(
                """
                UPDATE webhook_deliveries SET status = $2, next_attempt_at = $3::timestamptz, leased_until = NULL,
                    last_status_code = $4::integer, last_error = $5, updated_at = $6::timestamptz,
                    delivered_at = CASE WHEN $2 = 'succeeded' THEN $6::timestamptz ELSE delivered_at END
                WHERE id = $1 AND status = 'pending'
                """,
                [
                    .text(claim.id), .text(status.rawValue), status == .pending ? retryAt.pg : .null,
                    attempt.statusCode.map { .int(Int64($0)) } ?? .null, attempt.error.pg, .timestamp(now),
                ])
        }
    }
}
