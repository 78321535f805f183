import Foundation
import ProviderKit

extension PaymentService {
    /// Creates a payment and tries its candidates in order until one gives an answer that allows no
    /// failover: only `notSent` (and, where the tenant allows it, a decline the provider marks retryable)
    /// moves on, within the policy's attempt limit and time budget and past open circuit breakers.
    public func create(tenant: UUID, _ request: NewPayment) async throws -> PaymentRecord {
        var key = IdempotencyMachine(lease: 0)
        return try await creating(tenant: tenant, request, claim: nil, key: &key)
    }

    /// ``create(tenant:_:)`` under an `Idempotency-Key`: the key is claimed in the create's first
    /// transaction, with the payment and its first attempt, and answered in its last one, with the
    /// attempt's outcome (the created payment, or the merchant's error). Never throws: the key as the create
    /// left it, what it awaits next and the payment come back as an ``IdempotentRun``.
    public func create(tenant: UUID, _ request: NewPayment, idempotency scope: IdempotencyScope) async
        -> IdempotentRun<PaymentRecord>
    {
        var key = IdempotencyMachine(lease: scope.lease)
        guard scope.tenant == tenant else {
            let error = CoreError(.invalidRequest, "the Idempotency-Key belongs to another tenant")
            return IdempotentRun(key: key, next: key.apply(.failed(IdempotentFailure(error))), result: .failure(error))
        }
        do {
            let record = try await creating(tenant: tenant, request, claim: scope, key: &key)
            let next = key.isFinal ? .none : key.apply(.finished(.createdPayment(record.payment.id)))
            return IdempotentRun(key: key, next: next, result: .success(record))
        } catch let away as TurnedAway {
            return IdempotentRun(key: key, next: away.next, result: .failure(away))
        } catch {
            let next = key.isFinal ? .none : key.apply(.failed(IdempotentFailure(error)))
            return IdempotentRun(key: key, next: next, result: .failure(error))
        }
    }

    /// Ends a create whose key's claim did not let it run (a replay, another body, a key still held, a
    /// payment an earlier owner created): nothing was stored; `next` is what the key says to do instead.
    private struct TurnedAway: Error {
        var next: IdempotencyMachine.Action
    }

    /// A create, claiming `claim` (when not nil) with its payment and answering it with its outcome;
    /// `key` follows what it did with the key.
    private func creating(
        tenant: UUID, _ request: NewPayment, claim: IdempotencyScope?, key: inout IdempotencyMachine
    ) async throws -> PaymentRecord {
        let now = clock()
        let policy = try await effectivePolicy(tenant: tenant)
        var stored: StoredPaymentMethod?
        if let id = request.paymentMethodId {
            stored = try await usableCredential(
                tenant: tenant, id: id, customerId: request.customerId, livemode: request.livemode)
        }
        if let stored, let named = request.method, named != stored.paymentMethodName {
            throw CoreError(
                .paymentMethodMismatch, "the stored payment method is '\(stored.paymentMethodName)', not '\(named)'")
        }
        guard let method = stored?.paymentMethodName ?? request.method else {
            throw CoreError(.missingField, "the field 'method' is required")
        }
        if request.savePaymentMethod {
            guard request.customerId != nil else {
                throw CoreError(.missingCustomer, "save_payment_method needs a customer")
            }
            guard stored == nil else {
                throw CoreError(.invalidRequest, "a stored payment method cannot be saved again")
            }
        }
        var payment = Payment(
            id: ids.make("pay"), tenantId: tenant, amount: request.amount, currency: request.currency,
            country: request.country, method: method,
            reference: request.reference, captureMode: request.captureMode,
            customerId: request.customerId ?? stored?.customerId, returnURL: request.returnURL,
            paymentData: request.paymentData, status: .processing, createdAt: now)
        payment.paymentMethodId = stored?.id
        payment.metadata = request.metadata
        payment.merchantDescription = request.merchantDescription
        payment.livemode = request.livemode
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
            let routed = try await routing(
                tenant: tenant, payment: payment.description, routingKey: key, livemode: request.livemode)
            decision = try routed.explanation.decided()
            accounts = routed.accounts
        }
        payment.routing = decision

