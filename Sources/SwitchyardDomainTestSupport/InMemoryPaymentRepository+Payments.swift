import Foundation
import ProviderKit
import SwitchyardCore

extension InMemoryPaymentRepository: PaymentRepository {
    public func commit(_ changes: PaymentChanges) async throws {
        try transact { try $0.write(changes) }
    }

    public func begin(_ changes: PaymentChanges, claim: IdempotencyScope?) async throws -> IdempotencyClaim {
        guard changes.payment != nil else {
            throw CoreError(.invalidRequest, "a payment create needs its payment")
        }
        try outage.check()
        let now = clock()
        return try transact { state -> IdempotencyClaim in
            guard let claim else {
                try state.write(changes)
                return .proceed
            }
            let result = state.claim(
                tenant: claim.tenant, key: claim.key, requestHash: claim.requestHash, owner: claim.owner, now: now,
                until: now.addingTimeInterval(claim.lease))
            guard result == .proceed || result == .resume(resourceId: nil) else { return result }
            try state.write(changes)
            if let id = changes.payment?.id {
                state.link(tenant: claim.tenant, key: claim.key, owner: claim.owner, resourceId: id)
            }
            return result
        }
    }

    public func transition<T: Sendable>(
        tenant: UUID, paymentId: String, with changes: PaymentChanges,
        concluding: @escaping @Sendable (T) -> Bool,
        answer: @escaping @Sendable (Payment) -> IdempotentAnswer?,
        _ body: @escaping @Sendable (inout Payment) throws -> T
    ) async throws -> (T, PaymentRecord?, answered: Bool) {
        try outage.check()
        var parts = changes
        parts.payment = nil
        let now = clock()
        let written: (T, PaymentRecord?, answered: Bool) = try transact { state in
            guard var payment = state.payment(paymentId, tenant: tenant) else { throw CoreError.notFound("payment") }
            // As in PostgreSQL: a transition neither reads nor writes the routing decision and payment data.
            payment.routing = nil
            payment.paymentData = [:]
            let result = try body(&payment)
            try state.upsert(payment)
            try state.write(parts)
            if outage.dropsTransition(at: .beforeCommit) { throw InMemoryOutage.Unavailable() }
            guard concluding(result) else { return (result, nil, false) }
            let record = state.record(paymentId)
            guard let record, let answer = answer(payment) else { return (result, record, false) }
            if outage.drops(at: .beforeCommit) { throw InMemoryOutage.Unavailable() }
            let answered = state.finish(
                tenant: tenant, key: answer.key, owner: answer.owner, outcome: answer.outcome, at: now)
            return (result, record, answered)
        }
        if written.answered, outage.drops(at: .afterCommit) { throw InMemoryOutage.Unavailable() }
        if outage.dropsTransition(at: .afterCommit) { throw InMemoryOutage.Unavailable() }
        return written
    }

    public func reserveRefund(_ refund: Refund, linking claim: IdempotencyScope?) async throws {
        try transact { state in
            guard let payment = state.payment(refund.paymentId, tenant: refund.tenantId) else {
                throw CoreError.notFound("payment")
            }
            var reserved: Int64 = 0
            for row in state.refunds.values where row.value.paymentId == refund.paymentId {
                if row.value.status == .pending || row.value.status == .unknown { reserved += row.value.amount }
            }
            try RefundLimit(
                captured: payment.amountCaptured, refunded: payment.amountRefunded, pending: reserved,
                disputed: payment.amountDisputed
            ).check(refund.amount)
            if let claim, !state.link(tenant: claim.tenant, key: claim.key, owner: claim.owner, resourceId: refund.id) {
                throw CoreError(.idempotencyInProgress, "another request with this Idempotency-Key took it over")
            }
            try state.upsert(refund)
        }
    }

    public func record(tenant: UUID, paymentId: String) async throws -> PaymentRecord? {
        transact { state in state.payment(paymentId, tenant: tenant) == nil ? nil : state.record(paymentId) }
    }

    public func attempt(accountId: UUID, attemptId: String) async throws -> Attempt? {
        transact { state in state.attempts[attemptId].flatMap { $0.accountId == accountId ? $0 : nil } }
    }

    public func attempt(accountId: UUID, providerPaymentId: String) async throws -> Attempt? {
        transact { state in
            state.attempts.values.filter { $0.accountId == accountId && $0.providerPaymentId == providerPaymentId }
                .max { $0.startedAt < $1.startedAt }
        }
    }

    public func refund(id: String) async throws -> Refund? {
        transact { state in state.refunds[id]?.value }
    }

    public func openPayments(accountId: UUID, limit: Int) async throws -> [(tenant: UUID, paymentId: String)] {
        let open: Set<PaymentStatus> = [.processing, .requiresAction, .unknown]
        return transact { state in
            state.payments.values.map(\.payment).filter {
                $0.providerAccountId == accountId && open.contains($0.status)
            }.sorted { $0.updatedAt > $1.updatedAt }.prefix(max(0, limit)).map {
                (tenant: $0.tenantId, paymentId: $0.id)
            }
        }
    }

    public func paymentsForReview(tenant: UUID?, limit: Int) async throws -> [Payment] {
        transact { state in
            state.payments.values.map(\.stored).filter {
                $0.resolution?.reviewRequired == true && (tenant == nil || $0.tenantId == tenant)
            }.sorted {
                ($0.resolution?.since ?? .distantFuture, $0.id) < ($1.resolution?.since ?? .distantFuture, $1.id)
            }.prefix(max(0, limit)).map { $0 }
        }
    }
}

extension InMemoryPaymentRepository {
    /// Applies `body` to the refund inside one transaction (every method here is serialized, as the
    /// PostgreSQL store's row locks serialize refund writes), storing it with the recomputed refunded
    /// amount when it changed; nil for an unknown refund or another tenant's.
    public func transitionRefund<T: Sendable>(
        tenant: UUID, refundId: String, _ body: @escaping @Sendable (inout Refund) throws -> T
    ) async throws -> T? {
        try outage.check()
        let result = try transact { state -> T? in
            guard var refund = state.refunds[refundId]?.value, refund.tenantId == tenant else { return nil }
            let before = refund
            let result = try body(&refund)
            if refund != before { try state.write(PaymentChanges(refunds: [refund])) }
            if outage.dropsTransition(at: .beforeCommit) { throw InMemoryOutage.Unavailable() }
            return result
        }
        if outage.dropsTransition(at: .afterCommit) { throw InMemoryOutage.Unavailable() }
        return result
    }
}

/// The merchant's payment listing over the stored payments: newest first, each with its record.
extension InMemoryPaymentRepository: PaymentRecordListing {
    public func records(tenant: UUID, reference: String?, metadata: [String: String], page: PageRequest)
        async throws -> Page<PaymentRecord>
    {
        let listed = transact { state in
            state.payments.values.map(\.stored).filter {
                $0.tenantId == tenant && (reference == nil || $0.reference == reference)
                    && $0.metadata.contains(metadata)
            }
        }
        let selected = page.page(
            try page.select(listed, id: \.id, created: \.createdAt, status: \.status.rawValue, livemode: \.livemode))
        var records: [PaymentRecord] = []
        for payment in selected.items {
            if let record = try await record(tenant: tenant, paymentId: payment.id) { records.append(record) }
        }
        return Page(items: records, hasMore: selected.hasMore)
    }
}
