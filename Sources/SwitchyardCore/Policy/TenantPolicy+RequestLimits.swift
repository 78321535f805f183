import Foundation

extension TenantPolicy {
    /// The values of ``requestsPerSecond``, ``burst`` and ``maxConcurrentRequests`` that would loosen
    /// the platform's request limits, as messages.
    func looseningRequestLimits(_ platform: PlatformPolicy.Tenants) -> [String] {
        var problems: [String] = []
        if let v = requestsPerSecond, !v.isFinite || v <= 0 || v > platform.requestsPerSecond {
            problems.append(
                "requests_per_second must be positive and at most the platform's \(platform.requestsPerSecond)")
        }
        if let v = burst, v < 1 || v > platform.burst {
            problems.append("burst must be between 1 and the platform's \(platform.burst)")
        }
        if let v = maxConcurrentRequests, v < 1 || v > platform.maxConcurrentRequests {
            problems.append(
                "max_concurrent_requests must be between 1 and the platform's \(platform.maxConcurrentRequests)")
        }
        return problems
    }

    /// The platform's request limits with this tenant's tighter values applied; a loosening value is
    /// capped at the platform's.
    public func requestLimits(_ platform: PlatformPolicy.Tenants) -> PlatformPolicy.Tenants {
        var limits = platform
        if let v = requestsPerSecond, v.isFinite, v > 0 {
            limits.requestsPerSecond = min(v, platform.requestsPerSecond)
        }
        if let v = burst { limits.burst = max(1, min(v, platform.burst)) }
        if let v = maxConcurrentRequests {
            limits.maxConcurrentRequests = max(1, min(v, platform.maxConcurrentRequests))
        }
        return limits
    }
}
