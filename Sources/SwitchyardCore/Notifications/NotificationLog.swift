import Foundation
import ProviderKit

/// What the log already knew of a verified notification when it was recorded.
public enum VerifiedNotificationRecord: Sendable, Equatable {
    /// Not applied yet (new, or recorded before but its application did not finish): apply it, then
    /// mark the row applied.
    case toApply(id: Int64)
    /// Applied before: a replay, to be acknowledged and not applied again.
    case applied
}

/// Storage of inbound notifications with their verification result. Bodies reach it with their secret
/// fields already removed.
public protocol NotificationLog: Sendable {
    /// Records a verified notification, keyed by a hash of `signedContent` (what its signature covers),
    /// unless one with the same content was recorded before; says whether it still has to be applied.
    func recordVerified(
        accountId: UUID, tenantId: UUID, headers: [HTTPHeader], body: Data, signedContent: Data, at time: Date
    ) async throws -> VerifiedNotificationRecord

    /// Marks a verified notification applied.
    func markApplied(id: Int64, tenantId: UUID, at time: Date) async throws

    /// Marks a verified notification handled but not applied: what it reports about `paymentId` was
    /// rejected for `rejection`'s reason. It is kept for review and, like an applied one, only acknowledged
    /// when it comes again.
    func markRejected(id: Int64, tenantId: UUID, paymentId: String, rejection: ReportRejection, at time: Date)
        async throws

    /// Stores an unverifiable notification unless the account already has `cap` stored since `since`;
    /// beyond the cap it is only counted. Returns whether it was stored.
    func recordUnverified(
        accountId: UUID, tenantId: UUID, headers: [HTTPHeader], body: Data, failureReason: String?, at time: Date,
        cap: Int, since: Date
    ) async throws -> Bool

    /// Claims the account's background sync caused by unverifiable notifications: true (and the claim
    /// time recorded) only when no claim was made after `notAfter`, so all replicas together make one
    /// sync per interval.
    func claimUnverifiedSync(accountId: UUID, tenantId: UUID, at time: Date, notAfter: Date) async throws -> Bool

    /// Deletes up to `limit` unverifiable notifications received before `cutoff`; returns how many.
    func purgeUnverified(before cutoff: Date, limit: Int) async throws -> Int
}
