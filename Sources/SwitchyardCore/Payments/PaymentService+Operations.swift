import Foundation
import ProviderKit

extension PaymentService {
    /// Captures `amount` (default: the uncaptured remainder) of an authorised payment.
    public func capture(tenant: UUID, paymentId: String, amount: Int64?) async throws -> PaymentRecord {
        var contact = ProviderContact.none
        return try await capture(tenant: tenant, paymentId: paymentId, amount: amount, contact: &contact)
    }

    /// ``capture(tenant:paymentId:amount:)``, saying in `contact` whether the provider may have acted; a
    /// payment of the other mode than `livemode` (when given) is not found.
    public func capture(
        tenant: UUID, paymentId: String, amount: Int64?, livemode: Bool? = nil, contact: inout ProviderContact
    ) async throws -> PaymentRecord {
        let record = try await resolvedIfUnknown(
            try await get(tenant: tenant, paymentId: paymentId, livemode: livemode))
        let amount = amount ?? (record.payment.amount - record.payment.amountCaptured)
        try PaymentMachine(payment: record.payment).validateCapture(amount: amount)
        let (attempt, account) = try await currentAttempt(of: record)
        var operation = PaymentOperation(
            id: ids.make("cap"), paymentId: paymentId, tenantId: tenant, kind: .capture, amount: amount,
            createdAt: clock())
        try await payments.commit(PaymentChanges(operations: [operation]))
        contact = .possible(resourceId: paymentId)
        let outcome = await gateway.capture(
            CaptureRequest(
                payment: locator(attempt), operationId: operation.id, amount: amount,
                currency: record.payment.currency, isFinal: true),
            account: account)
        apply(outcome, to: &operation)
        let time = clock()
        let (actions, concluded) = try await concludingTransition(
            tenant: tenant, paymentId: paymentId, with: PaymentChanges(operations: [operation])
        ) { PaymentMachine.apply(.captureFinished(amount: amount, outcome), to: &$0, at: time) }
        try throwIfDeclined(actions)
        if outcome.kind == .notSent || outcome.kind == .authExpired {
            contact = .none
            throw CoreError(
                .providerUnreachable, "the provider could not be reached; nothing was captured")
        }
        return concluded
    }

    /// Finishes a payment waiting for the customer's app with what the app produced (e.g. Worldline's
    /// `encrypted_customer_input`), at the account of its current attempt.
    public func complete(tenant: UUID, paymentId: String, paymentData: [String: JSONValue]) async throws
        -> PaymentRecord
    {
        var contact = ProviderContact.none
        return try await complete(tenant: tenant, paymentId: paymentId, paymentData: paymentData, contact: &contact)
    }

    /// ``complete(tenant:paymentId:paymentData:)``, saying in `contact` whether the provider may have acted; a
    /// payment of the other mode than `livemode` (when given) is not found.
    public func complete(
        tenant: UUID, paymentId: String, paymentData: [String: JSONValue], livemode: Bool? = nil,
        contact: inout ProviderContact
    ) async throws -> PaymentRecord {
        let record = try await get(tenant: tenant, paymentId: paymentId, livemode: livemode)
        try PaymentMachine(payment: record.payment).validateComplete(at: clock())
        let (attempt, account) = try await currentAttempt(of: record)
        guard await gateway.manifest(pluginId: account.pluginId)?.flows.contains(.complete) == true else {
            throw CoreError(
                .notSupported, "this payment's provider has no step that completes it from the app")
        }
        let p = record.payment
        var operation = PaymentOperation(
            id: ids.make("cmp"), paymentId: paymentId, tenantId: tenant, kind: .complete, amount: p.amount,
            createdAt: clock())
        // Kept until the outcome is known: an unknown completion is learnt by replaying it under its key.
        operation.replayData = paymentData
        try await payments.commit(PaymentChanges(operations: [operation]))
        contact = .possible(resourceId: paymentId)
        let outcome = await gateway.complete(
            completeRequest(p, attempt: attempt, operation: operation, paymentData: paymentData), account: account)
        apply(outcome, to: &operation)
        var updated = attempt
        if let providerId = outcome.providerPaymentId { updated.providerPaymentId = providerId }
        updated.providerStatus = outcome.providerStatus ?? updated.providerStatus
        updated.learn(outcome)
        let time = clock()
        let (_, concluded) = try await concludingTransition(
            tenant: tenant, paymentId: paymentId, with: PaymentChanges(attempts: [updated], operations: [operation])
        ) { PaymentMachine.apply(.completeFinished(outcome), to: &$0, at: time) }
        if outcome.kind == .notSent || outcome.kind == .authExpired {
            contact = .none
            if outcome.resultCode == .sessionExpired {
                throw CoreError.sessionExpired(renewable: p.nextAction?.renewable == true)
            }
            throw CoreError(
                .providerUnreachable, "the provider could not be reached; nothing was charged")
        }
        return concluded
    }