        let candidates = Array(decision.candidates.prefix(max(1, policy.failover.attemptLimit)))
        let deadline = now.addingTimeInterval(Double(policy.failover.timeBudgetMs) / 1000)
        var attempts = 0
        var previous: Outcome?
        var record: PaymentRecord?
        // The payment is stored with its first attempt (and its key claimed) in one transaction.
        var saved = false
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
                if !more {
                    if !saved { try await begin(PaymentChanges(payment: payment), claim: claim, &key) }
                    saved = true
                    record = try await failUnreached(tenant: tenant, paymentId: payment.id, claim: claim, &key)
                }
                continue
            }
            attempts += 1
            let step = AttemptStep(
                payment: payment, request: request, method: method, stored: stored, account: account,
                sequence: attempts, reason: Self.reason(index: index, previous: previous, decision: decision),
                claim: claim)
            let (outcome, actions, concluded) = try await attempt(
                step, newPayment: !saved, settings: policy.breaker.settings, key: &key,
                event: { outcome in
                    .authorizeFinished(
                        outcome, moreCandidates: more && clock() < deadline,
                        retryDeclines: policy.failover.retryableDeclines)
                })
            saved = true
            await health.record(account.id, outcome: outcome.kind, settings: policy.breaker.settings)
            previous = outcome
            record = concluded
            // The state machine alone decides whether the next candidate is tried.
            if !actions.contains(.tryNextCandidate) { break }
        }
        if !saved { try await begin(PaymentChanges(payment: payment), claim: claim, &key) }
        if record == nil { record = try await payments.record(tenant: tenant, paymentId: payment.id) }
        guard let final = record else { throw CoreError.notFound("payment") }
        return try Self.answer(final, last: previous).get()
    }

    /// What a create answers for its payment's record: the record, or a 4xx when no provider could take
    /// the payment because the request lacks something one of them needs (the merchant's to fix, not a
    /// failed payment to inspect).
    static func answer(_ record: PaymentRecord, last previous: Outcome?) -> Result<PaymentRecord, CoreError> {
        if let error = refusal(record.payment, last: previous) { return .failure(error) }
        return .success(record)
    }

    /// The 4xx of ``answer(_:last:)``, from the payment alone: nil when the create answers with the payment.
    static func refusal(_ payment: Payment, last previous: Outcome?) -> CoreError? {
        guard payment.status == .failed, let previous, previous.kind == .notSent,
            let code = previous.resultCode.flatMap(missingInput)
        else { return nil }
        return CoreError(code, previous.message ?? "the request lacks what the provider needs")
    }

    /// What a create under an `Idempotency-Key` stores for its key: the created payment, or the error
    /// ``answer(_:last:)`` gives. It needs the payment as the create left it, not its record.
    static func outcome(_ payment: Payment, last previous: Outcome?) -> IdempotentOutcome {
        refusal(payment, last: previous).map { .failure($0) } ?? .createdPayment(payment.id)
    }

    /// The error for a plugin refusal (nothing sent) that names something missing from the merchant's
    /// request; nil for any other code.
    static func missingInput(_ code: PluginResultCode) -> ErrorCode? {
        switch code {
        case .returnURLRequired: return .returnURLRequired
        default: return nil
        }
    }

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

    /// One authorize attempt: committed before the call (with the payment itself, when `newPayment`),
    /// its outcome applied after, in the same transaction as the payment's record is read and the
    /// request's `Idempotency-Key` answered when no other candidate follows.
    private func attempt(
        _ step: AttemptStep, newPayment: Bool, settings: CircuitBreaker.Settings, key: inout IdempotencyMachine,
        event: (Outcome) -> PaymentMachine.Event
    ) async throws -> (Outcome, [PaymentMachine.Action], PaymentRecord?) {
        let payment = step.payment
        let (tenant, paymentId, account, request) = (payment.tenantId, payment.id, step.account, step.request)
        var attempt = Attempt(
            id: ids.make("att"), paymentId: paymentId, tenantId: tenant, accountId: account.id,
            pluginId: account.pluginId, sequence: step.sequence, reason: step.reason, startedAt: clock())
        var pending: StoredPaymentMethod?
        if newPayment {
            // A credential to save is created only once the key is claimed, so the attempt follows apart.
            var first = payment
            if !request.savePaymentMethod { first.providerAccountId = account.id }
            do {
                try await begin(
                    PaymentChanges(payment: first, attempts: request.savePaymentMethod ? [] : [attempt]),
                    claim: step.claim, &key)
            } catch {
                // Nothing was sent: give the breaker's probe back.
                await health.record(account.id, outcome: .authExpired, settings: settings)
                throw error
            }
        }
        if !newPayment || request.savePaymentMethod {
            if request.savePaymentMethod, let customerId = request.customerId {
                pending = try await pendingCredential(
                    tenant: tenant, customerId: customerId, account: account, method: step.method,
                    paymentId: paymentId)
            }
            try await commitBeforeCall(attempt, account: account, savedId: pending?.id)
        }
        let outcome = await gateway.authorize(
            AuthorizeRequest(
                paymentId: paymentId, attemptId: attempt.id, merchantReference: request.reference,
                amount: request.amount, currency: request.currency, country: request.country,
                method: step.method, captureMode: request.captureMode, customerId: request.customerId,
                returnURL: request.returnURL, paymentData: request.paymentData, idempotencyKey: attempt.id,
                storedCredential: step.stored.map(providerCredential),
                credentialSetup: pending.map {
                    CredentialSetup(correlationId: $0.correlationId, customerId: $0.customerId)
                }),
            account: account)
        attempt.record(outcome, at: clock())
        let machineEvent = event(outcome)
        let time = clock()
        let claim = step.claim
        let (actions, record, _) = try await payments.transition(
            tenant: tenant, paymentId: paymentId, with: PaymentChanges(attempts: [attempt]),
            concluding: { !$0.contains(.tryNextCandidate) },
            answer: { payment in claim?.answer(Self.outcome(payment, last: outcome)) }
        ) { PaymentMachine.apply(machineEvent, to: &$0, at: time) }
        if claim != nil, record != nil { _ = key.apply(.answeredWithWork) }
        logger.info(
            "payment attempt finished",
            metadata: [
                "tenant.id": "\(tenant)", "payment.id": "\(paymentId)", "attempt.id": "\(attempt.id)",
                "provider.account": "\(account.id)", "outcome": "\(outcome.kind.rawValue)",
            ])
        return (outcome, actions, record)
    }

    /// Commits an attempt of a payment stored earlier, before its provider is called, so a crash leaves a
    /// trace to sync.
    private func commitBeforeCall(_ attempt: Attempt, account: ProviderAccount, savedId: String?) async throws {
        let accountId = account.id
        try await payments.transition(
            tenant: attempt.tenantId, paymentId: attempt.paymentId, with: PaymentChanges(attempts: [attempt])
        ) {
            // A payment settled meanwhile (the janitor fails one left too long without attempt) is never sent.
            guard $0.status == .processing else {
                throw CoreError(.paymentSettled, "the payment was settled before it reached a provider")
            }
            $0.providerAccountId = accountId
            if let savedId { $0.savedPaymentMethodId = savedId }
        }
    }

    /// Stores a new payment's first changes, claiming the request's `Idempotency-Key` in the same
    /// transaction (which links the payment to it); throws ``TurnedAway`` when the key's claim does not let
    /// the create go on.
    private func begin(_ changes: PaymentChanges, claim: IdempotencyScope?, _ key: inout IdempotencyMachine)
        async throws
    {
        let result = try await payments.begin(changes, claim: claim)
        guard let claim else { return }
        let next = key.apply(.claimed(result, at: clock()))
        // A new key, or one taken over from an owner that created nothing: the create goes on.
        guard next == .run(takeover: nil) || next == .run(takeover: IdempotencyTakeover(resourceId: nil)) else {
            throw TurnedAway(next: next)
        }
        if case .resume = result {
            logger.notice(
                "idempotency key taken over", metadata: ["tenant.id": "\(claim.tenant)", "resource.id": "none"])
        }
        if let id = changes.payment?.id { _ = key.apply(.linked(resourceId: id)) }
    }

    /// Marks a payment failed when no candidate could even be tried (nothing was sent anywhere), answering
    /// the request's `Idempotency-Key` in the same transaction; returns the payment's record.
    private func failUnreached(
        tenant: UUID, paymentId: String, claim: IdempotencyScope?, _ key: inout IdempotencyMachine
    ) async throws -> PaymentRecord? {
        let time = clock()
        let (_, record, _) = try await payments.transition(
            tenant: tenant, paymentId: paymentId, with: PaymentChanges(), concluding: { _ in true },
            answer: { payment in claim?.answer(Self.outcome(payment, last: nil)) }
        ) {
            PaymentMachine.apply(.authorizeFinished(.notSent("circuit open"), moreCandidates: false), to: &$0, at: time)
        }
        if claim != nil, record != nil { _ = key.apply(.answeredWithWork) }
        return record
    }
}

extension PaymentService {
    /// What one authorize attempt of a create needs to know.
    struct AttemptStep: Sendable {
        var payment: Payment
        var request: NewPayment
        var method: String
        var stored: StoredPaymentMethod?
        var account: ProviderAccount
        var sequence: Int
        var reason: String
        var claim: IdempotencyScope?
    }
}
