import Foundation

extension PlatformPolicy {
    /// How payments with an unknown outcome are resolved.
    public struct Janitor: PolicySection {
        /// Delays before the successive syncs of an unknown payment, in milliseconds.
        public var scheduleMs: [Int] = [5_000, 30_000, 120_000, 600_000, 3_600_000]
        /// The delay after the schedule is used up.
        public var thenEveryMs: Int = 3_600_000
        /// After this long unresolved, a payment is flagged for manual review (and no longer synced
        /// automatically).
        public var horizonMs: Int = 259_200_000
        /// How often the janitor looks for due payments.
        public var pollMs: Int = 1_000
        /// Most payments synced per look.
        public var batchSize: Int = 20

        public init() {}

        public static let name = "janitor"
        public static let refusesWhileDecoding = false
        public static let fields: [PolicyField<Janitor>] = [
            .schedule("schedule_ms", \.scheduleMs, "Delays before the successive syncs of an unknown payment."),
            .key(
                "then_every_ms", \.thenEveryMs, in: 0...PlatformPolicy.maximumDurationMs, unit: "milliseconds",
                "The delay between syncs once the schedule is used up."),
            .key(
                "horizon_ms", \.horizonMs, in: 0...PlatformPolicy.maximumDurationMs, unit: "milliseconds",
                "After this long unresolved a payment goes to manual review."),
            .key(
                "poll_ms", \.pollMs, in: 0...3_600_000, unit: "milliseconds",
                "How often the janitor looks for due payments."),
            .key("batch_size", \.batchSize, in: 1...PlatformPolicy.maximumCount, "Most payments synced per look."),
        ]

        /// When the sync after `syncs` earlier ones is due, for a payment unknown since `since`: the
        /// schedule's delay, never later than the horizon (so the last sync happens at it); nil once the
        /// horizon has passed (the payment goes to manual review).
        public func nextSync(after syncs: Int, unknownSince since: Date, now: Date) -> Date? {
            let horizon = since.addingTimeInterval(Double(horizonMs) / 1000)
            guard now < horizon else { return nil }
            let delay = syncs < scheduleMs.count ? scheduleMs[syncs] : thenEveryMs
            return min(now.addingTimeInterval(Double(max(0, delay)) / 1000), horizon)
        }
    }

    /// How the janitor watches payments waiting for a capture: how long a provider holds an authorisation,
    /// and at which shares of that hold an `authorized` payment is synced (see ``AuthorizationHold``).
    public struct Settlement: PolicySection {
        /// How long an authorisation is held at the provider, in hours (default seven days).
        public var authorizationHoldHours: Int = 168
        /// The points of the hold, in percent of it, at which an `authorized` payment is synced once each.
        public var authorizationSyncPercent: [Int] = [50, 90]

        public init() {}

        public static let name = "settlement"
        public static let fields: [PolicyField<Settlement>] = [
            .key(
                "authorization_hold_hours", \.authorizationHoldHours, in: holdHoursRange,
                "How long a provider holds an authorisation."),
            .key(
                "authorization_sync_percent", \.authorizationSyncPercent,
                range: "1 to \(maximumSyncPoints) values, each 1 to 100",
                check: { points in
                    (1...maximumSyncPoints).contains(points.count) && points.allSatisfy(percentRange.contains)
                        ? nil : "must hold 1 to \(maximumSyncPoints) values between 1 and 100"
                }, "Points of the hold, in percent, at which an authorized payment is synced once each."),
        ]

        /// The hold values accepted in `policy.json`, in hours (one hour to 31 days).
        public static let holdHoursRange = 1...744
        /// The sync points accepted, in percent of the hold.
        public static let percentRange = 1...100
        /// The most sync points of one hold.
        public static let maximumSyncPoints = 10
    }
}

extension PolicyField {
    /// A schedule of delays in milliseconds: at most ``PlatformPolicy/maximumScheduleLength`` entries,
    /// each a duration.
    static func schedule(
        _ name: String, _ path: WritableKeyPath<Section, [Int]> & Sendable, _ summary: String
    ) -> PolicyField {
        let durations = 0...PlatformPolicy.maximumDurationMs
        return key(
            name, path,
            range: "at most \(PlatformPolicy.maximumScheduleLength) delays, each \(durations.lowerBound) to "
                + "\(durations.upperBound)",
            check: { values in
                if values.count > PlatformPolicy.maximumScheduleLength {
                    return "may have at most \(PlatformPolicy.maximumScheduleLength) entries"
                }
                return values.allSatisfy(durations.contains) ? nil : between(durations, unit: "milliseconds")
            }, summary)
    }
}
