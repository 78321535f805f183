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
    let logger: Logger
    let failover: PlatformPolicy.Failover
    let credentials: any CredentialRepository

    public init(
        payments: any PaymentRepository, configuration: any ConfigurationRepository, gateway: any ProviderGateway,
        credentials: any CredentialRepository, ids: IdentifierGenerator, clock: @escaping @Sendable () -> Date,
        logger: Logger, failover: PlatformPolicy.Failover = .init()
    ) {
        self.failover = failover
        self.credentials = credentials
        self.payments = payments
        self.configuration = configuration
        self.gateway = gateway
        self.ids = ids
        self.clock = clock
        self.logger = logger
    }

    /// Routes a payment without creating it.
    public func route(tenant: UUID, payment: PaymentDescription) async throws -> RoutingDecision {
        let rules = try await configuration.routingRules(tenant: tenant)
        var candidates: [UUID: RoutingCandidate] = [:]
        for account in try await configuration.accounts(tenant: tenant) {
            candidates[account.id] = RoutingCandidate(
                account: account, manifest: await gateway.manifest(pluginId: account.pluginId))
        }
        return try PaymentRouter.route(payment, rules: rules, accounts: candidates)
    }

    /// Creates a payment and tries its candidates in order until one gives an answer that is not `notSent`.
    public func create(tenant: UUID, _ request: NewPayment) async throws -> PaymentRecord {
        let now = clock()
        var stored: StoredPaymentMethod?
        if let id = request.paymentMethodId {
            stored = try await usableCredential(tenant: tenant, id: id, customerId: request.customerId)
        }
        if let stored, let named = request.method, named != stored.paymentMethodName {
            throw CoreError.invalid(
                "payment_method_mismatch", "the stored payment method is '\(stored.paymentMethodName)', not '\(named)'")
        }
        guard let method = stored?.paymentMethodName ?? request.method else {
            throw CoreError.invalid("missing_field", "the field 'method' is required")
        }
        if request.savePaymentMethod {
            guard request.customerId != nil else {
                throw CoreError.invalid("missing_customer", "save_payment_method needs a customer")
            }
            guard stored == nil else {
                throw CoreError.invalid("invalid_request", "a stored payment method cannot be saved again")
            }
        }
        var payment = Payment(
            id: ids.make("pay"), tenantId: tenant, amount: request.amount, currency: request.currency,
            country: request.country, method: method,
            reference: request.reference, captureMode: request.captureMode,
            customerId: request.customerId ?? stored?.customerId, returnURL: request.returnURL,
            paymentData: request.paymentData, status: .processing, createdAt: now)
        payment.paymentMethodId = stored?.id
        let decision: RoutingDecision
        if let stored {
            // A token is only valid at the account that issued it: no rule and no failover.
            decision = RoutingDecision(
                ruleId: nil, ruleName: "stored payment method \(stored.id)", candidates: [stored.accountId],
                skipped: [])
        } else {
            decision = try await route(tenant: tenant, payment: payment.description)
        }
        payment.routing = decision
        try await payments.commit(PaymentChanges(payment: payment))
        let paymentId = payment.id
        var attempts = 0

        let candidates = Array(decision.candidates.prefix(max(1, failover.attemptLimit)))
        let deadline = now.addingTimeInterval(Double(failover.timeBudgetMs) / 1000)
        for (index, accountId) in candidates.enumerated() {
            guard let account = try await configuration.account(tenant: tenant, id: accountId) else { continue }
            attempts += 1
            var attempt = Attempt(
                id: ids.make("att"), paymentId: paymentId, tenantId: tenant, accountId: account.id,
                pluginId: account.pluginId, sequence: attempts,
                reason: index == 0
                    ? "first candidate of rule '\(decision.ruleName ?? "-")'"
                    : "failover after attempt \(attempts - 1) was not sent",
                startedAt: clock())
            // The attempt is committed before the provider is called, so a crash leaves a trace to sync.
            let accountId = account.id
            var pending: StoredPaymentMethod?
            if request.savePaymentMethod, let customerId = request.customerId {
                pending = try await pendingCredential(
                    tenant: tenant, customerId: customerId, account: account, method: method, paymentId: paymentId)
            }
            let savedId = pending?.id
            try await payments.transition(
                tenant: tenant, paymentId: paymentId, with: PaymentChanges(attempts: [attempt])
            ) {
                $0.providerAccountId = accountId
                if let savedId { $0.savedPaymentMethodId = savedId }
            }

            let outcome = await gateway.authorize(
                AuthorizeRequest(
                    paymentId: paymentId, attemptId: attempt.id, merchantReference: request.reference,
                    amount: request.amount, currency: request.currency, country: request.country,
                    method: method, captureMode: request.captureMode, customerId: request.customerId,
                    returnURL: request.returnURL, paymentData: request.paymentData, idempotencyKey: attempt.id,
                    storedCredential: stored.map(providerCredential),
                    credentialSetup: pending.map {
                        CredentialSetup(correlationId: $0.correlationId, customerId: $0.customerId)
                    }),
                account: account)
            attempt.record(outcome, at: clock())
            let event = PaymentMachine.Event.authorizeFinished(
                outcome, moreCandidates: index + 1 < candidates.count && clock() < deadline)
            let time = clock()
            let actions = try await payments.transition(
                tenant: tenant, paymentId: paymentId, with: PaymentChanges(attempts: [attempt])
            ) { PaymentMachine.apply(event, to: &$0, at: time) }
            logger.info(
                "payment attempt finished",
                metadata: [
                    "tenant.id": "\(tenant)", "payment.id": "\(paymentId)", "attempt.id": "\(attempt.id)",
                    "provider.account": "\(account.id)", "outcome": "\(outcome.kind.rawValue)",
                ])
            if !actions.contains(.tryNextCandidate) { break }
        }
        guard let record = try await payments.record(tenant: tenant, paymentId: payment.id) else {
            throw CoreError.notFound("payment")
        }
        return record
    }

    /// A payment with its attempts, refunds and operations; 404 for another tenant's payment.
    public func get(tenant: UUID, paymentId: String) async throws -> PaymentRecord {
        guard let record = try await payments.record(tenant: tenant, paymentId: paymentId) else {
            throw CoreError.notFound("payment")
        }
        return record
    }

    /// The account of a payment's last attempt, and that attempt.
    func currentAttempt(of record: PaymentRecord) async throws -> (Attempt, ProviderAccount) {
        guard let attempt = record.lastAttempt,
            let account = try await configuration.account(tenant: record.payment.tenantId, id: attempt.accountId)
        else {
            throw CoreError.conflict("invalid_state", "the payment has no provider attempt")
        }
        return (attempt, account)
    }
}