    /// Cancels a payment that was not captured. A payment whose outcome is open (`unknown`, or `processing`
    /// past its deadline) is first synced with the provider: if that settles it as failed or canceled, the
    /// payment is returned as it is; it is never marked canceled without the provider's word.
    public func cancel(tenant: UUID, paymentId: String) async throws -> PaymentRecord {
        var contact = ProviderContact.none
        return try await cancel(tenant: tenant, paymentId: paymentId, contact: &contact)
    }

    /// ``cancel(tenant:paymentId:)``, saying in `contact` whether the provider may have acted; a payment of the
    /// other mode than `livemode` (when given) is not found.
    public func cancel(tenant: UUID, paymentId: String, livemode: Bool? = nil, contact: inout ProviderContact)
        async throws -> PaymentRecord
    {
        let found = try await get(tenant: tenant, paymentId: paymentId, livemode: livemode)
        let record = try await resolvedIfOpen(found)
        let settled: Set<PaymentStatus> = [.failed, .canceled]
        if found.payment.status != record.payment.status, settled.contains(record.payment.status) {
            // The provider's answer settled it without money: nothing is left to cancel.
            return record
        }
        try PaymentMachine(payment: record.payment).validateVoid()
        let (attempt, account) = try await currentAttempt(of: record)
        var operation = PaymentOperation(
            id: ids.make("void"), paymentId: paymentId, tenantId: tenant, kind: .void, amount: nil, createdAt: clock())
        try await payments.commit(PaymentChanges(operations: [operation]))
        contact = .possible(resourceId: paymentId)
        let outcome = await gateway.void(
            VoidRequest(payment: locator(attempt), operationId: operation.id), account: account)
        apply(outcome, to: &operation)
        let time = clock()
        let (actions, concluded) = try await concludingTransition(
            tenant: tenant, paymentId: paymentId, with: PaymentChanges(operations: [operation])
        ) { PaymentMachine.apply(.voidFinished(outcome), to: &$0, at: time) }
        try throwIfDeclined(actions)
        if outcome.kind == .notSent || outcome.kind == .authExpired {
            contact = .none
            throw CoreError(
                .providerUnreachable, "the provider could not be reached; nothing was canceled")
        }
        return concluded
    }

