import Foundation

extension PlatformPolicy {
    /// What one tenant may ask of one server process: a request rate (a token bucket refilled at
    /// ``requestsPerSecond`` holding at most ``burst`` requests) and a number of requests in progress at
    /// once. The limits are kept in memory per replica, so a tenant served by N replicas may reach N times
    /// them. A tenant's own policy may only tighten them.
    public struct Tenants: Codable, Sendable, Equatable {
        /// Sustained requests per second per tenant.
        public var requestsPerSecond: Double = 100
        /// Requests a tenant may send at once after being idle (the bucket's size).
        public var burst: Int = 200
        /// Requests of one tenant in progress at once.
        public var maxConcurrentRequests: Int = 100

        enum CodingKeys: String, CodingKey {
            case requestsPerSecond = "requests_per_second"
            case burst
            case maxConcurrentRequests = "max_concurrent_requests"
        }

        public init() {}

        public init(requestsPerSecond: Double, burst: Int, maxConcurrentRequests: Int) {
            self.requestsPerSecond = requestsPerSecond
            self.burst = burst
            self.maxConcurrentRequests = maxConcurrentRequests
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let d = Tenants()
            requestsPerSecond = try c.decodeIfPresent(Double.self, forKey: .requestsPerSecond) ?? d.requestsPerSecond
            burst = try c.decodeIfPresent(Int.self, forKey: .burst) ?? d.burst
            maxConcurrentRequests =
                try c.decodeIfPresent(Int.self, forKey: .maxConcurrentRequests) ?? d.maxConcurrentRequests
        }

        /// The first problem with these values, if any.
        public func problem() -> String? {
            guard requestsPerSecond.isFinite, requestsPerSecond > 0, requestsPerSecond <= 1_000_000 else {
                return "tenants.requests_per_second must be positive and at most 1000000"
            }
            if burst < 1 || maxConcurrentRequests < 1 {
                return "tenants.burst and tenants.max_concurrent_requests must be at least 1"
            }
            return nil
        }
    }
}

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
