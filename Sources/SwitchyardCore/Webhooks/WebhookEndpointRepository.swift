import Foundation

/// Storage of tenants' webhook endpoints. Every change is audited with its actor.
public protocol WebhookEndpointRepository: Sendable {
    /// Stores a new enabled endpoint with a fresh signing secret, returned once; `409` when the tenant
    /// already has `maxEnabled` enabled endpoints. The endpoint receives only the events of mode `livemode`.
    func createWebhookEndpoint(
        tenant: UUID, url: String, description: String?, metadata: Metadata, eventTypes: [String],
        livemode: Bool, actor: String, maxEnabled: Int
    ) async throws -> (WebhookEndpoint, secret: String)
    /// The rows of `page` (see ``PageRequest/page(_:)``) of the tenant's endpoints, disabled ones included;
    /// their status is `enabled` or `disabled`.
    func webhookEndpoints(tenant: UUID, page: PageRequest) async throws -> [WebhookEndpoint]
    func webhookEndpoint(tenant: UUID, id: String) async throws -> WebhookEndpoint?
    /// Disables an endpoint; nil when the tenant has none with this id.
    func disableWebhookEndpoint(tenant: UUID, id: String, actor: String) async throws -> WebhookEndpoint?
    /// Applies `update` (already validated); nil when the tenant has none with this id. Re-enabling refuses
    /// a tenant that already has `maxEnabled` enabled endpoints (`409 endpoint_quota_exceeded`); disabling
    /// cancels the endpoint's pending deliveries.
    func updateWebhookEndpoint(
        tenant: UUID, id: String, update: WebhookEndpointUpdate, actor: String, maxEnabled: Int
    ) async throws -> WebhookEndpoint?
    /// Replaces the endpoint's signing secret with a fresh one, returned once; the replaced secret keeps
    /// signing until `rotation`'s expiry. Nil when the tenant has none with this id.
    func rotateWebhookSecret(tenant: UUID, id: String, rotation: WebhookSecretRotation, actor: String)
        async throws -> (WebhookEndpoint, secret: String)?
    /// Stores a `ping` event about the endpoint and one delivery of it, due at once, to that endpoint
    /// alone; nil when the tenant has none with this id. `409 invalid_state` when the endpoint is disabled.
    func sendWebhookPing(tenant: UUID, id: String, actor: String) async throws -> WebhookDelivery?
}

extension WebhookEndpointRepository {
    /// Stores a new enabled test endpoint without metadata.
    public func createWebhookEndpoint(
        tenant: UUID, url: String, description: String?, eventTypes: [String], actor: String, maxEnabled: Int
    ) async throws -> (WebhookEndpoint, secret: String) {
        try await createWebhookEndpoint(
            tenant: tenant, url: url, description: description, metadata: .empty, eventTypes: eventTypes,
            actor: actor, maxEnabled: maxEnabled)
    }

    /// Stores a new enabled test endpoint.
    public func createWebhookEndpoint(
        tenant: UUID, url: String, description: String?, metadata: Metadata, eventTypes: [String], actor: String,
        maxEnabled: Int
    ) async throws -> (WebhookEndpoint, secret: String) {
        try await createWebhookEndpoint(
            tenant: tenant, url: url, description: description, metadata: metadata, eventTypes: eventTypes,
            livemode: false, actor: actor, maxEnabled: maxEnabled)
    }
}
