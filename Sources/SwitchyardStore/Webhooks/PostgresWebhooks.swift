import Foundation
import SwitchyardCore
import SwitchyardCrypto

/// Webhook endpoints, events and deliveries, over the shared ``PostgresDatabase``.
public struct PostgresWebhooks: WebhookEndpointRepository, WebhookEventRepository, PostgresRepository {
    let database: PostgresDatabase
}

/// Tenants' webhook endpoints, events and deliveries as the merchant API shows them.
extension PostgresWebhooks {
    /// Registers an endpoint; returns it and its signing secret, which is never shown again. Refuses a
    /// tenant that already has `maxEnabled` enabled endpoints (`409 endpoint_quota_exceeded`).
    public func createWebhookEndpoint(
        tenant: UUID, url: String, description: String?, metadata: Metadata, eventTypes: [String],
        livemode: Bool, actor: String, maxEnabled: Int
    ) async throws -> (WebhookEndpoint, secret: String) {
        let now = clock()
        let endpoint = {
            var endpoint = WebhookEndpoint(
                id: PostgresOutbox.eventIds.make("we"), tenantId: tenant, url: url, description: description,
                eventTypes: eventTypes, enabled: true, createdAt: now, updatedAt: now)
            endpoint.metadata = metadata
            endpoint.livemode = livemode
            return endpoint
        }()
        let secret = "whsec_" + SecureRandom.token(bytes: 32)
        let sealed = try secrets.seal(secret, context: SealContext.webhook(endpoint.id))
        try await tenantScoped(tenant) { c in
            try await Self.lockWebhookQuota(c, tenant: tenant, "endpoints")
            let enabled =
                try await c.query("SELECT count(*) AS n FROM webhook_endpoints WHERE enabled").first?.int64("n") ?? 0
            guard enabled < Int64(maxEnabled) else {
                throw CoreError(
                    .endpointQuotaExceeded,
                    "at most \(maxEnabled) enabled webhook endpoints per tenant; disable one to add another")
            }
            try await c.query(
                """
                INSERT INTO webhook_endpoints (id, tenant_id, url, description, event_types, secret_encrypted, enabled,
                    created_at, updated_at, metadata, livemode)
                VALUES ($1, $2::uuid, $3, $4, $5::jsonb, $6, true, $7::timestamptz, $7::timestamptz, $8::jsonb,
                    $9::boolean)
                """,
                [
                    .text(endpoint.id), .uuid(tenant), .text(url), description.pg,
                    .json(try StoreJSON.encode(eventTypes)), .text(sealed), .timestamp(now),
                    .json(try StoreJSON.encode(metadata)), .bool(livemode),
                ])
            try await PostgresTenants.audit(
                c, tenant: tenant, actor: actor, action: "webhook_endpoint.create", target: endpoint.id,
                details: ["url": url], at: now)
        }
        return (endpoint, secret)
    }

    /// The rows of `page` of the tenant's endpoints (disabled ones included; `status` is `enabled` or
    /// `disabled`).
    public func webhookEndpoints(tenant: UUID, page: PageRequest) async throws -> [WebhookEndpoint] {
        try await tenantScoped(tenant) { c in
            try await Self.endpointPages.rows(c, page).map(Self.endpoint)
        }
    }

    /// One endpoint of the tenant.
    public func webhookEndpoint(tenant: UUID, id: String) async throws -> WebhookEndpoint? {
        try await tenantScoped(tenant) { c in
            try await c.query("SELECT * FROM webhook_endpoints WHERE id = $1", [.text(id)]).first.map(Self.endpoint)
        }
    }

    /// Disables an endpoint and cancels its pending deliveries; returns nil when it does not exist.
    public func disableWebhookEndpoint(tenant: UUID, id: String, actor: String) async throws -> WebhookEndpoint? {
        let now = clock()
        return try await tenantScoped(tenant) { c in
            guard
                let row = try await c.query(
                    "UPDATE webhook_endpoints SET enabled = false, updated_at = $2::timestamptz WHERE id = $1 RETURNING *",
                    [.text(id), .timestamp(now)]
                ).first
            else { return nil }
            try await Self.cancelPendingDeliveries(c, endpoint: id, at: now)
            try await PostgresTenants.audit(
                c, tenant: tenant, actor: actor, action: "webhook_endpoint.disable", target: id, details: [:], at: now)
            return try Self.endpoint(row)
        }
    }

