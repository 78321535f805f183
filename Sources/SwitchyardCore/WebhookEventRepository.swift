import Foundation

/// What a replay did: new deliveries (none when no enabled endpoint qualifies), or nothing because the
/// tenant's replay quota is used up for `retryAfterSeconds`.
public enum WebhookReplayResult: Sendable, Equatable {
    case delivered([WebhookDelivery])
    case quotaExceeded(retryAfterSeconds: Int)
}

/// Storage of a tenant's webhook events (the outbox) and their deliveries, as the tenant and the
/// operator read and replay them.
public protocol WebhookEventRepository: Sendable {
    /// The tenant's events, newest first, optionally of one `type` or about one object, after the event
    /// `startingAfter`; at most `limit`.
    func webhookEvents(tenant: UUID, type: String?, objectId: String?, startingAfter: String?, limit: Int)
        async throws -> [WebhookEvent]
    func webhookEvent(tenant: UUID, id: String) async throws -> WebhookEvent?
    /// The tenant's deliveries, newest first, optionally of one event or in one status; at most `limit`.
    func webhookDeliveries(tenant: UUID, eventId: String?, status: WebhookDelivery.Status?, limit: Int)
        async throws -> [WebhookDelivery]
    /// Sends an event again to `endpointId`, or to every enabled endpoint subscribed to its type, unless
    /// the tenant's replays within `window` seconds would pass `limit`; audited with `actor`. `404` when
    /// the tenant has no such event.
    func replayEvent(
        tenant: UUID, eventId: String, endpointId: String?, actor: String, limit: Int, window: TimeInterval
    ) async throws -> WebhookReplayResult
}
