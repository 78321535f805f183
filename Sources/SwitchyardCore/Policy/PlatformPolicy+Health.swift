import Foundation

extension PlatformPolicy {
    /// Circuit-breaker thresholds per provider account.
    public struct Breaker: Codable, Sendable, Equatable {
        /// Consecutive `notSent`/timeouts that open the breaker.
        public var failureThreshold: Int = 5
        /// The failures must fall within this many milliseconds of the first.
        public var windowMs: Int = 60_000
        /// How long an open breaker refuses calls before letting one probe through.
        public var coolDownMs: Int = 30_000

        enum CodingKeys: String, CodingKey {
            case failureThreshold = "failure_threshold"
            case windowMs = "window_ms"
            case coolDownMs = "cool_down_ms"
        }

        public init() {}

        public init(failureThreshold: Int, windowMs: Int, coolDownMs: Int) {
            self.failureThreshold = failureThreshold
            self.windowMs = windowMs
            self.coolDownMs = coolDownMs
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            failureThreshold = try c.decodeIfPresent(Int.self, forKey: .failureThreshold) ?? 5
            windowMs = try c.decodeIfPresent(Int.self, forKey: .windowMs) ?? 60_000
            coolDownMs = try c.decodeIfPresent(Int.self, forKey: .coolDownMs) ?? 30_000
        }

        /// The breaker's settings.
        public var settings: CircuitBreaker.Settings {
            CircuitBreaker.Settings(
                failureThreshold: failureThreshold, window: Double(windowMs) / 1000, coolDown: Double(coolDownMs) / 1000
            )
        }
    }

    /// How payments with an unknown outcome are resolved.
    public struct Janitor: Codable, Sendable, Equatable {
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

        enum CodingKeys: String, CodingKey {
            case scheduleMs = "schedule_ms"
            case thenEveryMs = "then_every_ms"
            case horizonMs = "horizon_ms"
            case pollMs = "poll_ms"
            case batchSize = "batch_size"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = Janitor()
            scheduleMs = try c.decodeIfPresent([Int].self, forKey: .scheduleMs) ?? defaults.scheduleMs
            thenEveryMs = try c.decodeIfPresent(Int.self, forKey: .thenEveryMs) ?? defaults.thenEveryMs
            horizonMs = try c.decodeIfPresent(Int.self, forKey: .horizonMs) ?? defaults.horizonMs
            pollMs = try c.decodeIfPresent(Int.self, forKey: .pollMs) ?? defaults.pollMs
            batchSize = try c.decodeIfPresent(Int.self, forKey: .batchSize) ?? defaults.batchSize
        }

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
