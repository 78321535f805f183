import SwitchyardCore

/// Every repository port the HTTP surface reads or writes through, in one value: `SwitchyardApp` hands
/// it the PostgreSQL store's repositories, router tests hand it in-memory ones.
public struct ServerRepositories: Sendable {
    /// Tenants, their API keys (also used to authenticate callers), policies and audit log.
    public var tenants: any TenantRepository
    public var accounts: any AccountRepository
    public var routing: any RoutingRepository
    /// Payments and refunds, read when an `Idempotency-Key` replay renders its resource.
    public var payments: any PaymentRepository
    /// `Idempotency-Key` claims.
    public var claims: any IdempotencyRepository
    /// The merchant's payment listing.
    public var records: any PaymentRecordListing
    /// The operator's payment search across tenants.
    public var search: any PaymentSearchRepository
    public var events: any WebhookEventRepository
    public var endpoints: any WebhookEndpointRepository
    /// Inbound provider notifications.
    public var notifications: any NotificationLog
    /// The operator's review and provider-health views.
    public var review: any ReviewRepository
    /// Readiness and scrape-time gauges.
    public var probes: any OperationalProbes
    /// The authorisation statistics adaptive routing decides on, and the account names they are listed with.
    public var routingStats: any RoutingStatsRepository
    public var configuration: any ConfigurationRepository
    /// The logged routing decisions `…/routing/replay` replays, nil when there is no such ledger.
    public var routingReplay: (any RoutingReplayRepository)?
    /// Guarded routing rollouts; nil: not offered.
    public var rollouts: (any RolloutRepository)?
    /// Named operators; nil: only the bootstrap token signs in.
    public var operators: (any OperatorRepository)?

    public init(
        tenants: any TenantRepository, accounts: any AccountRepository, routing: any RoutingRepository,
        payments: any PaymentRepository, claims: any IdempotencyRepository, records: any PaymentRecordListing,
        search: any PaymentSearchRepository, events: any WebhookEventRepository,
        endpoints: any WebhookEndpointRepository, notifications: any NotificationLog, review: any ReviewRepository,
        probes: any OperationalProbes, routingStats: any RoutingStatsRepository,
        configuration: any ConfigurationRepository, routingReplay: (any RoutingReplayRepository)? = nil,
        rollouts: (any RolloutRepository)? = nil, operators: (any OperatorRepository)? = nil
    ) {
        self.operators = operators
        self.rollouts = rollouts
        self.tenants = tenants
        self.accounts = accounts
        self.routing = routing
        self.payments = payments
        self.claims = claims
        self.records = records
        self.search = search
        self.events = events
        self.endpoints = endpoints
        self.notifications = notifications
        self.review = review
        self.probes = probes
        self.routingStats = routingStats
        self.configuration = configuration
        self.routingReplay = routingReplay
    }
}
