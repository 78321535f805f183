import Foundation
import SwitchyardCore

extension PostgresStore {
    /// ``PaymentChanges`` turned into statement parameters up front, written on a connection inside the
    /// caller's transaction.
    struct ChangeWrite: Sendable {
        let store: PostgresStore
        let changes: PaymentChanges
        let paymentParams: [PGValue]?
        let attemptParams: [[PGValue]]
        let outcomeParams: [[PGValue]]
        let refundParams: [[PGValue]]
        let operationParams: [[PGValue]]

        init(_ changes: PaymentChanges, store: PostgresStore) throws {
            self.store = store
            self.changes = changes
            paymentParams = try changes.payment.map(PostgresStore.paymentParameters)
            attemptParams = changes.attempts.map(PostgresStore.attemptParameters)
            outcomeParams = changes.attempts.compactMap(PostgresStore.routingOutcomeParameters)
            refundParams = try changes.refunds.map(PostgresStore.refundParameters)
            operationParams = try changes.operations.map(store.operationParameters)
        }

        /// Upserts every change, announcing status changes: in one round trip (with the payment's lock
        /// before it) unless refunds or operations change.
        func run(on c: PGConnection) throws {
            if let statements = try statements(on: c) {
                try c.pipeline(statements)
                return
            }
            try runEach(on: c)
        }

        /// The statements that write these changes, after locking the payment's row on `c`; nil when refunds
        /// or operations change (their writes read locks and totals between statements: ``runEach(on:)``).
        func statements(on c: PGConnection) throws -> [PGStatement]? {
            guard changes.refunds.isEmpty, changes.operations.isEmpty else { return nil }
            var statements: [PGStatement] = []
            if let payment = changes.payment, let paymentParams {
                let previous = try PostgresStore.lockedStatus("payments", id: payment.id, on: c)
                statements.append(PGStatement(PostgresStore.upsertPayment, paymentParams))
                statements += try store.announcement(payment, previous: previous)
            }
            statements += attemptParams.map { PGStatement(PostgresStore.upsertAttempt, $0) }
            statements += outcomeParams.map { PGStatement(PostgresStore.recordRoutingOutcome, $0) }
            return statements
        }

        /// Upserts every change one statement at a time, announcing status changes.
        private func runEach(on c: PGConnection) throws {
            let refundedPayments = Set(changes.refunds.map(\.paymentId)).sorted()
            // Lock the payments whose refunds change first, so the recomputed total sees every committed refund.
            for id in refundedPayments { try c.query("SELECT id FROM payments WHERE id = $1 FOR UPDATE", [.text(id)]) }
            if let payment = changes.payment, let paymentParams {
                let previous = try PostgresStore.lockedStatus("payments", id: payment.id, on: c)
                try c.query(PostgresStore.upsertPayment, paymentParams)
                try store.announce(payment, previous: previous, on: c)
            }
            for params in attemptParams { try c.query(PostgresStore.upsertAttempt, params) }
            for params in outcomeParams { try c.query(PostgresStore.recordRoutingOutcome, params) }
            try store.upsertAnnouncing(changes.refunds, refundParams, on: c)
            for params in operationParams { try c.query(PostgresStore.upsertOperation, params) }
            for id in refundedPayments { try c.query(PostgresStore.recomputeRefunded, [.text(id)]) }
        }
    }
}