    /// The rows of `page` of the tenant's events, optionally of one type or about one object.
    public func webhookEvents(tenant: UUID, type: String?, objectId: String?, page: PageRequest) async throws
        -> [WebhookEvent]
    {
        try await tenantScoped(tenant) { c in
            var scope: [String] = []
            var params: [PGValue] = []
            for (column, value) in [("type", type), ("object_id", objectId)] {
                guard let value else { continue }
                params.append(.text(value))
                scope.append("\(column) = $\(params.count)")
            }
            return try await Self.eventPages.rows(c, page, scope: scope, params: params).map(Self.event)
        }
    }

    /// One event of the tenant.
    public func webhookEvent(tenant: UUID, id: String) async throws -> WebhookEvent? {
        try await tenantScoped(tenant) { c in
            try await c.query("SELECT * FROM webhook_events WHERE id = $1", [.text(id)]).first.map(Self.event)
        }
    }

    /// The rows of `page` of the tenant's deliveries with their attempts, optionally of one event.
    public func webhookDeliveries(tenant: UUID, eventId: String?, page: PageRequest) async throws
        -> [WebhookDelivery]
    {
        // One snapshot: a delivery's row and its attempts agree while the dispatcher records one.
        try await tenantSnapshot(tenant) { c in
            let rows =
                if let eventId {
                    try await Self.deliveryPages.rows(c, page, scope: ["event_id = $1"], params: [.text(eventId)])
                } else {
                    try await Self.deliveryPages.rows(c, page)
                }
            var deliveries: [WebhookDelivery] = []
            for row in rows {
                var delivery = try Self.delivery(row)
                delivery.attempts = try await c.query(
                    "SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY number, id", [.text(delivery.id)]
                ).rows.map(Self.webhookAttempt)
                deliveries.append(delivery)
            }
            return deliveries
        }
    }

    static let eventPages = PageQuery(table: "webhook_events", statusColumn: nil, livemodeColumn: "livemode")
    /// A delivery's mode is its event's.
    static let deliveryPages = PageQuery(
        table: "webhook_deliveries",
        livemodeColumn: "(SELECT v.livemode FROM webhook_events v WHERE v.id = webhook_deliveries.event_id)")
    static let endpointPages = PageQuery(
        table: "webhook_endpoints", statusColumn: "CASE WHEN enabled THEN 'enabled' ELSE 'disabled' END",
        livemodeColumn: "livemode")

    /// Sends an event again: a new delivery, due at once, to `endpointId` or to every enabled endpoint
    /// subscribed to its type. Returns the new deliveries (none when no endpoint qualifies). Throws
    /// ``WebhookReplayQuotaExceeded`` when the tenant's replays within `window` would pass `limit`.
    public func replayWebhookEvent(
        tenant: UUID, eventId: String, endpointId: String?, actor: String, limit: Int, window: TimeInterval
    ) async throws -> [WebhookDelivery] {
        let now = clock()
        let windowStart = now.addingTimeInterval(-window)
        return try await tenantScoped(tenant) { c in
            try await Self.lockWebhookQuota(c, tenant: tenant, "replays")
            let earlier =
                try await c.query(
                    "SELECT count(*) AS n FROM webhook_deliveries WHERE replay AND created_at > $1::timestamptz",
                    [.timestamp(windowStart)]
                ).first?.int64("n") ?? 0
            if earlier >= Int64(limit) {
                throw try await Self.replayQuotaExceeded(
                    c, excess: earlier - Int64(limit) + 1, since: windowStart, now: now)
            }
            // Held until the deliveries are stored, so retention cannot delete the event in between (it skips
            // a locked event; an event it deleted first is not found).
            guard
                let type = try await c.query(
                    "SELECT type FROM webhook_events WHERE id = $1 FOR KEY SHARE", [.text(eventId)]
                ).first
            else { throw CoreError.notFound("event") }
            let eventType = try type.string("type")
            let rows = try await c.query(
                """
                INSERT INTO webhook_deliveries (id, tenant_id, event_id, endpoint_id, status, next_attempt_at,
                    replay_of, created_at, updated_at, replay)
                SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), e.tenant_id, $1, e.id, 'pending',
                    $3::timestamptz,
                    (SELECT d.id FROM webhook_deliveries d WHERE d.event_id = $1 AND d.endpoint_id = e.id
                        ORDER BY d.created_at DESC, d.id DESC LIMIT 1),
                    $3::timestamptz, $3::timestamptz, true
                FROM webhook_endpoints e
                WHERE e.enabled AND ($2::text IS NULL OR e.id = $2)
                    AND e.livemode = (SELECT v.livemode FROM webhook_events v WHERE v.id = $1)
                    AND ($2::text IS NOT NULL OR e.event_types ?| ARRAY['*', $4, $5])
                RETURNING *
                """,
                [
                    .text(eventId), endpointId.pg, .timestamp(now), .text(eventType),
                    .text(WebhookEventType.family(of: eventType) + ".*"),
                ]
            ).rows
            if earlier + Int64(rows.count) > Int64(limit) {
                throw try await Self.replayQuotaExceeded(
                    c, excess: earlier + Int64(rows.count) - Int64(limit), since: windowStart, now: now)
            }
            try await PostgresTenants.audit(
                c, tenant: tenant, actor: actor, action: "webhook_event.replay", target: eventId,
                details: ["deliveries": "\(rows.count)"], at: now)
            return try rows.map(Self.delivery)
        }
    }

