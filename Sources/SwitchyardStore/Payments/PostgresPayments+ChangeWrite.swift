import Foundation
import SwitchyardCore

extension PostgresPayments {
    /// ``PaymentChanges`` turned into statement parameters up front, written on a connection inside the
    /// caller's transaction.
    struct ChangeWrite: Sendable {
        let store: PostgresPayments
        let changes: PaymentChanges
        let paymentParams: [PGValue]?
        let attemptParams: [[PGValue]]
        let outcomeParams: [[PGValue]]
        let refundParams: [[PGValue]]
        let operationParams: [[PGValue]]

        init(_ changes: PaymentChanges, store: PostgresPayments) throws {
            self.store = store
            self.changes = changes
            paymentParams = try changes.payment.map(PostgresPayments.paymentParameters)
            attemptParams = changes.attempts.map(PostgresPayments.attemptParameters)
            outcomeParams = changes.attempts.compactMap(PostgresRouting.routingOutcomeParameters)
            refundParams = try changes.refunds.map(PostgresPayments.refundParameters)
            operationParams = try changes.operations.map(store.operationParameters)
        }

        /// Upserts every change, announcing status changes: in one round trip (with the payment's lock
        /// before it) unless refunds change.
        func run(on c: PGConnection, paymentIsNew: Bool = false) async throws {
            if let statements = try await statements(on: c, paymentIsNew: paymentIsNew) {
                try await c.pipeline(statements)
                return
            }
            try await runEach(on: c)
        }

        /// The statements that write these changes, after locking the payment's row on `c`; nil when refunds
        /// change (their writes read locks and totals between statements: ``runEach(on:)``).
        ///
        /// A payment the caller knows to be new (its id was just made) has no row to lock and no previous
        /// status: `paymentIsNew` saves that round trip.
        func statements(on c: PGConnection, paymentIsNew: Bool = false) async throws -> [PGStatement]? {
            guard changes.refunds.isEmpty else { return nil }
            var statements: [PGStatement] = []
            if let payment = changes.payment, let paymentParams {
                let previous =
                    paymentIsNew ? nil : try await PostgresOutbox.lockedStatus("payments", id: payment.id, on: c)
                statements.append(PGStatement(PostgresPayments.upsertPayment, paymentParams))
                statements += try store.announcement(payment, previous: previous)
            }
            statements += attemptParams.map { PGStatement(PostgresPayments.upsertAttempt, $0) }
            statements += outcomeParams.map { PGStatement(PostgresRouting.recordRoutingOutcome, $0) }
            statements += operationParams.map { PGStatement(PostgresPayments.upsertOperation, $0) }
            return statements
        }

        /// Whether the changes are operations only: upserts by id whose second run writes the same, so their
        /// transaction may commit in its first round trip (see ``PGConnection/commit(after:repeatable:)``).
        var onlyOperations: Bool {
            changes.payment == nil && changes.attempts.isEmpty && changes.refunds.isEmpty
                && !changes.operations.isEmpty
        }

        /// Upserts every change one statement at a time, announcing status changes.
        private func runEach(on c: PGConnection) async throws {
            let refundedPayments = Set(changes.refunds.map(\.paymentId)).sorted()
            // Lock the payments whose refunds change first, so the recomputed total sees every committed refund.
            for id in refundedPayments {
                try await c.query("SELECT id FROM payments WHERE id = $1 FOR UPDATE", [.text(id)])
            }
            if let payment = changes.payment, let paymentParams {
                let previous = try await PostgresOutbox.lockedStatus("payments", id: payment.id, on: c)
                try await c.query(PostgresPayments.upsertPayment, paymentParams)
                try await store.announce(payment, previous: previous, on: c)
            }
            for params in attemptParams { try await c.query(PostgresPayments.upsertAttempt, params) }
            for params in outcomeParams { try await c.query(PostgresRouting.recordRoutingOutcome, params) }
            try await store.upsertAnnouncing(changes.refunds, refundParams, on: c)
            for params in operationParams { try await c.query(PostgresPayments.upsertOperation, params) }
            for id in refundedPayments { try await c.query(PostgresPayments.recomputeRefunded, [.text(id)]) }
        }
    }
}
