import Foundation

/// A kind of finished data the janitor deletes once its retention (``PlatformPolicy/Retention``) has passed.
/// Each kind names what is finished; anything still needed is never deleted, whatever its age.
public enum RetentionKind: String, Sendable, CaseIterable {
    /// Answered `Idempotency-Key`s, by the time of their answer. A key whose request still runs, or whose
    /// request failed without an answer, is unanswered and kept (the lease rules clean those up). Once a key
    /// is deleted, the same key with the same body is a new request.
    case idempotencyKeys = "idempotency_keys"
    /// Webhook deliveries in a final status (`succeeded`, `dead`, `canceled`), by their last change, with
    /// their attempts. A `pending` delivery (due, retrying or leased to a worker) is kept.
    case webhookDeliveries = "webhook_deliveries"
    /// Webhook events with no delivery left, by their creation. An event with any delivery, final or not,
    /// is kept until its deliveries are deleted, so an event whose deliveries are not final is never deleted. A
    /// replay holds its event until its deliveries are stored, so the two never cross.
    case webhookEvents = "webhook_events"
    /// Verified provider notifications that were handled, by the time they were handled: applied, or
    /// rejected (kept for review) when the payment they concern has reached a final status or is gone. A
    /// verified notification not handled yet (its application is to be retried) and a rejected one about a
    /// payment that is not final are kept. Unverifiable notifications have their own retention
    /// (`notifications.unverified_retention_hours`).
    case notifications
    /// Audit entries, by their time.
    case auditEntries = "audit_entries"
}

/// Where finished data is deleted once its retention has passed. The PostgreSQL store conforms; the janitor
/// deletes through it.
public protocol RetentionRepository: Sendable {
    /// Deletes at most `limit` rows of `kind` finished before `cutoff` (see ``RetentionKind`` for what is
    /// finished), never waiting on a row another transaction holds; returns how many were deleted.
    func deleteExpired(_ kind: RetentionKind, before cutoff: Date, limit: Int) async throws -> Int
}
