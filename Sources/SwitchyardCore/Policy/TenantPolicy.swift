import Synchronization

/// A tenant's own limits: each may only tighten the platform's (fewer attempts, a shorter budget, a
/// more sensitive breaker, an earlier manual review); absent values take the platform's.
public struct TenantPolicy: Codable, Sendable, Equatable {
    public var attemptLimit: Int?
    public var timeBudgetMs: Int?
    /// Fail over on declines the provider marks retryable (only where the platform allows it).
    public var retryableDeclines: Bool?
    public var breakerFailureThreshold: Int?
    public var breakerCoolDownMs: Int?
    public var reviewAfterMs: Int?
    /// Request limits of this tenant (see ``PlatformPolicy/Tenants``), each at most the platform's.
    public var requestsPerSecond: Double?
    public var burst: Int?
    public var maxConcurrentRequests: Int?
    /// The tenant's exploration share for adaptive routing rules.
    public var adaptiveRouting: AdaptiveRouting?

    enum CodingKeys: String, CodingKey {
        case attemptLimit = "attempt_limit"
        case timeBudgetMs = "time_budget_ms"
        case retryableDeclines = "retryable_declines"
        case breakerFailureThreshold = "breaker_failure_threshold"
        case breakerCoolDownMs = "breaker_cool_down_ms"
        case reviewAfterMs = "review_after_ms"
        case requestsPerSecond = "requests_per_second"
        case burst
        case maxConcurrentRequests = "max_concurrent_requests"
        case adaptiveRouting = "adaptive_routing"
    }

    public init(
        attemptLimit: Int? = nil, timeBudgetMs: Int? = nil, retryableDeclines: Bool? = nil,
        breakerFailureThreshold: Int? = nil, breakerCoolDownMs: Int? = nil, reviewAfterMs: Int? = nil
    ) {
        self.attemptLimit = attemptLimit
        self.timeBudgetMs = timeBudgetMs
        self.retryableDeclines = retryableDeclines
        self.breakerFailureThreshold = breakerFailureThreshold
        self.breakerCoolDownMs = breakerCoolDownMs
        self.reviewAfterMs = reviewAfterMs
    }

    /// The values that would loosen `platform`, as messages (empty when the policy only tightens).
    public func loosening(_ platform: PlatformPolicy) -> [String] {
        var problems: [String] = []
        if let v = attemptLimit, v < 1 || v > platform.failover.attemptLimit {
            problems.append("attempt_limit must be between 1 and the platform's \(platform.failover.attemptLimit)")
        }
        if let v = timeBudgetMs, v < 1 || v > platform.failover.timeBudgetMs {
            problems.append("time_budget_ms must be between 1 and the platform's \(platform.failover.timeBudgetMs)")
        }
        if retryableDeclines == true, !platform.failover.retryableDeclinesAllowed {
            problems.append("retryable_declines is not allowed on this platform")
        }
        if let v = breakerFailureThreshold, v < 1 || v > platform.breaker.failureThreshold {
            problems.append(
                "breaker_failure_threshold must be between 1 and the platform's \(platform.breaker.failureThreshold)")
        }
        if let v = breakerCoolDownMs, v > PlatformPolicy.maximumDurationMs {
            problems.append("breaker_cool_down_ms must be at most \(PlatformPolicy.maximumDurationMs)")
        } else if let v = breakerCoolDownMs, v < platform.breaker.coolDownMs {
            problems.append("breaker_cool_down_ms must be at least the platform's \(platform.breaker.coolDownMs)")
        }
        if let v = reviewAfterMs, v < 1 || v > platform.janitor.horizonMs {
            problems.append("review_after_ms must be between 1 and the platform's \(platform.janitor.horizonMs)")
        }
        problems += looseningRequestLimits(platform.tenants)
        problems += looseningAdaptiveRouting(platform.adaptiveRouting)
        return problems
    }

    /// The platform policy with this tenant's values applied; a loosening value (e.g. from a policy
    /// written before the platform tightened) is capped at the platform's.
    public func applied(to platform: PlatformPolicy) -> PlatformPolicy {
        var p = platform
        if let v = attemptLimit { p.failover.attemptLimit = max(1, min(v, platform.failover.attemptLimit)) }
        if let v = timeBudgetMs { p.failover.timeBudgetMs = max(1, min(v, platform.failover.timeBudgetMs)) }
        if let v = retryableDeclines { p.failover.retryableDeclines = v && platform.failover.retryableDeclinesAllowed }
        if let v = breakerFailureThreshold {
            p.breaker.failureThreshold = max(1, min(v, platform.breaker.failureThreshold))
        }
        if let v = breakerCoolDownMs { p.breaker.coolDownMs = max(v, platform.breaker.coolDownMs) }
        if let v = reviewAfterMs { p.janitor.horizonMs = max(1, min(v, platform.janitor.horizonMs)) }
        p.tenants = requestLimits(platform.tenants)
        p.adaptiveRouting = effectiveAdaptiveRouting(platform.adaptiveRouting)
        return p
    }
}

/// The platform policy in force, replaced as a whole when `policy.json` is reloaded.
public final class PolicyCenter: Sendable {
    private let value: Mutex<PlatformPolicy>

    public init(_ policy: PlatformPolicy) {
        value = Mutex(policy)
    }

    /// The current platform policy.
    public var platform: PlatformPolicy { value.withLock { $0 } }

    /// Replaces the platform policy.
    public func replace(_ policy: PlatformPolicy) {
        value.withLock { $0 = policy }
    }
}
