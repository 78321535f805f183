import Foundation

/// A tenant's webhook endpoint: where its events are delivered and which ones. Its signing secret is
/// sealed in the store and shown to the tenant only when the endpoint is created.
public struct WebhookEndpoint: Sendable, Equatable {
    /// `we_…`.
    public var id: String
    public var tenantId: UUID
    public var url: String
    public var description: String?
    /// Event types or patterns (`payment.succeeded`, `refund.*`, `*`).
    public var eventTypes: [String]
    /// A disabled endpoint gets no new deliveries, and its pending ones are cancelled.
    public var enabled: Bool
    /// The merchant's key-value pairs, set at the create (``Metadata``).
    public var metadata: Metadata = .empty
    public var createdAt: Date
    public var updatedAt: Date
    /// Until when the secret replaced by the last rotation still signs deliveries; nil when none does.
    public var previousSecretExpiresAt: Date?
    /// The mode of the key that registered it (``Livemode``): it receives only that mode's events.
    public var livemode: Bool

    /// Creates an endpoint record.
    public init(
        id: String, tenantId: UUID, url: String, description: String?, eventTypes: [String], enabled: Bool,
        createdAt: Date, updatedAt: Date, previousSecretExpiresAt: Date? = nil, livemode: Bool = false
    ) {
        self.livemode = livemode
        self.previousSecretExpiresAt = previousSecretExpiresAt
        self.id = id
        self.tenantId = tenantId
        self.url = url
        self.description = description
        self.eventTypes = eventTypes
        self.enabled = enabled
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Checks a registration: an absolute http(s) URL without credentials (https only when `requireHTTPS`)
    /// and known event types. Throws `invalid_webhook_url` or `invalid_event_types`.
    public static func validate(url: String, eventTypes: [String], requireHTTPS: Bool) throws {
        guard url.count <= 2048, let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(),
            let host = parsed.host, !host.isEmpty
        else { throw CoreError(.invalidWebhookURL, "url must be an absolute http or https URL") }
        guard scheme == "https" || (scheme == "http" && !requireHTTPS) else {
            throw CoreError(
                .invalidWebhookURL, requireHTTPS ? "url must use https" : "url must use http or https")
        }
        guard parsed.user == nil, parsed.password == nil, parsed.fragment == nil else {
            throw CoreError(.invalidWebhookURL, "url must not carry credentials or a fragment")
        }
        guard !eventTypes.isEmpty, eventTypes.count <= 50 else {
            throw CoreError(.invalidEventTypes, "event_types must list 1 to 50 event types")
        }
        if let unknown = eventTypes.first(where: { !WebhookEventType.isValidPattern($0) }) {
            throw CoreError(
                .invalidEventTypes, "unknown event type \(unknown.prefix(64)); use an event type, <object>.* or *")
        }
    }
}
