import Foundation
import ProviderKit
import SwitchyardCore

/// The upserts of the PostgreSQL store, on the in-memory rows.
extension InMemoryPaymentRepository.State {
    /// Writes all of `changes` as the store's change write does: the payment, attempts, refunds (announcing
    /// status changes) and operations, then each refunded payment's refunded amount from its succeeded refunds.
    mutating func write(_ changes: PaymentChanges) throws {
        if let payment = changes.payment { try upsert(payment) }
        for attempt in changes.attempts { try upsert(attempt) }
        for refund in changes.refunds { try upsert(refund) }
        for operation in changes.operations { try upsert(operation) }
        for id in Set(changes.refunds.map(\.paymentId)).sorted() { try recomputeRefunded(id) }
    }

    /// Inserts a payment, or updates what an update may change (never its amount, parties or creation).
    mutating func upsert(_ payment: Payment) throws {
        try Self.check(payment)
        let previous = payments[payment.id]
        if var row = previous {
            var p = row.payment
            p.status = payment.status
            p.amountCaptured = payment.amountCaptured
            p.amountRefunded = payment.amountRefunded
            p.nextAction = payment.nextAction
            p.providerAccountId = payment.providerAccountId
            p.failureCode = payment.failureCode
            p.failureMessage = payment.failureMessage
            p.updatedAt = payment.updatedAt
            p.savedPaymentMethodId = payment.savedPaymentMethodId
            p.resolution = payment.resolution
            try Self.check(p)
            row.payment = p
            row.nextSyncAt = payment.resolution?.nextSyncAt
            payments[payment.id] = row
        } else {
            payments[payment.id] = InMemoryPaymentRepository.PaymentRow(
                payment: payment, nextSyncAt: payment.resolution?.nextSyncAt)
        }
        announce("payment", payment.id, from: previous?.payment.status.rawValue, to: payment.status.rawValue)
    }

    /// Inserts an attempt, or records its outcome (a provider id once known is kept).
    mutating func upsert(_ attempt: Attempt) throws {
        guard payments[attempt.paymentId] != nil else {
            throw InMemoryConstraintViolation(description: "attempt \(attempt.id) of a missing payment")
        }
        recordOutcome(of: attempt)
        guard var stored = attempts[attempt.id] else {
            if attempts.values.contains(where: { $0.paymentId == attempt.paymentId && $0.sequence == attempt.sequence })
            {
                throw InMemoryConstraintViolation(description: "a second attempt \(attempt.sequence) of a payment")
            }
            attempts[attempt.id] = attempt
            return
        }
        stored.outcome = attempt.outcome
        stored.providerPaymentId = attempt.providerPaymentId ?? stored.providerPaymentId
        stored.providerStatus = attempt.providerStatus
        stored.code = attempt.code
        stored.message = attempt.message
        stored.finishedAt = attempt.finishedAt
        attempts[attempt.id] = stored
    }

    /// Inserts a refund, or updates it; a final refund (succeeded or failed) keeps its status and failure.
    mutating func upsert(_ refund: Refund) throws {
        guard payments[refund.paymentId] != nil else {
            throw InMemoryConstraintViolation(description: "refund \(refund.id) of a missing payment")
        }
        guard refund.amount > 0 else { throw InMemoryConstraintViolation(description: "refund amount not positive") }
        guard var row = refunds[refund.id] else {
            refunds[refund.id] = InMemoryPaymentRepository.OpenRow(value: refund)
            announce("refund", refund.id, from: nil, to: refund.status.rawValue)
            return
        }
        let previous = row.value.status
        let final = previous == .succeeded || previous == .failed
        if !final {
            row.value.status = refund.status
            row.value.failureCode = refund.failureCode
            row.value.failureMessage = refund.failureMessage
        }
        row.value.providerRefundId = refund.providerRefundId ?? row.value.providerRefundId
        row.value.updatedAt = refund.updatedAt
        refunds[refund.id] = row
        announce("refund", refund.id, from: previous.rawValue, to: row.value.status.rawValue)
    }

    /// Inserts an operation, or records its outcome unless that would replace a known one with `unknown`.
    mutating func upsert(_ operation: PaymentOperation) throws {
        guard payments[operation.paymentId] != nil else {
            throw InMemoryConstraintViolation(description: "operation \(operation.id) of a missing payment")
        }
        guard var row = operations[operation.id] else {
            operations[operation.id] = InMemoryPaymentRepository.OpenRow(value: operation)
            return
        }
        let old = row.value.outcome
        guard old == nil || old == .unknown || operation.outcome != .unknown else { return }
        row.value.outcome = operation.outcome
        row.value.providerId = operation.providerId
        row.value.code = operation.code
        row.value.message = operation.message
        row.value.replayData = operation.replayData
        operations[operation.id] = row
    }

    /// A payment's refunded amount: the sum of its succeeded refunds.
    mutating func recomputeRefunded(_ paymentId: String) throws {
        guard var row = payments[paymentId] else { return }
        row.payment.amountRefunded = refunds.values.filter {
            $0.value.paymentId == paymentId && $0.value.status == .succeeded
        }.reduce(0) { $0 + $1.value.amount }
        try Self.check(row.payment)
        payments[paymentId] = row
    }

    /// The payments table's checks.
    static func check(_ p: Payment) throws {
        guard p.amount > 0, p.amountCaptured >= 0, p.amountCaptured <= p.amount, p.amountRefunded >= 0,
            p.amountRefunded <= p.amountCaptured
        else { throw InMemoryConstraintViolation(description: "payment \(p.id) amounts out of bounds") }
    }

    mutating func announce(_ subject: String, _ id: String, from: String?, to: String) {
        guard from != to else { return }
        changes.append(.init(subject: subject, id: id, from: from, to: to))
    }

    /// A tenant's payment, locked for the transaction (nil when the tenant cannot see it).
    func payment(_ id: String, tenant: UUID) -> Payment? {
        payments[id].flatMap { $0.payment.tenantId == tenant ? $0.stored : nil }
    }

    /// A payment's record as the store reads it: attempts by sequence, refunds and operations by creation.
    func record(_ id: String) -> PaymentRecord? {
        guard let row = payments[id] else { return nil }
        let byCreation: (Date, String, Date, String) -> Bool = { ($0, $1) < ($2, $3) }
        return PaymentRecord(
            payment: row.stored,
            attempts: attempts.values.filter { $0.paymentId == id }.sorted { $0.sequence < $1.sequence },
            refunds: refunds.values.map(\.value).filter { $0.paymentId == id }.sorted {
                byCreation($0.createdAt, $0.id, $1.createdAt, $1.id)
            },
            operations: operations.values.map(\.value).filter { $0.paymentId == id }.sorted {
                byCreation($0.createdAt, $0.id, $1.createdAt, $1.id)
            })
    }
}