    /// Serialises the quota checks of one tenant's transactions (until the transaction ends).
    static func lockWebhookQuota(_ c: PGConnection, tenant: UUID, _ quota: String) async throws {
        try await c.query(
            "SELECT pg_advisory_xact_lock(hashtextextended($1, 0)) IS NULL AS locked",
            [.text("webhook-\(quota):\(tenant.uuidString.lowercased())")])
    }

    /// The quota error, with the time until `excess` earlier replays have left the window.
    static func replayQuotaExceeded(_ c: PGConnection, excess: Int64, since windowStart: Date, now: Date) async throws
        -> WebhookReplayQuotaExceeded
    {
        let leaving = try await c.query(
            """
            SELECT created_at FROM webhook_deliveries WHERE replay AND created_at > $1::timestamptz
            ORDER BY created_at LIMIT 1 OFFSET $2::bigint
            """,
            [.timestamp(windowStart), .int(max(0, excess - 1))]
        ).first.map { try $0.date("created_at") }
        let wait = (leaving ?? now).timeIntervalSince(windowStart)
        return WebhookReplayQuotaExceeded(retryAfterSeconds: max(1, Int(wait.rounded(.up))))
    }

    // MARK: Rows

    static func endpoint(_ row: PGRow) throws -> WebhookEndpoint {
        var endpoint = WebhookEndpoint(
            id: try row.string("id"), tenantId: try row.uuid("tenant_id"), url: try row.string("url"),
            description: row.optionalString("description"),
            eventTypes: try StoreJSON.decode([String].self, try row.string("event_types")),
            enabled: try row.bool("enabled"), createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"),
            previousSecretExpiresAt: row.optionalDate("previous_secret_expires_at"), livemode: try row.bool("livemode"))
        endpoint.metadata = try StoreJSON.metadata(row)
        return endpoint
    }

    static func event(_ row: PGRow) throws -> WebhookEvent {
        WebhookEvent(
            id: try row.string("id"), tenantId: try row.uuid("tenant_id"), type: try row.string("type"),
            objectId: try row.string("object_id"), payload: Data(try row.string("payload").utf8),
            createdAt: try row.date("created_at"), livemode: try row.bool("livemode"))
    }

    static func delivery(_ row: PGRow) throws -> WebhookDelivery {
        WebhookDelivery(
            id: try row.string("id"), eventId: try row.string("event_id"), endpointId: try row.string("endpoint_id"),
            status: WebhookDelivery.Status(rawValue: try row.string("status")) ?? .pending,
            attemptCount: Int(try row.int64("attempt_count")), nextAttemptAt: row.optionalDate("next_attempt_at"),
            lastStatusCode: row.optionalInt64("last_status_code").map(Int.init),
            lastError: row.optionalString("last_error"),
            replayOf: row.optionalString("replay_of"), createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"), deliveredAt: row.optionalDate("delivered_at"))
    }

    static func webhookAttempt(_ row: PGRow) throws -> WebhookAttempt {
        WebhookAttempt(
            number: Int(try row.int64("number")), startedAt: try row.date("started_at"),
            statusCode: row.optionalInt64("status_code").map(Int.init), latencyMs: Int(try row.int64("latency_ms")),
            error: row.optionalString("error"), worker: try row.string("worker"))
    }
}

extension PostgresWebhooks {
    /// ``replayWebhookEvent(tenant:eventId:endpointId:actor:limit:window:)`` with its quota refusal as a
    /// result.
    public func replayEvent(
        tenant: UUID, eventId: String, endpointId: String?, actor: String, limit: Int, window: TimeInterval
    ) async throws -> WebhookReplayResult {
        do {
            return .delivered(
                try await replayWebhookEvent(
                    tenant: tenant, eventId: eventId, endpointId: endpointId, actor: actor, limit: limit,
                    window: window))
        } catch let error as WebhookReplayQuotaExceeded {
            return .quotaExceeded(retryAfterSeconds: error.retryAfterSeconds)
        }
    }
}
