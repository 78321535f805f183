import Foundation

extension PlatformPolicy {
    /// How events are delivered to merchants' webhook endpoints.
    public struct Webhooks: Codable, Sendable, Equatable {
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
        /// Most deliveries a worker claims (and sends concurrently) at once.
        public var batchSize: Int = 20
        /// Whether endpoint URLs must use https.
        public var requireHTTPS: Bool = true

        enum CodingKeys: String, CodingKey {
            case retryScheduleMs = "retry_schedule_ms"
            case timeoutMs = "timeout_ms"
            case leaseMs = "lease_ms"
            case pollMs = "poll_ms"
            case batchSize = "batch_size"
            case requireHTTPS = "require_https"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let d = Webhooks()
            retryScheduleMs = try c.decodeIfPresent([Int].self, forKey: .retryScheduleMs) ?? d.retryScheduleMs
            timeoutMs = try c.decodeIfPresent(Int.self, forKey: .timeoutMs) ?? d.timeoutMs
            leaseMs = try c.decodeIfPresent(Int.self, forKey: .leaseMs) ?? d.leaseMs
            pollMs = try c.decodeIfPresent(Int.self, forKey: .pollMs) ?? d.pollMs
            batchSize = try c.decodeIfPresent(Int.self, forKey: .batchSize) ?? d.batchSize
            requireHTTPS = try c.decodeIfPresent(Bool.self, forKey: .requireHTTPS) ?? d.requireHTTPS
        }

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
            return nil
        }
    }
}
