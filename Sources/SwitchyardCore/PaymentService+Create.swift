import Foundation
import ProviderKit

extension PaymentService {
    /// Creates a payment and tries its candidates in order until one gives an answer that allows no
    /// failover: only `notSent` (and, where the tenant allows it, a decline the provider marks retryable)
    /// moves on, within the policy's attempt limit and time budget and past open circuit breakers.
    public func create(tenant: UUID, _ request: NewPayment) async throws -> PaymentRecord {
        let now = clock()
        let policy = try await effectivePolicy(tenant: tenant)
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
        var accounts: [UUID: ProviderAccount] = [:]
        if let stored {
            // A token is only valid at the account that issued it: no rule and no failover.
            decision = RoutingDecision(
                ruleId: nil, ruleName: "stored payment method \(stored.id)", candidates: [stored.accountId],
                skipped: [])
            accounts[stored.accountId] = try await configuration.account(tenant: tenant, id: stored.accountId)
        } else {
            let key = PaymentRouter.routingKey(
                tenant: tenant, reference: request.reference, amount: request.amount, currency: request.currency)
            let routed = try await routing(tenant: tenant, payment: payment.description, routingKey: key)
            decision = try routed.explanation.decided()
            accounts = routed.accounts
        }
        payment.routing = decision
        try await payments.commit(PaymentChanges(payment: payment))
        try await IdempotencyLink.created(payment.id)

        let candidates = Array(decision.candidates.prefix(max(1, policy.failover.attemptLimit)))
        let deadline = now.addingTimeInterval(Double(policy.failover.timeBudgetMs) / 1000)
        var attempts = 0
        var previous: Outcome?
        for (index, accountId) in candidates.enumerated() {
            guard let account = accounts[accountId] else { continue }
            let more = index + 1 < candidates.count
            guard await health.permit(account.id, settings: policy.breaker.settings) else {
                // Another request holds the breaker's probe, or it opened since routing.
                logger.notice(
                    "candidate skipped: circuit open",
                    metadata: [
                        "tenant.id": "\(tenant)", "payment.id": "\(payment.id)", "provider.account": "\(accountId)",
                    ])
                if !more { try await failUnreached(tenant: tenant, paymentId: payment.id) }
                continue
            }
            attempts += 1
            let (outcome, actions) = try await attempt(
                payment, request: request, method: method, stored: stored, account: account, sequence: attempts,
                reason: Self.reason(index: index, previous: previous, decision: decision),
                event: { outcome in
                    .authorizeFinished(
                        outcome, moreCandidates: more && clock() < deadline,
                        retryDeclines: policy.failover.retryableDeclines)
                })
            await health.record(account.id, outcome: outcome.kind, settings: policy.breaker.settings)
            previous = outcome
            // The state machine alone decides whether the next candidate is tried.
            if !actions.contains(.tryNextCandidate) { break }
        }
        guard let record = try await payments.record(tenant: tenant, paymentId: payment.id) else {
            throw CoreError.notFound("payment")
        }
        // A payment no provider could take because the request lacks something one of them needs is the
        // merchant's to fix: a 4xx naming what is missing, not a failed payment to inspect.
        if record.payment.status == .failed, let previous, previous.kind == .notSent,
            let code = previous.code, Self.missingInput.contains(code)
        {
            throw CoreError.unprocessable(code, previous.message ?? "the request lacks what the provider needs")
        }
        return record
    }

    /// Codes of plugin refusals (nothing sent) that name something missing from the merchant's request.
    static let missingInput: Set<String> = ["return_url_required"]

    /// Why an attempt's account was chosen, for the attempt's record.
    static func reason(index: Int, previous: Outcome?, decision: RoutingDecision) -> String {
        guard index > 0, let previous else {
            let how = decision.weighted ? "drawn by weight from" : "first candidate of"
            return
                "\(how) rule '\(decision.ruleName ?? "-")' (routing version \(decision.version.map(String.init) ?? "-"))"
        }
        switch previous.kind {
        case .declined: return "failover after a retryable decline (\(previous.code ?? "declined"))"
        default: return "failover: the previous attempt was not sent (\(previous.code ?? previous.kind.rawValue))"
        }
    }

    /// One authorize attempt at `account`: committed before the call, its outcome applied after.
    private func attempt(
        _ payment: Payment, request: NewPayment, method: String, stored: StoredPaymentMethod?,
        account: ProviderAccount, sequence: Int, reason: String,
        event: (Outcome) -> PaymentMachine.Event
    ) async throws -> (Outcome, [PaymentMachine.Action]) {
        let tenant = payment.tenantId
        let paymentId = payment.id
        var attempt = Attempt(
            id: ids.make("att"), paymentId: paymentId, tenantId: tenant, accountId: account.id,
            pluginId: account.pluginId, sequence: sequence, reason: reason, startedAt: clock())
        var pending: StoredPaymentMethod?
        if request.savePaymentMethod, let customerId = request.customerId {
            pending = try await pendingCredential(
                tenant: tenant, customerId: customerId, account: account, method: method, paymentId: paymentId)
        }
        let savedId = pending?.id
        let accountId = account.id
        // The attempt is committed before the provider is called, so a crash leaves a trace to sync.
        try await payments.transition(tenant: tenant, paymentId: paymentId, with: PaymentChanges(attempts: [attempt])) {
            // A payment settled meanwhile (the janitor fails one left too long without attempt) is never sent.
            guard $0.status == .processing else {
                throw CoreError.conflict("payment_settled", "the payment was settled before it reached a provider")
            }
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
        let machineEvent = event(outcome)
        let time = clock()
        let actions = try await payments.transition(
            tenant: tenant, paymentId: paymentId, with: PaymentChanges(attempts: [attempt])
        ) { PaymentMachine.apply(machineEvent, to: &$0, at: time) }
        logger.info(
            "payment attempt finished",
            metadata: [
                "tenant.id": "\(tenant)", "payment.id": "\(paymentId)", "attempt.id": "\(attempt.id)",
                "provider.account": "\(account.id)", "outcome": "\(outcome.kind.rawValue)",
            ])
        return (outcome, actions)
    }

    /// Marks a payment failed when no candidate could even be tried (nothing was sent anywhere).
    private func failUnreached(tenant: UUID, paymentId: String) async throws {
        let time = clock()
        _ = try await payments.transition(tenant: tenant, paymentId: paymentId, with: PaymentChanges()) {
            PaymentMachine.apply(.authorizeFinished(.notSent("circuit open"), moreCandidates: false), to: &$0, at: time)
        }
    }
}
