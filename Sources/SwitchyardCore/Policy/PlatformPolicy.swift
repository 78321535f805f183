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
        /// Whether a decline the provider marks retryable fails over to the next account. Off by default;
        /// a tenant may turn it on only where the platform allows it (`retryable_declines_allowed`).
        public var retryableDeclines = false
        /// Whether tenants may turn ``retryableDeclines`` on.
        public var retryableDeclinesAllowed = true

        enum CodingKeys: String, CodingKey {
            case attemptLimit = "attempt_limit"
            case timeBudgetMs = "time_budget_ms"
            case retryableDeclines = "retryable_declines"
            case retryableDeclinesAllowed = "retryable_declines_allowed"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            attemptLimit = try c.decodeIfPresent(Int.self, forKey: .attemptLimit) ?? 3
            timeBudgetMs = try c.decodeIfPresent(Int.self, forKey: .timeBudgetMs) ?? 30_000
            retryableDeclines = try c.decodeIfPresent(Bool.self, forKey: .retryableDeclines) ?? false
            retryableDeclinesAllowed = try c.decodeIfPresent(Bool.self, forKey: .retryableDeclinesAllowed) ?? true
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
    public var breaker = Breaker()
    public var janitor = Janitor()
    public var webhooks = Webhooks()
    public var server = Server()
    public var tenants = Tenants()
    public var notifications = Notifications()
    public var idempotency = Idempotency()
    public var settlement = Settlement()
    public var pluginWorkers = PluginWorkers()
    public var database = Database()
    public var caching = Caching()
    public var metrics = Metrics()
    public var adaptiveRouting = AdaptiveRouting()
    public var routingReplay = ReplayBounds()
    public var retention = Retention()

    public init() {}

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        failover = try c.decodeIfPresent(Failover.self, forKey: .failover) ?? Failover()
        lifetimes = try c.decodeIfPresent(Lifetimes.self, forKey: .lifetimes) ?? Lifetimes()
        limits = try c.decodeIfPresent(Limits.self, forKey: .limits) ?? Limits()
        breaker = try c.decodeIfPresent(Breaker.self, forKey: .breaker) ?? Breaker()
        janitor = try c.decodeIfPresent(Janitor.self, forKey: .janitor) ?? Janitor()
        webhooks = try c.decodeIfPresent(Webhooks.self, forKey: .webhooks) ?? Webhooks()
        server = try c.decodeIfPresent(Server.self, forKey: .server) ?? Server()
        tenants = try c.decodeIfPresent(Tenants.self, forKey: .tenants) ?? Tenants()
        notifications = try Notifications.section(of: decoder)
        idempotency = try Idempotency.section(of: decoder)
        settlement = try Settlement.section(of: decoder)
        pluginWorkers = try PluginWorkers.section(of: decoder)
        database = try Database.section(of: decoder)
        caching = try Caching.section(of: decoder)
        metrics = try Metrics.section(of: decoder)
        adaptiveRouting = try AdaptiveRouting.section(of: decoder)
        routingReplay = try ReplayBounds.section(of: decoder)
        retention = try Retention.section(of: decoder)
    }

    enum CodingKeys: String, CodingKey {
        case failover, lifetimes, limits, breaker, janitor, webhooks
        case server, tenants
    }
}
