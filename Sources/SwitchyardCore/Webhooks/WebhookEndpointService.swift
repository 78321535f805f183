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
    /// When a secret rotation's overlap starts.
    let clock: @Sendable () -> Date

    public init(
        endpoints: any WebhookEndpointRepository, policy: PolicyCenter, resolver: any HostResolver,
        resolveTimeout: Duration = .seconds(2), clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.clock = clock
        self.endpoints = endpoints
        self.policy = policy
        self.resolver = resolver
        self.resolveTimeout = resolveTimeout
    }

    /// Registers an endpoint of `tenant` with the merchant's `metadata`: `400 invalid_description`, the URL
    /// and event type errors of ``WebhookEndpoint/validate(url:eventTypes:requireHTTPS:)``, the egress errors
    /// of ``WebhookEgress/checkRegistration(_:timeout:)``. Returns it with its signing secret. It receives
    /// only the events of mode `livemode` (its key's).
    public func create(
        tenant: UUID, url: String, description: String?, metadata: Metadata = .empty, eventTypes: [String],
        livemode: Bool = false, actor: String
    ) async throws -> (WebhookEndpoint, secret: String) {
        let types = try await check(url: url, description: description, eventTypes: eventTypes)
        return try await endpoints.createWebhookEndpoint(
            tenant: tenant, url: url, description: description, metadata: metadata, eventTypes: types,
            livemode: livemode, actor: actor, maxEnabled: policy.platform.webhooks.maxEndpointsPerTenant)
    }

    /// Changes the endpoint `id` of `tenant` under the rules of ``create(tenant:url:description:eventTypes:actor:)``
    /// (the URL checked again when it changes); `enabled: true` re-enables it within the enabled-endpoint
    /// quota. `404 not_found` when there is none, `400 invalid_request` for an empty update.
    public func update(tenant: UUID, id: String, update: WebhookEndpointUpdate, actor: String) async throws
        -> WebhookEndpoint
    {
        guard !update.isEmpty else {
            throw CoreError(.invalidRequest, "give at least one of url, description, event_types and enabled")
        }
        var checked = update
        if update.url != nil || update.description != nil || update.eventTypes != nil {
            let current = try await endpoint(tenant: tenant, id: id)
            checked.eventTypes = try await check(
                url: update.url ?? current.url, description: update.description,
                eventTypes: update.eventTypes ?? current.eventTypes, checkEgress: update.url != nil)
        }
        guard
            let endpoint = try await endpoints.updateWebhookEndpoint(
                tenant: tenant, id: id, update: checked, actor: actor,
                maxEnabled: policy.platform.webhooks.maxEndpointsPerTenant)
        else { throw CoreError.notFound("webhook endpoint") }
        return endpoint
    }

    /// Gives the endpoint `id` of `tenant` a new signing secret, returned once; the replaced one keeps
    /// signing for `expiresInSeconds` (the policy's `secret_overlap_seconds` when nil). `404 not_found`
    /// when there is none, `400 invalid_field` for an overlap out of range.
    public func rotateSecret(tenant: UUID, id: String, expiresInSeconds: Int?, actor: String) async throws
        -> (WebhookEndpoint, secret: String)
    {
        let rotation = try WebhookSecretRotation(
            requestedSeconds: expiresInSeconds, defaultSeconds: policy.platform.webhooks.secretOverlapSeconds,
            now: clock())
        guard
            let rotated = try await endpoints.rotateWebhookSecret(
                tenant: tenant, id: id, rotation: rotation, actor: actor)
        else { throw CoreError.notFound("webhook endpoint") }
        return rotated
    }

    /// Sends a `ping` event to the endpoint `id` of `tenant` alone, through the delivery worker; returns
    /// the delivery. `404 not_found` when there is none, `409 invalid_state` when it is disabled.
    public func ping(tenant: UUID, id: String, actor: String) async throws -> WebhookDelivery {
        guard let delivery = try await endpoints.sendWebhookPing(tenant: tenant, id: id, actor: actor) else {
            throw CoreError.notFound("webhook endpoint")
        }
        return delivery
    }

    /// Checks a registration's fields: `400 invalid_description`, the URL and event type errors of
    /// ``WebhookEndpoint/validate(url:eventTypes:requireHTTPS:)`` and, with `checkEgress`, the egress errors
    /// of ``WebhookEgress/checkRegistration(_:timeout:)``. Returns the event types, each once.
    private func check(url: String, description: String?, eventTypes: [String], checkEgress: Bool = true)
        async throws -> [String]
    {
        try ResourceDescription.validate(description)
        var seen = Set<String>()
        let types = eventTypes.filter { seen.insert($0).inserted }
        // The scheme rule (https unless the host is trusted) belongs to the egress check.
        try WebhookEndpoint.validate(url: url, eventTypes: types, requireHTTPS: false)
        if checkEgress {
            try await WebhookEgress(policy: policy.platform.webhooks, resolver: resolver)
                .checkRegistration(url, timeout: resolveTimeout)
        }
        return types
    }

    /// The statuses endpoints can be listed by.
    public static let statuses = ["enabled", "disabled"]

    /// A page of the tenant's endpoints, newest first, disabled ones included.
    public func endpoints(tenant: UUID, page: PageRequest = PageRequest()) async throws -> Page<WebhookEndpoint> {
        page.page(try await endpoints.webhookEndpoints(tenant: tenant, page: page))
    }

    /// The endpoint `id` of `tenant`; `404 not_found` when there is none (or, with `livemode`, when it is of
    /// the other mode).
    public func endpoint(tenant: UUID, id: String, livemode: Bool? = nil) async throws -> WebhookEndpoint {
        guard let endpoint = try await endpoints.webhookEndpoint(tenant: tenant, id: id),
            livemode.map({ $0 == endpoint.livemode }) ?? true
        else {
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
