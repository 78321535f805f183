import Foundation

/// Storage of tenants' webhook endpoints. Every change is audited with its actor.
public protocol WebhookEndpointRepository: Sendable {
    /// Stores a new enabled endpoint with a fresh signing secret, returned once; `409` when the tenant
    /// already has `maxEnabled` enabled endpoints.
    func createWebhookEndpoint(
        tenant: UUID, url: String, description: String?, metadata: Metadata, eventTypes: [String], actor: String,
        maxEnabled: Int
    ) async throws -> (WebhookEndpoint, secret: String)
    func webhookEndpoints(tenant: UUID) async throws -> [WebhookEndpoint]
    func webhookEndpoint(tenant: UUID, id: String) async throws -> WebhookEndpoint?
    /// Disables an endpoint; nil when the tenant has none with this id.
    func disableWebhookEndpoint(tenant: UUID, id: String, actor: String) async throws -> WebhookEndpoint?
}

extension WebhookEndpointRepository {
    /// Stores a new enabled endpoint without metadata.
    public func createWebhookEndpoint(
        tenant: UUID, url: String, description: String?, eventTypes: [String], actor: String, maxEnabled: Int
    ) async throws -> (WebhookEndpoint, secret: String) {
        try await createWebhookEndpoint(
            tenant: tenant, url: url, description: description, metadata: .empty, eventTypes: eventTypes,
            actor: actor, maxEnabled: maxEnabled)
    }
}
