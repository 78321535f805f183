import Foundation

extension PlatformPolicy {
    /// How events are delivered to merchants' webhook endpoints.
    public struct Webhooks: PolicySection {
        /// Delays before the successive retries of a failed delivery, in milliseconds. After the last one
        /// fails the delivery is dead-lettered. The default spreads 10 attempts over about 24 hours.
        public var retryScheduleMs: [Int] = [
            30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 28_800_000,
        ]
        /// Time allowed for one delivery (connect, send, answer), in milliseconds.
        public var timeoutMs: Int = 10_000
        /// A claimed delivery is not taken by another worker for this long; longer than ``timeoutMs``.
        public var leaseMs: Int = 60_000
        /// How often a worker looks for due deliveries when it found none.
        public var pollMs: Int = 500
        /// Most deliveries a worker has in flight at once; a new one is claimed as soon as one ends.
        public var batchSize: Int = 20
        /// Whether endpoint URLs must use https (hosts in ``allowHosts`` may use http).
        public var requireHTTPS: Bool = true
        /// Host names and literal IP addresses the operator trusts: they skip the address check (so they
        /// may be loopback or private) and may use http. A literal address also admits a name that
        /// resolves to it. Empty by default: webhooks reach public addresses only.
        public var allowHosts: [String] = []
        /// Most enabled endpoints one tenant may have.
        public var maxEndpointsPerTenant: Int = 16
        /// Most replayed deliveries one tenant may request within ``replayWindowMs``.
        public var replayLimit: Int = 100
        /// The window ``replayLimit`` counts over, in milliseconds.
        public var replayWindowMs: Int = 3_600_000
        /// Most deliveries to one endpoint in flight at once, over all workers; the others wait.
        public var maxInFlightPerEndpoint: Int = 2
        /// Most deliveries to one tenant's endpoints in flight at once, over all workers, so that a tenant
        /// with several slow endpoints cannot hold every worker's slots.
        public var maxInFlightPerTenant: Int = 8
        /// How long, in seconds, an endpoint's replaced secret keeps signing deliveries after a rotation that
        /// does not say (`expires_in_seconds`); at most seven days.
        public var secretOverlapSeconds: Int = 86_400

        public init() {}

        public static let name = "webhooks"
        public static let refusesWhileDecoding = false
        public static let fields: [PolicyField<Webhooks>] = [
            .schedule(
                "retry_schedule_ms", \.retryScheduleMs, "Delays before the successive retries of a failed delivery."),
            .key(
                "timeout_ms", \.timeoutMs, in: 0...PlatformPolicy.maximumExchangeMs, unit: "milliseconds",
                "Time allowed for one delivery (connect, send, answer)."),
            .key(
                "lease_ms", \.leaseMs, in: 0...PlatformPolicy.maximumDurationMs, unit: "milliseconds",
                "How long a claimed delivery is not taken by another worker; longer than timeout_ms."),
            .key(
                "poll_ms", \.pollMs, in: 0...3_600_000, unit: "milliseconds",
                "How often a worker looks for due deliveries when it found none."),
            .key(
                "batch_size", \.batchSize, in: 1...PlatformPolicy.maximumCount,
                "Most deliveries a worker has in flight at once."),
            .key("require_https", \.requireHTTPS, "Whether endpoint URLs must use https."),
            .key("allow_hosts", \.allowHosts, "Host names and literal addresses trusted despite the address check."),
            .key("max_endpoints_per_tenant", \.maxEndpointsPerTenant, "Most enabled endpoints one tenant may have."),
            .key("replay_limit", \.replayLimit, "Most replayed deliveries one tenant may request per replay window."),
            .key("replay_window_ms", \.replayWindowMs, "The window replay_limit counts over."),
            .key(
                "max_in_flight_per_endpoint", \.maxInFlightPerEndpoint,
                "Most deliveries to one endpoint in flight at once, over all workers."),
            .key(
                "max_in_flight_per_tenant", \.maxInFlightPerTenant,
                "Most deliveries to one tenant's endpoints in flight at once, over all workers."),
            .key(
                "secret_overlap_seconds", \.secretOverlapSeconds,
                "How long a replaced endpoint secret keeps signing after a rotation that does not say."),
        ]

