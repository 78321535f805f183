import Foundation

/// Decides whether a payment waiting for the customer's app is synced before its client session ends: a
/// pure function of the session's start, its expiry, the last half-life sync and the time. Once the
/// session is past half its life the provider is asked once, so a lost notification costs part of the
/// session, not all of it. After the expiry the session sweeper syncs it instead.
public enum SessionHalfLife {
    /// The half-life point of a session from `start` to `expiresAt`.
    public static func midpoint(start: Date, expiresAt: Date) -> Date {
        start.addingTimeInterval(max(0, expiresAt.timeIntervalSince(start)) / 2)
    }

    /// Whether to sync now: past the half-life point, before the expiry, and not synced since that point.
    public static func shouldSync(start: Date, expiresAt: Date, lastSyncedAt: Date?, now: Date) -> Bool {
        let half = midpoint(start: start, expiresAt: expiresAt)
        guard now >= half, now < expiresAt else { return false }
        guard let last = lastSyncedAt else { return true }
        return last < half
    }
}