    /// Refunds `amount` (default: the refundable remainder, less what disputes hold) of a succeeded payment. Under an
    /// `Idempotency-Key` (`idempotency`), the refund is recorded under the key in the transaction that
    /// reserves it, before its provider is called, so a request that takes the key over after a crash
    /// finds it instead of refunding again; nothing is reserved when the request no longer owns the key.
    public func refund(
        tenant: UUID, paymentId: String, amount: Int64?, reason: String?, idempotency: IdempotencyScope? = nil,
        metadata: Metadata = .empty, description: String? = nil
    ) async throws -> Refund {
        if let idempotency, idempotency.tenant != tenant {
            throw CoreError(.invalidRequest, "the Idempotency-Key belongs to another tenant")
        }
        try ResourceDescription.validate(description)
        let record = try await resolvedIfUnknown(try await get(tenant: tenant, paymentId: paymentId))
        var pending: Int64 = 0
        for open in record.refunds where open.status == .pending || open.status == .unknown {
            let (sum, overflow) = pending.addingReportingOverflow(open.amount)
            guard !overflow else {
                throw CoreError(.refundExceedsCaptured, "the payment's refundable remainder cannot be computed")
            }
            pending = sum
        }
        let amount = try PaymentMachine(payment: record.payment).validateRefund(
            amount: amount, pendingRefunds: pending)
        let (attempt, account) = try await currentAttempt(of: record)
        var refund = Refund(
            id: ids.make("re"), paymentId: paymentId, tenantId: tenant, amount: amount,
            currency: record.payment.currency, reason: reason, createdAt: clock())
        refund.metadata = metadata
        refund.merchantDescription = description
        refund.livemode = record.payment.livemode
        // Reserved under a row lock (concurrent refunds can never exceed what was captured) and linked to its
        // Idempotency-Key in the same transaction: a retry that takes the key over after a crash finds either
        // this refund or none (then nothing reached the provider), never an unlinked one to repeat.
        try await payments.reserveRefund(refund, linking: idempotency)
        let outcome = await gateway.refund(
            RefundRequest(
                payment: locator(attempt), refundId: refund.id, amount: amount, currency: refund.currency,
                reason: reason),
            account: account)
        let time = clock()
        // Applied to the stored refund under its lock: a notification may already have made it final.
        let answered = try await payments.transitionRefund(tenant: tenant, refundId: refund.id) { stored in
            _ = RefundMachine.apply(.providerAnswered(outcome), to: &stored, at: time)
            return stored
        }
        return answered ?? refund
    }

    /// Asks the provider for the payment's state and applies it.
    public func sync(tenant: UUID, paymentId: String) async throws -> PaymentRecord {
        let record = try await get(tenant: tenant, paymentId: paymentId)
        if record.payment.status == .processing,
            try await staleRule(tenant: tenant).isStale(record.payment, lastAttempt: record.lastAttempt, now: clock())
        {
            // Left `processing` past its deadline: settled like the janitor settles it.
            return try await resolveStale(tenant: tenant, paymentId: paymentId)
        }
        let (attempt, account) = try await currentAttempt(of: record)
        var changes = PaymentChanges()
        let answer: Outcome
        if attempt.providerPaymentId == nil, var replayed = replayableCompletion(in: record),
            await gateway.manifest(pluginId: account.pluginId)?.honoursIdempotencyKey == true
        {
            // The provider never told us its id; the same request under the same key returns its first answer.
            answer = await replay(&replayed, of: record.payment, attempt: attempt, account: account)
            changes.operations = [replayed]
        } else {
            answer = await gateway.sync(
                SyncRequest(payment: locator(attempt), attemptStartedAt: attempt.startedAt), account: account)
        }
        let outcome = Self.judgedNotReceived(answer, attempt: attempt)
        var updated = attempt
        if outcome.provesNotReceived {
            updated.record(outcome, at: clock())
        }
        if let providerId = outcome.providerPaymentId, updated.providerPaymentId == nil {
            updated.providerPaymentId = providerId
        }
        updated.learn(outcome)
        let time = clock()
        changes.attempts = [updated]
        let status = try await payments.transition(tenant: tenant, paymentId: paymentId, with: changes) {
            payment -> PaymentStatus in
            _ = PaymentMachine.apply(.providerReported(outcome), to: &payment, at: time)
            return payment.status
        }
        logger.info(
            "payment synced",
            metadata: [
                "tenant.id": "\(tenant)", "payment.id": "\(paymentId)", "outcome": "\(outcome.kind.rawValue)",
                "payment.status": "\(status.rawValue)",
            ])
        return try await get(tenant: tenant, paymentId: paymentId)
    }

    /// A sync's proof that the attempt never reached the provider holds only for an attempt the provider never
    /// named (a lookup by its own id proves nothing about our reference) and whose own outcome is open;
    /// otherwise it is only an unknown answer.
    static func judgedNotReceived(_ outcome: Outcome, attempt: Attempt) -> Outcome {
        guard outcome.provesNotReceived else { return outcome }
        let open = attempt.outcome == nil || attempt.outcome == .unknown
        guard attempt.providerPaymentId == nil, open else {
            return Outcome(kind: .unknown, code: NotFoundRule.notFoundYetCode, message: outcome.message)
        }
        return outcome
    }

