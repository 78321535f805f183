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
    /// The rows of `page` (see ``PageRequest/page(_:)``) of the tenant's events, optionally of one `type`
    /// or about one object.
    func webhookEvents(tenant: UUID, type: String?, objectId: String?, page: PageRequest)
        async throws -> [WebhookEvent]
    func webhookEvent(tenant: UUID, id: String) async throws -> WebhookEvent?
    /// The rows of `page` of the tenant's deliveries (with their attempts), optionally of one event.
    func webhookDeliveries(tenant: UUID, eventId: String?, page: PageRequest) async throws -> [WebhookDelivery]
    /// Sends an event again to `endpointId`, or to every enabled endpoint subscribed to its type, unless
    /// the tenant's replays within `window` seconds would pass `limit`; audited with `actor`. `404` when
    /// the tenant has no such event.
    func replayEvent(
        tenant: UUID, eventId: String, endpointId: String?, actor: String, limit: Int, window: TimeInterval
    ) async throws -> WebhookReplayResult
}
