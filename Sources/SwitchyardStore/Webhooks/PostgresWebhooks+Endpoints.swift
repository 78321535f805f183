import Foundation
import SwitchyardCore
import SwitchyardCrypto

/// Changes to a tenant's webhook endpoints after registration: updates (re-enabling included), secret
/// rotation with an overlap, and test pings.
extension PostgresWebhooks {
    /// Applies an update; nil when the endpoint does not exist. Re-enabling counts against `maxEnabled`
    /// (`409 endpoint_quota_exceeded`); disabling cancels the endpoint's pending deliveries.
    public func updateWebhookEndpoint(
        tenant: UUID, id: String, update: WebhookEndpointUpdate, actor: String, maxEnabled: Int
    ) async throws -> WebhookEndpoint? {
        let now = clock()
        return try await tenantScoped(tenant) { c in
            guard try await c.query("SELECT 1 FROM webhook_endpoints WHERE id = $1", [.text(id)]).first != nil else {
                return nil
            }
            if update.enabled == true {
                try await Self.lockWebhookQuota(c, tenant: tenant, "endpoints")
                let others =
                    try await c.query(
                        "SELECT count(*) AS n FROM webhook_endpoints WHERE enabled AND id <> $1", [.text(id)]
                    ).first?.int64("n") ?? 0
                guard others < Int64(maxEnabled) else {
                    throw CoreError(
                        .endpointQuotaExceeded,
                        "at most \(maxEnabled) enabled webhook endpoints per tenant; disable one to enable another")
                }
            }
            guard
                let row = try await c.query(
                    """
                    UPDATE webhook_endpoints SET url = coalesce($2, url), description = coalesce($3, description),
                        event_types = coalesce($4::jsonb, event_types), enabled = coalesce($5::boolean, enabled),
                        updated_at = $6::timestamptz
                    WHERE id = $1 RETURNING *
                    """,
                    [
                        .text(id), update.url.pg, update.description.pg,
                        try update.eventTypes.map { PGValue.json(try StoreJSON.encode($0)) } ?? .null,
                        update.enabled.map { PGValue.bool($0) } ?? .null, .timestamp(now),
                    ]
                ).first
            else { return nil }
            if update.enabled == false { try await Self.cancelPendingDeliveries(c, endpoint: id, at: now) }
            var details: [String: String] = [:]
            if let url = update.url { details["url"] = url }
            if let types = update.eventTypes { details["event_types"] = types.joined(separator: ",") }
            if let enabled = update.enabled { details["enabled"] = "\(enabled)" }
            try await PostgresTenants.audit(
                c, tenant: tenant, actor: actor, action: "webhook_endpoint.update", target: id, details: details,
                at: now)
            return try Self.endpoint(row)
        }
    }

    /// Seals a fresh secret as the endpoint's current one and keeps the replaced one (still sealed) until
    /// `rotation` ends its overlap. Returns the endpoint and the new secret, or nil when it does not exist.
    public func rotateWebhookSecret(tenant: UUID, id: String, rotation: WebhookSecretRotation, actor: String)
        async throws -> (WebhookEndpoint, secret: String)?
    {
        let now = clock()
        let secret = "whsec_" + SecureRandom.token(bytes: 32)
        let sealed = try secrets.seal(secret, context: SealContext.webhook(id))
        let endpoint: WebhookEndpoint? = try await tenantScoped(tenant) { c in
            guard
                let row = try await c.query(
                    """
                    UPDATE webhook_endpoints SET
                        previous_secret_encrypted = CASE WHEN $3::timestamptz IS NULL THEN NULL ELSE secret_encrypted END,
                        previous_secret_expires_at = $3::timestamptz, secret_encrypted = $2,
                        updated_at = $4::timestamptz
                    WHERE id = $1 RETURNING *
                    """,
                    [.text(id), .text(sealed), rotation.previousExpiresAt.pg, .timestamp(now)]
                ).first
            else { return nil }
            try await PostgresTenants.audit(
                c, tenant: tenant, actor: actor, action: "webhook_endpoint.rotate_secret", target: id,
                details: ["previous_expires_at": rotation.previousExpiresAt.map { "\($0)" } ?? "now"], at: now)
            return try Self.endpoint(row)
        }
        return endpoint.map { ($0, secret) }
    }

    /// Stores a `ping` event about the endpoint and one delivery of it to that endpoint, due at once; nil
    /// when the endpoint does not exist, `409 invalid_state` when it is disabled.
    public func sendWebhookPing(tenant: UUID, id: String, actor: String) async throws -> WebhookDelivery? {
        let now = clock()
        return try await tenantScoped(tenant) { c in
            guard
                let row = try await c.query("SELECT * FROM webhook_endpoints WHERE id = $1 FOR KEY SHARE", [.text(id)])
                    .first
            else { return nil }
            let endpoint = try Self.endpoint(row)
            guard endpoint.enabled else {
                throw CoreError(.invalidState, "the webhook endpoint is disabled; enable it to test it")
            }
            let event = try WebhookEvent.ping(endpoint: endpoint, id: PostgresOutbox.eventIds.make("evt"), at: now)
            try await c.pipeline([PostgresOutbox.storing(event)])
            let delivery = try await c.query(
                """
                INSERT INTO webhook_deliveries (id, tenant_id, event_id, endpoint_id, status, next_attempt_at,
                    created_at, updated_at)
                VALUES ('whd_' || replace(gen_random_uuid()::text, '-', ''), $1::uuid, $2, $3, 'pending',
                    $4::timestamptz, $4::timestamptz, $4::timestamptz)
                RETURNING *
                """,
                [.uuid(tenant), .text(event.id), .text(id), .timestamp(now)]
            ).first
            try await PostgresTenants.audit(
                c, tenant: tenant, actor: actor, action: "webhook_endpoint.test", target: id,
                details: ["event": event.id], at: now)
            return try delivery.map(Self.delivery)
        }
    }

    /// Cancels the endpoint's pending deliveries (it was disabled).
    static func cancelPendingDeliveries(_ c: PGConnection, endpoint id: String, at now: Date) async throws {
        try await c.query(
            """
            UPDATE webhook_deliveries SET status = 'canceled', next_attempt_at = NULL, updated_at = $2::timestamptz
            WHERE endpoint_id = $1 AND status = 'pending'
            """,
            [.text(id), .timestamp(now)])
    }
}
