import Foundation

/// The operator's platform policy (the sections of `policy.json` besides `plugins`). Every field has a
/// safe default, so a missing section or key means the default.
public struct PlatformPolicy: Codable, Sendable, Equatable {
    /// Failover limits.
    public struct Failover: Codable, Sendable, Equatable {
        /// Most provider attempts for one payment.
        public var attemptLimit: Int = 3
        /// Total time allowed for a payment's attempts, in milliseconds; no new attempt starts after it.
        public var timeBudgetMs: Int = 30_000

        enum CodingKeys: String, CodingKey {
            case attemptLimit = "attempt_limit"
            case timeBudgetMs = "time_budget_ms"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            attemptLimit = try c.decodeIfPresent(Int.self, forKey: .attemptLimit) ?? 3
            timeBudgetMs = try c.decodeIfPresent(Int.self, forKey: .timeBudgetMs) ?? 30_000
        }
    }

    /// Token and session lifetimes.
    public struct Lifetimes: Codable, Sendable, Equatable {
        /// Refresh provider access tokens this many seconds before they expire.
        public var tokenRefreshMarginSeconds: Int = 300

        enum CodingKeys: String, CodingKey {
            case tokenRefreshMarginSeconds = "token_refresh_margin_seconds"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            tokenRefreshMarginSeconds = try c.decodeIfPresent(Int.self, forKey: .tokenRefreshMarginSeconds) ?? 300
        }
    }

    /// Request limits.
    public struct Limits: Codable, Sendable, Equatable {
        /// Largest request body accepted, in bytes.
        public var maxBodyBytes: Int = 65_536
        /// Default time allowed for one provider HTTP exchange, in milliseconds.
        public var providerTimeoutMs: Int = 15_000

        enum CodingKeys: String, CodingKey {
            case maxBodyBytes = "max_body_bytes"
            case providerTimeoutMs = "provider_timeout_ms"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            maxBodyBytes = try c.decodeIfPresent(Int.self, forKey: .maxBodyBytes) ?? 65_536
            providerTimeoutMs = try c.decodeIfPresent(Int.self, forKey: .providerTimeoutMs) ?? 15_000
        }
    }

    public var failover = Failover()
    public var lifetimes = Lifetimes()
    public var limits = Limits()

    public init() {}

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        failover = try c.decodeIfPresent(Failover.self, forKey: .failover) ?? Failover()
        lifetimes = try c.decodeIfPresent(Lifetimes.self, forKey: .lifetimes) ?? Lifetimes()
        limits = try c.decodeIfPresent(Limits.self, forKey: .limits) ?? Limits()
    }

    enum CodingKeys: String, CodingKey {
        case failover, lifetimes, limits
    }
}
