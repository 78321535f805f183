import Foundation

extension PlatformPolicy {
    /// The longest duration any policy value may name, in milliseconds (one year).
    public static let maximumDurationMs = 31_536_000_000
    /// The longest a single provider exchange or webhook delivery may be given, in milliseconds (10 minutes).
    public static let maximumExchangeMs = 600_000
    /// The largest request body the server can be configured to read (its transport's own limit, 1 MiB).
    public static let maximumBodyBytes = 1 << 20
    /// The most entries a retry or sync schedule may have.
    public static let maximumScheduleLength = 100
    /// The largest count-like value (attempts, batch sizes).
    public static let maximumCount = 1_000

    /// The first value outside its sane range, as a message naming the key; nil when every value is in
    /// range. Absurd values (a timeout of 2^63 ms, say) are refused when the policy is read, so no later
    /// conversion or sum can overflow.
    public func boundsProblem() -> String? {
        func duration(_ name: String, _ value: Int, max: Int = Self.maximumDurationMs) -> String? {
            (0...max).contains(value) ? nil : "\(name) must be between 0 and \(max) milliseconds"
        }
        func count(_ name: String, _ value: Int, max: Int = Self.maximumCount) -> String? {
            (1...max).contains(value) ? nil : "\(name) must be between 1 and \(max)"
        }
        func schedule(_ name: String, _ values: [Int]) -> String? {
            if values.count > Self.maximumScheduleLength {
                return "\(name) may have at most \(Self.maximumScheduleLength) entries"
            }
            return values.lazy.compactMap { duration(name, $0) }.first
        }
        let checks: [String?] = [
            count("failover.attempt_limit", failover.attemptLimit, max: 100),
            duration("failover.time_budget_ms", failover.timeBudgetMs, max: Self.maximumExchangeMs * 6),
            (0...86_400).contains(lifetimes.tokenRefreshMarginSeconds)
                ? nil : "lifetimes.token_refresh_margin_seconds must be between 0 and 86400",
            (1...Self.maximumBodyBytes).contains(limits.maxBodyBytes)
                ? nil : "limits.max_body_bytes must be between 1 and \(Self.maximumBodyBytes)",
            duration("limits.provider_timeout_ms", limits.providerTimeoutMs, max: Self.maximumExchangeMs),
            count("breaker.failure_threshold", breaker.failureThreshold, max: 1_000_000),
            duration("breaker.window_ms", breaker.windowMs),
            duration("breaker.cool_down_ms", breaker.coolDownMs),
            schedule("janitor.schedule_ms", janitor.scheduleMs),
            duration("janitor.then_every_ms", janitor.thenEveryMs),
            duration("janitor.horizon_ms", janitor.horizonMs),
            duration("janitor.poll_ms", janitor.pollMs, max: 3_600_000),
            count("janitor.batch_size", janitor.batchSize),
            schedule("webhooks.retry_schedule_ms", webhooks.retryScheduleMs),
            duration("webhooks.timeout_ms", webhooks.timeoutMs, max: Self.maximumExchangeMs),
            duration("webhooks.lease_ms", webhooks.leaseMs),
            duration("webhooks.poll_ms", webhooks.pollMs, max: 3_600_000),
            count("webhooks.batch_size", webhooks.batchSize),
        ]
        return checks.lazy.compactMap { $0 }.first
    }
}
