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
    /// conversion or sum can overflow. These sections' ranges are checked here, beside the unknown keys;
    /// the other sections refuse a value out of range while they are decoded.
    public func boundsProblem() -> String? {
        let problems = [
            failover.rangeProblem(), lifetimes.rangeProblem(), limits.rangeProblem(), breaker.rangeProblem(),
            janitor.rangeProblem(), webhooks.rangeProblem(),
        ]
        return problems.lazy.compactMap { $0?.message }.first
    }

    /// Checks that the values make sense; returns the first problem.
    public func problem() -> String? {
        if let problem = boundsProblem() { return problem }
        if failover.attemptLimit < 1 { return "failover.attempt_limit must be at least 1" }
        if failover.timeBudgetMs < 1 { return "failover.time_budget_ms must be positive" }
        if breaker.failureThreshold < 1 { return "breaker.failure_threshold must be at least 1" }
        if breaker.windowMs < 1 || breaker.coolDownMs < 1 { return "breaker durations must be positive" }
        if janitor.scheduleMs.contains(where: { $0 < 0 }) || janitor.thenEveryMs < 1 {
            return "janitor delays must be positive"
        }
        if janitor.pollMs < 1 || janitor.batchSize < 1 { return "janitor.poll_ms and batch_size must be positive" }
        if let problem = server.problem() ?? tenants.problem() ?? idempotency.problem()?.message {
            return problem
        }
        return webhooks.problem()
    }
}
