import Foundation

/// A tenant's administration of its webhook endpoints, with the rules every endpoint must keep: a
/// description of at most 1000 characters (``ResourceDescription``), known event types (each once), an http(s) URL whose host the
/// platform's egress rules allow, and at most the platform's number of enabled endpoints.
public struct WebhookEndpointService: Sendable {
    let endpoints: any WebhookEndpointRepository
    let policy: PolicyCenter
    /// Resolves endpoint hosts when they are registered.
    let resolver: any HostResolver
    /// How long a registration waits for its host to resolve; a name that does not resolve in time is
    /// accepted and checked again at each delivery.
    let resolveTimeout: Duration

    public init(
        endpoints: any WebhookEndpointRepository, policy: PolicyCenter, resolver: any HostResolver,
        resolveTimeout: Duration = .seconds(2)
    ) {
        self.endpoints = endpoints
        self.policy = policy
        self.resolver = resolver
        self.resolveTimeout = resolveTimeout
    }

    /// Registers an endpoint of `tenant` with the merchant's `metadata`: `400 invalid_description`, the URL
    /// and event type errors of ``WebhookEndpoint/validate(url:eventTypes:requireHTTPS:)``, the egress errors
    /// of ``WebhookEgress/checkRegistration(_:timeout:)``. Returns it with its signing secret.
    public func create(
        tenant: UUID, url: String, description: String?, metadata: Metadata = .empty, eventTypes: [String],
        actor: String
    ) async throws -> (WebhookEndpoint, secret: String) {
        try ResourceDescription.validate(description)
        var seen = Set<String>()
        let types = eventTypes.filter { seen.insert($0).inserted }
        let settings = policy.platform.webhooks
        // The scheme rule (https unless the host is trusted) belongs to the egress check.
        try WebhookEndpoint.validate(url: url, eventTypes: types, requireHTTPS: false)
        try await WebhookEgress(policy: settings, resolver: resolver).checkRegistration(url, timeout: resolveTimeout)
        return try await endpoints.createWebhookEndpoint(
            tenant: tenant, url: url, description: description, metadata: metadata, eventTypes: types, actor: actor,
            maxEnabled: settings.maxEndpointsPerTenant)
    }

    public func endpoints(tenant: UUID) async throws -> [WebhookEndpoint] {
        try await endpoints.webhookEndpoints(tenant: tenant)
    }

    /// The endpoint `id` of `tenant`; `404 not_found` when there is none.
    public func endpoint(tenant: UUID, id: String) async throws -> WebhookEndpoint {
        guard let endpoint = try await endpoints.webhookEndpoint(tenant: tenant, id: id) else {
            throw CoreError.notFound("webhook endpoint")
        }
        return endpoint
    }

    /// Disables the endpoint `id` of `tenant`; `404 not_found` when there is none.
    public func disable(tenant: UUID, id: String, actor: String) async throws -> WebhookEndpoint {
        guard let endpoint = try await endpoints.disableWebhookEndpoint(tenant: tenant, id: id, actor: actor) else {
            throw CoreError.notFound("webhook endpoint")
        }
        return endpoint
    }
}
