import Foundation

/// A state change announced to a tenant's webhook endpoints: created in the same transaction as the
/// change (the outbox), then delivered by the webhook worker.
public struct WebhookEvent: Sendable, Equatable {
    /// `evt_…`.
    public var id: String
    public var tenantId: UUID
    /// `payment.succeeded`, `refund.failed`, `payment_method.revoked`, …
    public var type: String
    /// The id of the object that changed (`pay_…`, `re_…`, `pm_…`).
    public var objectId: String
    /// The JSON body delivered to endpoints, exactly as signed.
    public var payload: Data
    public var createdAt: Date
    /// For a new event: where in ``payload`` (rendered in the oldest API version) the version's name
    /// sits. The store writes there the name of the version the tenant is pinned to: the renderings of all
    /// versions differ in that name only. `nil` for a stored event.
    public var versionSlot: Range<Int>?
    /// Its object's mode (``Livemode``): delivered only to endpoints of that mode, listed only to keys of it.
    public var livemode: Bool

    /// Creates an event from its parts.
    public init(
        id: String, tenantId: UUID, type: String, objectId: String, payload: Data, createdAt: Date,
        livemode: Bool = false,
        versionSlot: Range<Int>? = nil
    ) {
        self.livemode = livemode
        self.id = id
        self.tenantId = tenantId
        self.type = type
        self.objectId = objectId
        self.payload = payload
        self.createdAt = createdAt
        self.versionSlot = versionSlot
    }
}

/// The catalogue of event types and the patterns endpoints subscribe with.
public enum WebhookEventType {
    /// Every event type Switchyard emits.
    public static let all: [String] =
        PaymentStatus.allCases.map { "payment.\($0.rawValue)" }
        + ["pending", "succeeded", "failed", "unknown"].map { "refund.\($0)" }
        + ["pending", "active", "revoked", "failed", "expired"].map { "payment_method.\($0)" }
        + rolloutTypes + disputeTypes

    /// The events of a dispute's life.
    public static let disputeTypes: [String] =
        DisputeMachine.Announcement.allCases.map(\.rawValue) + [evidenceDueSoon]

    /// The reminder the janitor sends when a dispute's evidence deadline nears.
    public static let evidenceDueSoon = "dispute.evidence_due_soon"

    /// The events ending a guarded routing rollout.
    public static let rolloutTypes: [String] = [RolloutStatus.promoted, .rolledBack, .stopped].map {
        "routing.rollout.\($0.rawValue)"
    }

    /// The event a tenant sends to one endpoint to test it; never subscribed to, delivered to that endpoint only.
    public static let ping = "ping"

    /// The object families (`payment`, `refund`, `payment_method`, `routing.rollout`, `dispute`).
    public static let families = ["payment", "refund", "payment_method", "routing.rollout", "dispute"]

    /// Whether `pattern` is something an endpoint may subscribe to: an event type, `<family>.*`, or `*`.
    public static func isValidPattern(_ pattern: String) -> Bool {
        if pattern == "*" || all.contains(pattern) { return true }
        guard pattern.hasSuffix(".*") else { return false }
        return families.contains(String(pattern.dropLast(2)))
    }

    /// Whether an endpoint subscribed with `patterns` receives events of `type`.
    public static func matches(_ patterns: [String], type: String) -> Bool {
        patterns.contains { $0 == "*" || $0 == type || $0 == family(of: type) + ".*" }
    }

    /// `payment_method` for `payment_method.active`.
    public static func family(of type: String) -> String {
        guard let dot = type.lastIndex(of: ".") else { return type }
        return String(type[..<dot])
    }
}
