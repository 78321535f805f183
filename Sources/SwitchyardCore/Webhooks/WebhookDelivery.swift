import Foundation

/// One event on its way to one endpoint: retried on the policy's schedule until the endpoint answers
/// 2xx, then `succeeded`; `dead` when the schedule is used up; `canceled` when the endpoint is disabled.
public struct WebhookDelivery: Sendable, Equatable {
    /// Where a delivery stands.
    public enum Status: String, Sendable, CaseIterable {
        case pending
        case succeeded
        case dead
        case canceled
    }

    /// `whd_…`.
    public var id: String
    public var eventId: String
    public var endpointId: String
    public var status: Status
    public var attemptCount: Int
    /// When the next attempt is due, while pending.
    public var nextAttemptAt: Date?
    public var lastStatusCode: Int?
    public var lastError: String?
    /// The delivery this one re-sends, for a replay.
    public var replayOf: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var deliveredAt: Date?
    /// Every attempt, oldest first.
    public var attempts: [WebhookAttempt]

    /// Creates a delivery record.
    public init(
        id: String, eventId: String, endpointId: String, status: Status, attemptCount: Int, nextAttemptAt: Date?,
        lastStatusCode: Int?, lastError: String?, replayOf: String?, createdAt: Date, updatedAt: Date,
        deliveredAt: Date?, attempts: [WebhookAttempt] = []
    ) {
        self.id = id
        self.eventId = eventId
        self.endpointId = endpointId
        self.status = status
        self.attemptCount = attemptCount
        self.nextAttemptAt = nextAttemptAt
        self.lastStatusCode = lastStatusCode
        self.lastError = lastError
        self.replayOf = replayOf
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deliveredAt = deliveredAt
        self.attempts = attempts
    }
}

/// One HTTP attempt of a delivery.
public struct WebhookAttempt: Sendable, Equatable {
    public var number: Int
    public var startedAt: Date
    /// The endpoint's HTTP status, or nil when none came (connection refused, timeout).
    public var statusCode: Int?
    public var latencyMs: Int
    /// Why the attempt failed without a status, or what a non-2xx meant.
    public var error: String?
    /// Which worker (process) made the attempt.
    public var worker: String

    /// Creates an attempt record.
    public init(number: Int, startedAt: Date, statusCode: Int?, latencyMs: Int, error: String?, worker: String) {
        self.number = number
        self.startedAt = startedAt
        self.statusCode = statusCode
        self.latencyMs = latencyMs
        self.error = error
        self.worker = worker
    }

    /// Whether the endpoint accepted the event.
    public var succeeded: Bool { statusCode.map { (200..<300).contains($0) } ?? false }
}

/// A delivery a worker has claimed, with what it needs to send it.
public struct ClaimedDelivery: Sendable {
    public var id: String
    public var tenantId: UUID
    public var eventId: String
    public var eventType: String
    public var endpointId: String
    public var url: String
    /// The endpoint's signing secret (in memory only).
    public var secret: String
    public var payload: Data
    /// The number of this attempt (1 for the first).
    public var attemptNumber: Int
    /// The secret a rotation replaced (in memory only), which signs beside ``secret`` until
    /// ``previousSecretExpiresAt``.
    public var previousSecret: String?
    public var previousSecretExpiresAt: Date?

    /// Creates a claim.
    public init(
        id: String, tenantId: UUID, eventId: String, eventType: String, endpointId: String, url: String,
        secret: String, payload: Data, attemptNumber: Int, previousSecret: String? = nil,
        previousSecretExpiresAt: Date? = nil
    ) {
        self.previousSecret = previousSecret
        self.previousSecretExpiresAt = previousSecretExpiresAt
        self.id = id
        self.tenantId = tenantId
        self.eventId = eventId
        self.eventType = eventType
        self.endpointId = endpointId
        self.url = url
        self.secret = secret
        self.payload = payload
        self.attemptNumber = attemptNumber
    }

    /// The secrets that sign this delivery when sent at `now` (see ``WebhookSecretRotation``).
    public func signingSecrets(at now: Date) -> [String] {
        WebhookSecretRotation.signingSecrets(
            current: secret, previous: previousSecret, previousExpiresAt: previousSecretExpiresAt, now: now)
    }
}
