import Foundation

extension PlatformPolicy {
    /// Failover limits.
    public struct Failover: PolicySection {
        /// Most provider attempts for one payment.
        public var attemptLimit: Int = 3
        /// Total time allowed for a payment's attempts, in milliseconds; no new attempt starts after it.
        public var timeBudgetMs: Int = 30_000
        /// Whether a decline the provider marks retryable fails over to the next account. Off by default;
        /// a tenant may turn it on only where the platform allows it (`retryable_declines_allowed`).
        public var retryableDeclines = false
        /// Whether tenants may turn ``retryableDeclines`` on.
        public var retryableDeclinesAllowed = true

        public init() {}

        public static let name = "failover"
        public static let refusesWhileDecoding = false
        public static let fields: [PolicyField<Failover>] = [
            .key("attempt_limit", \.attemptLimit, in: 1...100, "Most provider attempts for one payment."),
            .key(
                "time_budget_ms", \.timeBudgetMs, in: 0...PlatformPolicy.maximumExchangeMs * 6, unit: "milliseconds",
                "Time allowed for all of a payment's attempts; no new attempt starts after it."),
            .key("retryable_declines", \.retryableDeclines, "Whether a decline marked retryable fails over."),
            .key(
                "retryable_declines_allowed", \.retryableDeclinesAllowed,
                "Whether tenants may turn retryable_declines on."),
        ]
    }

    /// Token and session lifetimes.
    public struct Lifetimes: PolicySection {
        /// Refresh provider access tokens this many seconds before they expire.
        public var tokenRefreshMarginSeconds: Int = 300

        public init() {}

        public static let name = "lifetimes"
        public static let refusesWhileDecoding = false
        public static let fields: [PolicyField<Lifetimes>] = [
            .key(
                "token_refresh_margin_seconds", \.tokenRefreshMarginSeconds, in: 0...86_400,
                "Provider access tokens are refreshed this many seconds before they expire.")
        ]
    }

    /// Request limits.
    public struct Limits: PolicySection {
        /// Largest request body accepted, in bytes.
        public var maxBodyBytes: Int = 65_536
        /// Default time allowed for one provider HTTP exchange, in milliseconds.
        public var providerTimeoutMs: Int = 15_000

        public init() {}

        public static let name = "limits"
        public static let refusesWhileDecoding = false
        public static let fields: [PolicyField<Limits>] = [
            .key(
                "max_body_bytes", \.maxBodyBytes, in: 1...PlatformPolicy.maximumBodyBytes,
                "Largest request body accepted, in bytes."),
            .key(
                "provider_timeout_ms", \.providerTimeoutMs, in: 0...PlatformPolicy.maximumExchangeMs,
                unit: "milliseconds",
                "Default time allowed for one provider HTTP exchange."),
        ]
    }

    /// Circuit-breaker thresholds per provider account.
    public struct Breaker: PolicySection {
        /// Consecutive `notSent`/timeouts that open the breaker.
        public var failureThreshold: Int = 5
        /// The failures must fall within this many milliseconds of the first.
        public var windowMs: Int = 60_000
        /// How long an open breaker refuses calls before letting one probe through.
        public var coolDownMs: Int = 30_000

        public init() {}

        public init(failureThreshold: Int, windowMs: Int, coolDownMs: Int) {
            self.failureThreshold = failureThreshold
            self.windowMs = windowMs
            self.coolDownMs = coolDownMs
        }

        public static let name = "breaker"
        public static let refusesWhileDecoding = false
        public static let fields: [PolicyField<Breaker>] = [
            .key(
                "failure_threshold", \.failureThreshold, in: 1...1_000_000,
                "Consecutive unsent calls or timeouts that open an account's breaker."),
            .key(
                "window_ms", \.windowMs, in: 0...PlatformPolicy.maximumDurationMs, unit: "milliseconds",
                "The failures must fall within this long of the first."),
            .key(
                "cool_down_ms", \.coolDownMs, in: 0...PlatformPolicy.maximumDurationMs, unit: "milliseconds",
                "How long an open breaker refuses calls before letting one probe through."),
        ]

