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

        enum CodingKeys: String, CodingKey {
            case retryScheduleMs = "retry_schedule_ms"
            case timeoutMs = "timeout_ms"
            case leaseMs = "lease_ms"
            case pollMs = "poll_ms"
            case batchSize = "batch_size"
            case requireHTTPS = "require_https"
            case allowHosts = "allow_hosts"
            case maxEndpointsPerTenant = "max_endpoints_per_tenant"
            case replayLimit = "replay_limit"
            case replayWindowMs = "replay_window_ms"
            case maxInFlightPerEndpoint = "max_in_flight_per_endpoint"
            case maxInFlightPerTenant = "max_in_flight_per_tenant"
            case secretOverlapSeconds = "secret_overlap_seconds"
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
            allowHosts = try c.decodeIfPresent([String].self, forKey: .allowHosts) ?? d.allowHosts
            maxEndpointsPerTenant =
                try c.decodeIfPresent(Int.self, forKey: .maxEndpointsPerTenant) ?? d.maxEndpointsPerTenant
            replayLimit = try c.decodeIfPresent(Int.self, forKey: .replayLimit) ?? d.replayLimit
            replayWindowMs = try c.decodeIfPresent(Int.self, forKey: .replayWindowMs) ?? d.replayWindowMs
            maxInFlightPerEndpoint =
                try c.decodeIfPresent(Int.self, forKey: .maxInFlightPerEndpoint) ?? d.maxInFlightPerEndpoint
            maxInFlightPerTenant =
                try c.decodeIfPresent(Int.self, forKey: .maxInFlightPerTenant) ?? d.maxInFlightPerTenant
            secretOverlapSeconds =
                try c.decodeIfPresent(Int.self, forKey: .secretOverlapSeconds) ?? d.secretOverlapSeconds
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
}