        /// Most attempts of one delivery: the first and one per retry delay.
        public var attemptLimit: Int { retryScheduleMs.count + 1 }

        /// When to try again after `attempts` failed attempts, or nil when the delivery is dead.
        public func retryAt(afterAttempts attempts: Int, now: Date) -> Date? {
            guard attempts >= 1, attempts <= retryScheduleMs.count else { return nil }
            return now.addingTimeInterval(Double(retryScheduleMs[attempts - 1]) / 1000)
        }

        /// The first problem with these values, if any.
        public func problem() -> String? {
            if retryScheduleMs.contains(where: { $0 < 0 }) { return "webhooks.retry_schedule_ms must not be negative" }
            if timeoutMs < 1 || pollMs < 1 || batchSize < 1 {
                return "webhooks.timeout_ms, poll_ms and batch_size must be positive"
            }
            if leaseMs <= timeoutMs { return "webhooks.lease_ms must be longer than webhooks.timeout_ms" }
            if maxEndpointsPerTenant < 0 || replayLimit < 0 || replayWindowMs < 1 || maxInFlightPerEndpoint < 1
                || maxInFlightPerTenant < 1
            {
                return "webhooks.max_endpoints_per_tenant and replay_limit must not be negative, "
                    + "replay_window_ms, max_in_flight_per_endpoint and max_in_flight_per_tenant must be positive"
            }
            if !(0...WebhookSecretRotation.maximumOverlapSeconds).contains(secretOverlapSeconds) {
                return "webhooks.secret_overlap_seconds must be from 0 to "
                    + "\(WebhookSecretRotation.maximumOverlapSeconds)"
            }
            return nil
        }
    }

    /// How provider notifications that cannot be verified are handled: they are answered at once, cause at
    /// most one background sync of the account's open payments per interval, and are kept only in
    /// limited number and for a limited time.
    public struct Notifications: PolicySection {
        /// Least time between two background syncs caused by unverifiable notifications, per account,
        /// across all replicas, in milliseconds.
        public var unverifiedSyncIntervalMs: Int = 60_000
        /// Most open payments one such sync looks at.
        public var unverifiedSyncPayments: Int = 20
        /// Most unverifiable notifications stored per account per hour; the rest are only counted.
        public var unverifiedStoredPerHour: Int = 100
        /// How long unverifiable notifications are kept, in hours.
        public var unverifiedRetentionHours: Int = 168

        public init() {}

        public static let name = "notifications"
        public static let fields: [PolicyField<Notifications>] = [
            .key(
                "unverified_sync_interval_ms", \.unverifiedSyncIntervalMs,
                "Least time between two syncs of an account caused by unverifiable notifications."),
            .key("unverified_sync_payments", \.unverifiedSyncPayments, "Most open payments one such sync looks at."),
            .key(
                "unverified_stored_per_hour", \.unverifiedStoredPerHour,
                "Most unverifiable notifications stored per account per hour."),
            .key(
                "unverified_retention_hours", \.unverifiedRetentionHours,
                "How long unverifiable notifications are kept."),
        ]

        /// The sync interval in seconds, at least one millisecond (a negative or zero value would let every
        /// forged notification cause a sync).
        public var syncInterval: TimeInterval { Double(max(1, unverifiedSyncIntervalMs)) / 1000 }
        /// The open payments per sync, at least one.
        public var syncPayments: Int { max(1, unverifiedSyncPayments) }
        /// The hourly cap, never negative.
        public var storedPerHour: Int { max(0, unverifiedStoredPerHour) }
        /// The retention in seconds, between one hour and a century (a larger value would make a cutoff
        /// the database cannot represent).
        public var retention: TimeInterval {
            TimeInterval(min(max(1, unverifiedRetentionHours), 876_000)) * 3600
        }
    }
}
