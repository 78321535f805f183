import Foundation
import ProviderKit
import SwitchyardCore

/// A webhook endpoint as the API shows it; `secret` only in the answer that creates it.
struct WebhookEndpointResource: Encodable {
    var id: String
    var object = "webhook_endpoint"
    var url: String
    var description: String?
    var eventTypes: [String]
    var enabled: Bool
    var secret: String?
    var metadata: Metadata
    /// The mode of the events it receives.
    var livemode: Bool
    /// Until when the secret replaced by the last rotation still signs deliveries.
    var previousSecretExpiresAt: Date?
    var createdAt: Date
    var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, object, url, description, enabled, secret, metadata, livemode
        case eventTypes = "event_types"
        case previousSecretExpiresAt = "previous_secret_expires_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    init(_ endpoint: WebhookEndpoint, secret: String? = nil) {
        id = endpoint.id
        url = endpoint.url
        description = endpoint.description
        eventTypes = endpoint.eventTypes
        enabled = endpoint.enabled
        self.secret = secret
        metadata = endpoint.metadata
        livemode = endpoint.livemode
        previousSecretExpiresAt = endpoint.previousSecretExpiresAt
        createdAt = endpoint.createdAt
        updatedAt = endpoint.updatedAt
    }
}

/// An event: the body its deliveries carry, with its `livemode` (which events stored before modes existed
/// do not carry).
struct WebhookEventResource: Encodable {
    var body: JSONValue

    init(_ event: WebhookEvent) throws {
        body = try JSONDecoder().decode(JSONValue.self, from: event.payload)
        if case .object(var fields) = body {
            fields["livemode"] = .bool(event.livemode)
            body = .object(fields)
        }
    }

    func encode(to encoder: any Encoder) throws {
        try body.encode(to: encoder)
    }
}

/// A delivery with its attempts: status code, latency when the endpoint answered, and a coarse error
/// class (never the address reached, the worker, or how a connection failed).
struct WebhookDeliveryResource: Encodable {
    struct AttemptBody: Encodable {
        var number: Int
        var startedAt: Date
        var statusCode: Int?
        var latencyMs: Int?
        var error: String?

        enum CodingKeys: String, CodingKey {
            case number, error
            case startedAt = "started_at"
            case statusCode = "status_code"
            case latencyMs = "latency_ms"
        }

        init(_ attempt: WebhookAttempt) {
            number = attempt.number
            startedAt = attempt.startedAt
            statusCode = attempt.statusCode
            latencyMs = attempt.statusCode == nil ? nil : attempt.latencyMs
            error = attempt.error.map { WebhookFailure(recorded: $0).rawValue }
        }
    }

    var id: String
    var object = "webhook_delivery"
    var event: String
    var endpoint: String
    var status: String
    var attemptCount: Int
    var nextAttemptAt: Date?
    var lastStatusCode: Int?
    var lastError: String?
    var replayOf: String?
    var createdAt: Date
    var deliveredAt: Date?
    var attempts: [AttemptBody]

    enum CodingKeys: String, CodingKey {
        case id, object, event, endpoint, status, attempts
        case attemptCount = "attempt_count"
        case nextAttemptAt = "next_attempt_at"
        case lastStatusCode = "last_status_code"
        case lastError = "last_error"
        case replayOf = "replay_of"
        case createdAt = "created_at"
        case deliveredAt = "delivered_at"
    }

    init(_ d: WebhookDelivery) {
        id = d.id
        event = d.eventId
        endpoint = d.endpointId
        status = d.status.rawValue
        attemptCount = d.attemptCount
        nextAttemptAt = d.nextAttemptAt
        lastStatusCode = d.lastStatusCode
        lastError = d.lastError.map { WebhookFailure(recorded: $0).rawValue }
        replayOf = d.replayOf
        createdAt = d.createdAt
        deliveredAt = d.deliveredAt
        attempts = d.attempts.map(AttemptBody.init)
    }
}
