import Foundation

/// Decides when a payment waiting for its capture is synced with the provider: a pure function of when
/// the hold started, the last such sync and the time. The hold is counted from the payment's creation,
/// which is never later than its authorisation, so every sync point falls before the real expiry. The
/// payment is synced once at each point (by default at half the hold and at nine tenths of it), so a
/// capture, a cancellation or an expiry that happened at the provider without a notification is seen
/// before the authorisation lapses. Points that passed while nobody looked cost a single sync.
public struct AuthorizationHold: Sendable, Equatable {
    /// How long the provider holds an authorisation.
    public var hold: TimeInterval
    /// The sync points as fractions of the hold, ascending, each in (0, 1].
    public var shares: [Double]

    public init(hold: TimeInterval, shares: [Double]) {
        self.hold = max(0, hold)
        self.shares = Array(Set(shares.map { min(max($0, 0), 1) })).sorted()
    }

    /// The rule of a policy's `settlement` section.
    public init(policy: PlatformPolicy.Settlement) {
        self.init(
            hold: Double(policy.authorizationHoldHours) * 3600,
            shares: policy.authorizationSyncPercent.map { Double($0) / 100 })
    }

    /// When the authorisation of a hold started at `start` expires.
    public func expiry(start: Date) -> Date {
        start.addingTimeInterval(hold)
    }

    /// The sync points of a hold started at `start`, earliest first.
    public func syncPoints(start: Date) -> [Date] {
        shares.map { start.addingTimeInterval(hold * $0) }
    }

    /// The latest sync point at or before `now`; nil before the first.
    public func lastDuePoint(start: Date, now: Date) -> Date? {
        syncPoints(start: start).last { $0 <= now }
    }

    /// Whether to sync now: a point has passed and the payment was not synced since it.
    public func shouldSync(start: Date, lastSyncedAt: Date?, now: Date) -> Bool {
        guard let point = lastDuePoint(start: start, now: now) else { return false }
        guard let last = lastSyncedAt else { return true }
        return last < point
    }
}
