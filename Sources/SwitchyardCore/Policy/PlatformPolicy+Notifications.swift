import Foundation

extension PlatformPolicy {
    /// How provider notifications that cannot be verified are handled: they are answered at once, cause at
    /// most one background sync of the account's open payments per interval, and are kept only in
    /// limited number and for a limited time.
    public struct Notifications: Codable, Sendable, Equatable {
        /// Least time between two background syncs caused by unverifiable notifications, per account,
        /// across all replicas, in milliseconds.
        public var unverifiedSyncIntervalMs: Int = 60_000
        /// Most open payments one such sync looks at.
        public var unverifiedSyncPayments: Int = 20
        /// Most unverifiable notifications stored per account per hour; the rest are only counted.
        public var unverifiedStoredPerHour: Int = 100
        /// How long unverifiable notifications are kept, in hours.
        public var unverifiedRetentionHours: Int = 168

        enum CodingKeys: String, CodingKey {
            case unverifiedSyncIntervalMs = "unverified_sync_interval_ms"
            case unverifiedSyncPayments = "unverified_sync_payments"
            case unverifiedStoredPerHour = "unverified_stored_per_hour"
            case unverifiedRetentionHours = "unverified_retention_hours"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = Notifications()
            unverifiedSyncIntervalMs =
                try c.decodeIfPresent(Int.self, forKey: .unverifiedSyncIntervalMs) ?? defaults.unverifiedSyncIntervalMs
            unverifiedSyncPayments =
                try c.decodeIfPresent(Int.self, forKey: .unverifiedSyncPayments) ?? defaults.unverifiedSyncPayments
            unverifiedStoredPerHour =
                try c.decodeIfPresent(Int.self, forKey: .unverifiedStoredPerHour) ?? defaults.unverifiedStoredPerHour
            unverifiedRetentionHours =
                try c.decodeIfPresent(Int.self, forKey: .unverifiedRetentionHours)
                ?? defaults.unverifiedRetentionHours
        }

        /// The `notifications` section of a policy document, or the defaults when it is absent.
        static func section(of decoder: any Decoder) throws -> Notifications {
            try decoder.container(keyedBy: SectionKey.self).decodeIfPresent(Notifications.self, forKey: .notifications)
                ?? Notifications()
        }

        private enum SectionKey: String, CodingKey {
            case notifications
        }

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
