import Foundation

/// The policy's `overdue_notifications` section: when a payment waiting for the customer's app is asked
/// about because its provider's notification is overdue.
///
/// Each account's time from a payment's creation to its notification is learnt from the notifications
/// that arrived (over ``windowHours``). A payment still waiting past that account's ``percentile`` of it
/// (never sooner than ``floorSeconds``; ``capSeconds`` while an account has fewer than ``minSamples``, and
/// never later) is synced, then again at doubling intervals up to ``maxIntervalSeconds`` until it is
/// definite or its session expires (the session sweep takes over there). At most ``inquiriesPerMinute`` per
/// account per replica, so a provider outage does not become a storm of inquiries.
public struct OverdueNotifications: PolicySection {
    /// The share of notifications, in percent, expected by the time a payment is overdue.
    public var percentile: Int = 99
    /// The least time after creation before a payment is overdue, in seconds.
    public var floorSeconds: Int = 10
    /// The most time after creation before a payment is overdue, and the wait for an account with too few
    /// observed notifications, in seconds.
    public var capSeconds: Int = 60
    /// The fewest observed notifications an account needs before its own percentile is used.
    public var minSamples: Int = 20
    /// How far back notifications are observed, in hours.
    public var windowHours: Int = 24
    /// The longest interval between two inquiries of one overdue payment, in seconds.
    public var maxIntervalSeconds: Int = 30
    /// The most overdue inquiries of one account per minute, per replica.
    public var inquiriesPerMinute: Int = 60

    public init() {}

    public static let name = "overdue_notifications"
    public static let fields: [PolicyField<OverdueNotifications>] = [
        .key(
            "percentile", \.percentile, in: 50...100, unit: "percent",
            "Share of notifications expected by the time a waiting payment is overdue."),
        .key(
            "floor_seconds", \.floorSeconds, in: 1...86_400, unit: "seconds",
            "Least time after creation before a waiting payment is overdue."),
        .key(
            "cap_seconds", \.capSeconds, in: 1...86_400, unit: "seconds",
            "Most time after creation before a waiting payment is overdue (and the wait while too few are observed)."),
        .key(
            "min_samples", \.minSamples, in: 1...100_000,
            "Fewest observed notifications of an account before its own percentile is used."),
        .key("window_hours", \.windowHours, in: 1...720, unit: "hours", "How far back notifications are observed."),
        .key(
            "max_interval_seconds", \.maxIntervalSeconds, in: 1...86_400, unit: "seconds",
            "Longest interval between two inquiries of one overdue payment."),
        .key(
            "inquiries_per_minute", \.inquiriesPerMinute, in: 1...100_000,
            "Most overdue inquiries of one account per minute, per replica."),
    ]

    /// When a payment of an account whose observed percentile is `observed` (nil: too few observed) is
    /// overdue, in seconds after its creation.
    public func threshold(observed: TimeInterval?) -> TimeInterval {
        let floor = TimeInterval(max(1, floorSeconds))
        let cap = max(floor, TimeInterval(capSeconds))
        guard let observed, observed.isFinite else { return cap }
        return min(max(observed, floor), cap)
    }

    /// The wait before the inquiry that follows `inquiries` overdue ones of a payment overdue at
    /// `threshold`: the threshold doubled each time, at most ``maxIntervalSeconds``.
    public func interval(after inquiries: Int, threshold: TimeInterval) -> TimeInterval {
        let doubled = threshold * pow(2, Double(min(max(0, inquiries), 30)))
        return min(doubled, TimeInterval(max(1, maxIntervalSeconds)))
    }

    /// The inquiries one account may have in one janitor look that comes every `poll` seconds: its share
    /// of ``inquiriesPerMinute``, at least one.
    public func budget(poll: TimeInterval) -> Int {
        max(1, Int((Double(max(1, inquiriesPerMinute)) * max(0, poll) / 60).rounded(.down)))
    }

    /// The `percentile` of `samples` (nearest rank), nil when there are fewer than ``minSamples``.
    public func observed(_ samples: [TimeInterval]) -> TimeInterval? {
        guard samples.count >= max(1, minSamples) else { return nil }
        let sorted = samples.sorted()
        let rank = Int((Double(min(max(percentile, 1), 100)) / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
