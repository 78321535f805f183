import Foundation

extension PlatformPolicy {
    /// How long finished data is kept before the janitor deletes it, a bounded batch of each kind at most
    /// every ``intervalSeconds`` (sooner while batches come back full; see ``RetentionKind`` for what counts
    /// as finished, and what is never deleted). Retentions are in hours; a value out of range is refused when
    /// the policy is read.
    public struct Retention: PolicySection {
        /// Answered `Idempotency-Key`s, counted from their answer (default one day, as merchant APIs keep
        /// them). A retry after that is a new request.
        public var idempotencyKeysHours: Int = 24
        /// Webhook deliveries that reached a final status, counted from their last change (default 30 days).
        public var webhookDeliveriesHours: Int = 720
        /// Webhook events with no delivery left, counted from their creation (default 30 days).
        public var webhookEventsHours: Int = 720
        /// Verified provider notifications that were handled, counted from their handling (default 90 days).
        public var notificationsHours: Int = 2_160
        /// Audit entries, counted from their time (default 400 days, more than a year of history).
        public var auditEntriesHours: Int = 9_600
        /// Recorded routing answers: kept at least as long as the statistics window needs them
        /// (`adaptive_routing.window_seconds`), and at least this many hours; 0 (the default) keeps them only
        /// for the window.
        public var routingOutcomesHours: Int = 0
        /// The most rows of one kind deleted per janitor look.
        public var batchSize: Int = 1_000
        /// The least time between two deletes of one kind, in seconds, unless the previous one deleted a full
        /// batch (then the next look deletes again). Keeps a busy janitor, which looks every few milliseconds,
        /// from running the deletes on every look (default one minute).
        public var intervalSeconds: Int = 60

        public init() {}

        public static let name = "retention"
        public static let fields: [PolicyField<Retention>] = [
            .key(
                "idempotency_keys_hours", \.idempotencyKeysHours, in: idempotencyKeysRange,
                "How long answered Idempotency-Keys are kept."),
            .key(
                "webhook_deliveries_hours", \.webhookDeliveriesHours, in: hoursRange,
                "How long finished webhook deliveries are kept."),
            .key(
                "webhook_events_hours", \.webhookEventsHours, in: hoursRange,
                "How long webhook events with no delivery left are kept."),
            .key(
                "notifications_hours", \.notificationsHours, in: notificationsRange,
                "How long handled provider notifications are kept."),
            .key("audit_entries_hours", \.auditEntriesHours, in: hoursRange, "How long audit entries are kept."),
            .key(
                "routing_outcomes_hours", \.routingOutcomesHours, in: 0...maximumHours,
                "Least time recorded routing answers are kept beyond the statistics window."),
            .key("batch_size", \.batchSize, in: batchSizeRange, "Most rows of one kind deleted per janitor look."),
            .key(
                "interval_seconds", \.intervalSeconds, in: intervalSecondsRange,
                "Least time between two deletes of one kind, in seconds."),
        ]

        /// The longest retention accepted, in hours (ten years); with it every cutoff is a date the
        /// database can represent and no conversion overflows.
        public static let maximumHours = 87_600
        /// The retention accepted for webhook deliveries and events and audit entries, in hours.
        public static let hoursRange = 1...maximumHours
        /// The retention accepted for answered `Idempotency-Key`s: at least an hour, so a client's retries of
        /// one request (seconds to minutes apart) all find the key.
        public static let idempotencyKeysRange = 1...maximumHours
        /// The retention accepted for handled notifications: at least a week, longer than providers retry a
        /// notification, so a resent one still finds its record and is only acknowledged.
        public static let notificationsRange = 168...maximumHours
        /// The batch sizes accepted.
        public static let batchSizeRange = 1...10_000
        /// The intervals between two deletes of one kind accepted, in seconds (up to a day).
        public static let intervalSecondsRange = 1...86_400

        /// How long rows of `kind` are kept, in seconds; values are clamped to their accepted range, so a
        /// section built in code cannot make a cutoff overflow either.
        public func seconds(_ kind: RetentionKind) -> TimeInterval {
            let (value, range): (Int, ClosedRange<Int>) =
                switch kind {
                case .idempotencyKeys: (idempotencyKeysHours, Self.idempotencyKeysRange)
                case .webhookDeliveries: (webhookDeliveriesHours, Self.hoursRange)
                case .webhookEvents: (webhookEventsHours, Self.hoursRange)
                case .notifications: (notificationsHours, Self.notificationsRange)
                case .auditEntries: (auditEntriesHours, Self.hoursRange)
                }
            return TimeInterval(min(max(range.lowerBound, value), range.upperBound)) * 3600
        }

        /// The rows of `kind` finished before this date may be deleted at `now`.
        public func cutoff(_ kind: RetentionKind, at now: Date) -> Date {
            now.addingTimeInterval(-seconds(kind))
        }

        /// The cutoff for recorded routing answers at `now`: the older of the statistics window's start and
        /// ``routingOutcomesHours`` ago, so no window ever loses an answer it counts.
        public func routingOutcomesCutoff(window since: Date, at now: Date) -> Date {
            let hours = min(max(0, routingOutcomesHours), Self.maximumHours)
            return min(since, now.addingTimeInterval(-TimeInterval(hours) * 3600))
        }

        /// The batch size, within its accepted range.
        public var batch: Int { min(max(Self.batchSizeRange.lowerBound, batchSize), Self.batchSizeRange.upperBound) }

        /// The least time between two deletes of one kind, within its accepted range.
        public var interval: TimeInterval {
            TimeInterval(
                min(max(Self.intervalSecondsRange.lowerBound, intervalSeconds), Self.intervalSecondsRange.upperBound))
        }
    }
}
