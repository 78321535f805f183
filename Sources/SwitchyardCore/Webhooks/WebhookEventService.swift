import Foundation

/// A tenant's webhook events and their deliveries: listing, reading and replaying them within the
/// platform's replay quota (`PlatformPolicy.Webhooks`).
public struct WebhookEventService: Sendable {
    let events: any WebhookEventRepository
    let policy: PolicyCenter

    public init(events: any WebhookEventRepository, policy: PolicyCenter) {
        self.events = events
        self.policy = policy
    }

    /// A page of the tenant's events, newest first, and whether more follow.
    public func events(tenant: UUID, type: String?, objectId: String?, page: PageRequest) async throws
        -> Page<WebhookEvent>
    {
        page.page(try await events.webhookEvents(tenant: tenant, type: type, objectId: objectId, page: page))
    }

    /// One event of the tenant; `404 not_found` when it has none with this id (or, with `livemode`, when it
    /// is of the other mode).
    public func event(tenant: UUID, id: String, livemode: Bool? = nil) async throws -> WebhookEvent {
        guard let event = try await events.webhookEvent(tenant: tenant, id: id),
            livemode.map({ $0 == event.livemode }) ?? true
        else {
            throw CoreError.notFound("event")
        }
        return event
    }

    /// A page of the deliveries of one event of the tenant (of all its events when `eventId` is nil);
    /// `404 not_found` for an unknown event.
    public func deliveries(tenant: UUID, eventId: String?, page: PageRequest = PageRequest()) async throws
        -> Page<WebhookDelivery>
    {
        if let eventId { _ = try await event(tenant: tenant, id: eventId, livemode: page.livemode) }
        return page.page(try await events.webhookDeliveries(tenant: tenant, eventId: eventId, page: page))
    }

    /// Sends an event again, to `endpointId` or to every enabled endpoint subscribed to it, within the
    /// replay quota. `404 not_found` for an unknown event, `409 no_webhook_endpoint` when no endpoint
    /// receives it.
    public func replay(tenant: UUID, eventId: String, endpointId: String?, actor: String) async throws
        -> WebhookReplayResult
    {
        let settings = replaySettings
        let result = try await events.replayEvent(
            tenant: tenant, eventId: eventId, endpointId: endpointId, actor: actor, limit: settings.replayLimit,
            window: Double(settings.replayWindowMs) / 1000)
        if case .delivered(let deliveries) = result, deliveries.isEmpty {
            throw CoreError(.noWebhookEndpoint, "no enabled endpoint receives this event")
        }
        return result
    }

    /// The replay quota in force.
    public var replaySettings: PlatformPolicy.Webhooks { policy.platform.webhooks }
}