        /// The breaker's settings.
        public var settings: CircuitBreaker.Settings {
            CircuitBreaker.Settings(
                failureThreshold: failureThreshold, window: Double(windowMs) / 1000, coolDown: Double(coolDownMs) / 1000
            )
        }
    }

    /// How long a request owns an `Idempotency-Key` it is running before another request with the same key
    /// and body may take it over and resume, and how the keys of a server incarnation that died are found:
    /// each server records every `heartbeatIntervalMs` that it is alive, and the janitors of the other
    /// replicas release the keys of one silent for `silenceLimitMs`.
    public struct Idempotency: PolicySection {
        /// The lease in milliseconds; by default twice the default provider timeout.
        public var leaseMs: Int = 30_000
        /// How often a running server records that it is alive, in milliseconds.
        public var heartbeatIntervalMs: Int = 2_000
        /// How long a server may stay silent before another replica's janitor releases the keys it holds, in
        /// milliseconds; at least ``minimumSilenceBeats`` heartbeat intervals, so a late beat or two never
        /// frees the keys of a live server.
        public var silenceLimitMs: Int = 15_000

        public init() {}

        public static let name = "idempotency"
        public static let fields: [PolicyField<Idempotency>] = [
            .key(
                "lease_ms", \.leaseMs, in: leaseRange,
                "How long a running request owns its Idempotency-Key before a retry may take it over."),
            .key(
                "heartbeat_interval_ms", \.heartbeatIntervalMs, in: heartbeatIntervalRange,
                "How often a running server records that it is alive."),
            .key(
                "silence_limit_ms", \.silenceLimitMs, in: silenceLimitRange,
                "Silence after which another replica releases a server's keys; at least 3 heartbeat intervals."),
        ]

        public func decodingProblem() -> PolicyProblem? { problem() }

        /// The first value out of its range, or a silence limit too close to the heartbeat interval, with
        /// the key it is about; nil when the values make sense.
        func problem() -> PolicyProblem? {
            if let problem = rangeProblem() { return problem }
            // Both are bounded above, so the product cannot overflow.
            let least = heartbeatIntervalMs * Self.minimumSilenceBeats
            guard silenceLimitMs >= least else {
                return PolicyProblem(
                    key: "silence_limit_ms",
                    message: "idempotency.silence_limit_ms must be at least \(Self.minimumSilenceBeats) times "
                        + "idempotency.heartbeat_interval_ms (\(heartbeatIntervalMs)): at least \(least), not "
                        + "\(silenceLimitMs)")
            }
            return nil
        }

        /// The lease values accepted in `policy.json`, in milliseconds.
        public static let leaseRange = 1_000...86_400_000
        /// The heartbeat intervals accepted in `policy.json`, in milliseconds.
        public static let heartbeatIntervalRange = 100...60_000
        /// The silence limits accepted in `policy.json`, in milliseconds (at most one hour: the keys of a dead
        /// server stay blocked that long).
        public static let silenceLimitRange = 1_000...3_600_000
        /// The fewest heartbeat intervals the silence limit spans.
        public static let minimumSilenceBeats = 3

        /// The lease in seconds, between one second and one day (a shorter lease would let a retry take over
        /// a request still talking to its provider; a longer one keeps a crashed request's key blocked).
        public var lease: TimeInterval {
            TimeInterval(Self.clamp(leaseMs, Self.leaseRange)) / 1000
        }

        /// `value` brought within `range`.
        private static func clamp(_ value: Int, _ range: ClosedRange<Int>) -> Int {
            min(max(range.lowerBound, value), range.upperBound)
        }

        /// The heartbeat interval in seconds, within ``heartbeatIntervalRange``.
        public var heartbeatInterval: TimeInterval {
            TimeInterval(Self.clamp(heartbeatIntervalMs, Self.heartbeatIntervalRange)) / 1000
        }

        /// The silence limit in seconds, within ``silenceLimitRange`` and never below ``minimumSilenceBeats``
        /// heartbeat intervals (a policy built in code is not checked as a decoded one is).
        public var silenceLimit: TimeInterval {
            let least = Self.clamp(heartbeatIntervalMs, Self.heartbeatIntervalRange) * Self.minimumSilenceBeats
            return TimeInterval(max(least, Self.clamp(silenceLimitMs, Self.silenceLimitRange))) / 1000
        }
    }
}
