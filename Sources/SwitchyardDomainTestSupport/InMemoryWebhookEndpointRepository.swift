import Foundation
import SwitchyardCore

/// Tenants' webhook endpoints in memory, for fast tests of the services that use a
/// ``WebhookEndpointRepository``. Keeps the enabled-endpoint quota as the store does
/// (`409 endpoint_quota_exceeded`).
public actor InMemoryWebhookEndpointRepository: WebhookEndpointRepository {
    private var stored: [WebhookEndpoint] = []
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    public func createWebhookEndpoint(
        tenant: UUID, url: String, description: String?, metadata: Metadata, eventTypes: [String],
        livemode: Bool, actor: String, maxEnabled: Int
    ) async throws -> (WebhookEndpoint, secret: String) {
        guard stored.filter({ $0.tenantId == tenant && $0.enabled }).count < maxEnabled else {
            throw CoreError(
                .endpointQuotaExceeded,
                "at most \(maxEnabled) enabled webhook endpoints per tenant; disable one to add another")
        }
        var endpoint = WebhookEndpoint(
            id: "we_" + UUID().uuidString.lowercased().prefix(8), tenantId: tenant, url: url,
            description: description, eventTypes: eventTypes, enabled: true, createdAt: now(), updatedAt: now())
        endpoint.metadata = metadata
        endpoint.livemode = livemode
        stored.append(endpoint)
        return (endpoint, "whsec_" + UUID().uuidString.lowercased())
    }

    public func webhookEndpoints(tenant: UUID, page: PageRequest) async throws -> [WebhookEndpoint] {
        try page.select(
            stored.filter { $0.tenantId == tenant }, id: \.id, created: \.createdAt,
            status: { $0.enabled ? "enabled" : "disabled" }, livemode: \.livemode)
    }

    public func webhookEndpoint(tenant: UUID, id: String) async throws -> WebhookEndpoint? {
        stored.first { $0.tenantId == tenant && $0.id == id }
    }

    public func disableWebhookEndpoint(tenant: UUID, id: String, actor: String) async throws -> WebhookEndpoint? {
        guard let index = stored.firstIndex(where: { $0.tenantId == tenant && $0.id == id }) else { return nil }
        stored[index].enabled = false
        stored[index].updatedAt = now()
        return stored[index]
    }

    public func updateWebhookEndpoint(
        tenant: UUID, id: String, update: WebhookEndpointUpdate, actor: String, maxEnabled: Int
    ) async throws -> WebhookEndpoint? {
        guard let index = stored.firstIndex(where: { $0.tenantId == tenant && $0.id == id }) else { return nil }
        if update.enabled == true,
            stored.filter({ $0.tenantId == tenant && $0.enabled && $0.id != id }).count >= maxEnabled
        {
            throw CoreError(
                .endpointQuotaExceeded,
                "at most \(maxEnabled) enabled webhook endpoints per tenant; disable one to enable another")
        }
        if let url = update.url { stored[index].url = url }
        if let description = update.description { stored[index].description = description }
        if let eventTypes = update.eventTypes { stored[index].eventTypes = eventTypes }
        if let enabled = update.enabled { stored[index].enabled = enabled }
        stored[index].updatedAt = now()
        return stored[index]
    }

    public func rotateWebhookSecret(tenant: UUID, id: String, rotation: WebhookSecretRotation, actor: String)
        async throws -> (WebhookEndpoint, secret: String)?
    {
        guard let index = stored.firstIndex(where: { $0.tenantId == tenant && $0.id == id }) else { return nil }
        stored[index].previousSecretExpiresAt = rotation.previousExpiresAt
        stored[index].updatedAt = now()
        return (stored[index], "whsec_" + UUID().uuidString.lowercased())
    }

    /// Pings are delivered by the store's outbox; here only the endpoint's state is checked.
    public func sendWebhookPing(tenant: UUID, id: String, actor: String) async throws -> WebhookDelivery? {
        guard let endpoint = stored.first(where: { $0.tenantId == tenant && $0.id == id }) else { return nil }
        guard endpoint.enabled else {
            throw CoreError(.invalidState, "the webhook endpoint is disabled; enable it to test it")
        }
        return WebhookDelivery(
            id: "whd_" + UUID().uuidString.lowercased().prefix(8), eventId: "evt_ping", endpointId: id,
            status: .pending, attemptCount: 0, nextAttemptAt: now(), lastStatusCode: nil, lastError: nil,
            replayOf: nil, createdAt: now(), updatedAt: now(), deliveredAt: nil)
    }
}
