import Foundation
import Logging
import ProviderKit

/// Creates and drives payments: routing, provider attempts, failover on `notSent` only, and
/// committing every state change before answering.
public struct PaymentService: Sendable {
    let payments: any PaymentRepository
    let configuration: any ConfigurationRepository
    let gateway: any ProviderGateway
    let ids: IdentifierGenerator
    let clock: @Sendable () -> Date

    /// The service's notion of now (its injected clock).
    public func now() -> Date { clock() }
    let logger: Logger
    let credentials: any CredentialRepository
    /// The platform policy in force (reloadable).
    public let policy: PolicyCenter
    /// The provider accounts' circuit breakers.
    public let health: ProviderHealth
    /// The authorisation statistics adaptive rules rank accounts by (none: every account lacks data).
    let routingStats: (any RoutingStatsRepository)?
    /// Work the service starts for later; whoever runs the service runs ``BackgroundWork/run()`` beside it.
    public let background: BackgroundWork
    /// Disputes the providers' notifications report.
    public let disputes: DisputeService

    public init(
        payments: any PaymentRepository, configuration: any ConfigurationRepository, gateway: any ProviderGateway,
        credentials: any CredentialRepository, disputes: any DisputeRepository, ids: IdentifierGenerator,
        clock: @escaping @Sendable () -> Date, logger: Logger, policy: PolicyCenter = PolicyCenter(PlatformPolicy()),
        health: ProviderHealth? = nil,
        routingStats: (any RoutingStatsRepository)? = nil, background: BackgroundWork = BackgroundWork()
    ) {
        self.routingStats = routingStats
        self.background = background
        self.policy = policy
        self.health = health ?? ProviderHealth(clock: clock)
        self.credentials = credentials
        self.payments = payments
        self.configuration = configuration
        self.gateway = gateway
        self.ids = ids
        self.clock = clock
        self.logger = logger
        self.disputes = DisputeService(
            disputes: disputes, payments: payments, configuration: configuration, gateway: gateway, policy: policy,
            ids: ids, clock: clock, logger: logger)
    }

    /// The platform policy with the tenant's own limits applied.
    public func effectivePolicy(tenant: UUID) async throws -> PlatformPolicy {
        try await configuration.tenantPolicy(tenant: tenant).applied(to: policy.platform)
    }

    /// Explains how a payment would be routed, without creating it or calling any provider.
    public func explainRoute(
        tenant: UUID, payment: PaymentDescription, routingKey: String, livemode: Bool? = nil
    ) async throws -> RoutingExplanation {
        try await routing(
            tenant: tenant, payment: payment, routingKey: routingKey, livemode: livemode, resolve: false
        ).explanation
    }

    /// A payment with its attempts, refunds and operations; 404 for another tenant's payment, and with
    /// `livemode` for a payment of the other mode.
    public func get(tenant: UUID, paymentId: String, livemode: Bool? = nil) async throws -> PaymentRecord {
        guard let record = try await payments.record(tenant: tenant, paymentId: paymentId),
            livemode.map({ $0 == record.payment.livemode }) ?? true
        else {
            throw CoreError.notFound("payment")
        }
        return record
    }

    /// The account of a payment's last attempt, and that attempt.
    func currentAttempt(of record: PaymentRecord) async throws -> (Attempt, ProviderAccount) {
        guard let attempt = record.lastAttempt,
            let account = try await configuration.account(tenant: record.payment.tenantId, id: attempt.accountId)
        else {
            throw CoreError(.invalidState, "the payment has no provider attempt")
        }
        return (attempt, account)
    }
}