    /// The latest completion whose outcome is not known and whose data is kept for a replay.
    private func replayableCompletion(in record: PaymentRecord) -> PaymentOperation? {
        record.operations.last {
            $0.kind == .complete && $0.replayData != nil && ($0.outcome == nil || $0.outcome == .unknown)
        }
    }

    /// Sends `operation` again with its own id (the provider's idempotency key) and data.
    private func replay(
        _ operation: inout PaymentOperation, of p: Payment, attempt: Attempt, account: ProviderAccount
    ) async -> Outcome {
        let outcome = await gateway.complete(
            completeRequest(
                p, attempt: attempt, operation: operation, paymentData: operation.replayData ?? [:], isReplay: true),
            account: account)
        if outcome.kind != .unknown && outcome.kind != .notSent && outcome.kind != .authExpired {
            apply(outcome, to: &operation)
        }
        logger.info(
            "completion replayed",
            metadata: [
                "tenant.id": "\(p.tenantId)", "payment.id": "\(p.id)", "operation.id": "\(operation.id)",
                "outcome": "\(outcome.kind.rawValue)",
            ])
        return outcome
    }

    /// Before moving money on a payment whose outcome is unknown, resolve it with the provider.
    func resolvedIfUnknown(_ record: PaymentRecord) async throws -> PaymentRecord {
        guard record.payment.status == .unknown else { return record }
        let synced = try await sync(tenant: record.payment.tenantId, paymentId: record.payment.id)
        if synced.payment.status == .unknown {
            throw CoreError(
                .outcomeUnknown, "the provider has not confirmed this payment's outcome yet; try again later")
        }
        return synced
    }

    /// The plugin's request to complete `p` with the app's data, for `operation` (its idempotency key).
    private func completeRequest(
        _ p: Payment, attempt: Attempt, operation: PaymentOperation, paymentData: [String: JSONValue],
        isReplay: Bool = false
    ) -> CompleteRequest {
        CompleteRequest(
            payment: locator(attempt), operationId: operation.id, merchantReference: p.reference, amount: p.amount,
            currency: p.currency, country: p.country, method: p.method, captureMode: p.captureMode,
            returnURL: p.returnURL, paymentData: paymentData, session: p.nextAction?.data ?? [:], isReplay: isReplay)
    }

    func locator(_ attempt: Attempt) -> PaymentLocator {
        PaymentLocator(attemptId: attempt.id, providerPaymentId: attempt.providerPaymentId)
    }

    private func apply(_ outcome: Outcome, to operation: inout PaymentOperation) {
        operation.outcome = outcome.kind
        if outcome.kind != .unknown { operation.replayData = nil }
        operation.providerId = outcome.providerPaymentId
        operation.code = outcome.code
        operation.message = outcome.message
    }

    private func throwIfDeclined(_ actions: [PaymentMachine.Action]) throws {
        for case .reportDecline(let code, let message) in actions {
            throw CoreError(
                .providerDeclined, "\(code): \(message)", declineCode: DeclineCode.normalised(code), providerCode: code)
        }
    }
}

extension PaymentService {
    /// Applies `body` to the payment like ``PaymentRepository/transition(tenant:paymentId:with:_:)`` and
    /// returns its result with the payment's record as that transaction left it, read in the round trip that
    /// commits it rather than in a transaction of its own afterwards.
    func concludingTransition<T: Sendable>(
        tenant: UUID, paymentId: String, with changes: PaymentChanges,
        _ body: @escaping @Sendable (inout Payment) throws -> T
    ) async throws -> (T, PaymentRecord) {
        let (result, record, _) = try await payments.transition(
            tenant: tenant, paymentId: paymentId, with: changes, concluding: { _ in true }, answer: { _ in nil }, body)
        guard let record else { return (result, try await get(tenant: tenant, paymentId: paymentId)) }
        return (result, record)
    }
}
