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
        tenant: UUID, url: String, description: String?, metadata: Metadata, eventTypes: [String], actor: String,
        maxEnabled: Int
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
        stored.append(endpoint)
        return (endpoint, "whsec_" + UUID().uuidString.lowercased())
    }

    public func webhookEndpoints(tenant: UUID) async throws -> [WebhookEndpoint] {
        stored.filter { $0.tenantId == tenant }
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
}
