import Foundation

extension PlatformPolicy {
    /// How long finished data is kept before the janitor deletes it, a bounded batch of each kind at most
    /// every ``intervalSeconds`` (sooner while batches come back full; see ``RetentionKind`` for what counts
    /// as finished, and what is never deleted). Retentions are in hours; a value out of range is refused when
    /// the policy is read.
    public struct Retention: Codable, Sendable, Equatable {
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

        enum CodingKeys: String, CodingKey {
            case idempotencyKeysHours = "idempotency_keys_hours"
            case webhookDeliveriesHours = "webhook_deliveries_hours"
            case webhookEventsHours = "webhook_events_hours"
            case notificationsHours = "notifications_hours"
            case auditEntriesHours = "audit_entries_hours"
            case routingOutcomesHours = "routing_outcomes_hours"
            case batchSize = "batch_size"
            case intervalSeconds = "interval_seconds"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let d = Retention()
            func bounded(_ key: CodingKeys, _ fallback: Int, _ range: ClosedRange<Int>) throws -> Int {
                let value = try c.decodeIfPresent(Int.self, forKey: key) ?? fallback
                guard range.contains(value) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: c,
                        debugDescription: "retention.\(key.rawValue) must be between \(range.lowerBound) and "
                            + "\(range.upperBound)")
                }
                return value
            }
            idempotencyKeysHours = try bounded(.idempotencyKeysHours, d.idempotencyKeysHours, Self.idempotencyKeysRange)
            webhookDeliveriesHours = try bounded(.webhookDeliveriesHours, d.webhookDeliveriesHours, Self.hoursRange)
            webhookEventsHours = try bounded(.webhookEventsHours, d.webhookEventsHours, Self.hoursRange)
            notificationsHours = try bounded(.notificationsHours, d.notificationsHours, Self.notificationsRange)
            auditEntriesHours = try bounded(.auditEntriesHours, d.auditEntriesHours, Self.hoursRange)
            routingOutcomesHours = try bounded(.routingOutcomesHours, d.routingOutcomesHours, 0...Self.maximumHours)
            batchSize = try bounded(.batchSize, d.batchSize, Self.batchSizeRange)
            intervalSeconds = try bounded(.intervalSeconds, d.intervalSeconds, Self.intervalSecondsRange)
        }

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

        /// The `retention` section of a policy document, or the defaults when it is absent.
        static func section(of decoder: any Decoder) throws -> Retention {
            try decoder.container(keyedBy: SectionKey.self).decodeIfPresent(Retention.self, forKey: .retention)
                ?? Retention()
        }

        private enum SectionKey: String, CodingKey {
            case retention
        }

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
