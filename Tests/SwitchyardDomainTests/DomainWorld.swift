import Foundation
import Logging
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport

/// One tenant with provider accounts of a scripted plugin, routed in order by one rule, and a payment
/// service and janitor over in-memory repositories and a manual clock.
struct DomainWorld {
    let clock = ManualClock()
    let tenant = UUID()
    let payments: InMemoryPaymentRepository
    let configuration = InMemoryConfiguration()
    let credentials: InMemoryCredentials
    let disputes: InMemoryDisputes
    let gateway = ScriptedGateway()
    let service: PaymentService
    let janitor: PaymentJanitor
    /// The webhook events, notifications and audit log the janitor's retention deletes from.
    let webhookEvents: InMemoryWebhookEvents
    let notifications = InMemoryNotificationLog()
    let tenants: InMemoryTenantRepository
    /// The accounts, in routing order.
    let accounts: [UUID]

    init(
        accounts count: Int = 2, policy: PlatformPolicy = PlatformPolicy(),
        routingStats: (any RoutingStatsRepository)? = nil
    ) {
        payments = InMemoryPaymentRepository(clock: clock.now)
        webhookEvents = InMemoryWebhookEvents(now: clock.now)
        tenants = InMemoryTenantRepository(now: clock.now)
        credentials = InMemoryCredentials(payments: payments)
        disputes = InMemoryDisputes(payments: payments)
        gateway.register(ScriptedGateway.manifest("scripted"))
        var ids: [UUID] = []
        for index in 0..<count {
            let account = ProviderAccount(
                id: UUID(), tenantId: tenant, name: "account \(index)", pluginId: "scripted", environment: "test",
                baseURL: "https://provider.invalid", credentials: ["key": "k\(index)"], secretFields: ["key"],
                enabled: true, createdAt: clock.date.addingTimeInterval(Double(index)))
            configuration.put(account)
            ids.append(account.id)
        }
        accounts = ids
        configuration.setRules(
            [RoutingRule(id: UUID(), name: "everything", match: .init(), accounts: ids)], tenant: tenant)
        let logger = Logger(label: "domain-test", factory: { _ in SwiftLogNoOpLogHandler() })
        service = PaymentService(
            payments: payments, configuration: configuration, gateway: gateway, credentials: credentials,
            disputes: disputes,
            ids: TestIdentifiers.random, clock: clock.now, logger: logger, policy: PolicyCenter(policy),
            routingStats: routingStats)
        janitor = PaymentJanitor(
            service: service, payments: payments, clock: clock.now, logger: logger, settlement: payments,
            retention: InMemoryRetention(
                payments: payments, webhooks: webhookEvents, notifications: notifications, tenants: tenants),
            outcomes: payments)
    }

    /// A card payment of `amount` minor units.
    func request(
        _ amount: Int64 = 1_000, capture: CaptureMode = .automatic, customer: String? = nil, save: Bool = false,
        paymentMethodId: String? = nil
    ) throws -> NewPayment {
        try NewPayment(
            amount: amount, currency: "EUR", country: "FR", method: paymentMethodId == nil ? "card" : nil,
            reference: "order-\(UUID().uuidString.prefix(8))", captureMode: capture, customerId: customer,
            paymentMethodId: paymentMethodId, savePaymentMethod: save)
    }

    /// A `processing` card payment to store directly, as a request that stopped half-way left it.
    func storedPayment(_ id: String) -> Payment {
        Payment(
            id: id, tenantId: tenant, amount: 1_000, currency: "EUR", country: "FR", method: "card", reference: "r",
            captureMode: .automatic, customerId: nil, returnURL: nil, paymentData: [:], status: .processing,
            createdAt: clock.date)
    }

    /// Creates a payment whose first authorize answers `outcome`.
    func create(_ outcome: Outcome, _ request: NewPayment? = nil) async throws -> PaymentRecord {
        gateway.script(.authorize, outcome)
        return try await service.create(tenant: tenant, request ?? self.request())
    }
}

extension Outcome {
    static func succeeded(_ id: String = "psp-\(UUID().uuidString.prefix(6))") -> Outcome {
        Outcome(kind: .succeeded, providerPaymentId: id)
    }

    static func authorized(_ id: String = "psp-\(UUID().uuidString.prefix(6))") -> Outcome {
        Outcome(kind: .authorized, providerPaymentId: id)
    }
}
