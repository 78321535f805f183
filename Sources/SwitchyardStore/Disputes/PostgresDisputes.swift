import Foundation
import SwitchyardCore

/// Disputes, their funds on the payment's `amount_disputed` and their webhook events, over the shared
/// ``PostgresDatabase``.
public struct PostgresDisputes: DisputeRepository, PostgresRepository {
    let database: PostgresDatabase
}

extension PostgresDisputes {
    public func record(
        tenant: UUID, accountId: UUID, providerDisputeId: String, paymentId: String?,
        _ step: @escaping @Sendable (Dispute?, Payment?) throws -> DisputeStep
    ) async throws -> DisputeStep {
        let now = clock()
        return try await tenantScoped(tenant) { c in
            // Two notifications about a dispute not yet stored wait for each other here instead of both
            // inserting it.
            try await c.query(
                "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                [.text("dispute:\(accountId.uuidString.lowercased()):\(providerDisputeId)")])
            let existing = try await c.query(
                "SELECT * FROM disputes WHERE account_id = $1::uuid AND provider_dispute_id = $2 FOR UPDATE",
                [.uuid(accountId), .text(providerDisputeId)]
            ).first.map(Self.dispute)
            var payment: Payment?
            if let paymentId {
                payment = try await c.query(PostgresPayments.paymentForUpdate, [.text(paymentId)]).first.map(
                    PostgresPayments.payment)
            }
            let result = try step(existing, payment)
            guard let dispute = result.dispute else { return result }
            var statements = [PGStatement(Self.upsert, try Self.parameters(dispute))]
            if dispute.countsOnPayment, let paymentId = dispute.paymentId {
                guard let change = result.disputedChange else {
                    throw CoreError(.invalidAmount, "the disputed amounts do not fit in 64 bits")
                }
                if change != 0 {
                    // Never below nothing nor above the payment: several disputes of one payment share it.
                    statements.append(
                        PGStatement(
                            """
                            UPDATE payments SET amount_disputed = LEAST(amount, GREATEST(0, amount_disputed + $2::bigint)),
                                updated_at = $3::timestamptz
                            WHERE id = $1
                            """, [.text(paymentId), .int(change), .timestamp(now)]))
                }
            }
            for entry in LedgerEntry.entries(of: result, at: now, makeId: { Self.ledgerIds.make("bt") }) {
                statements.append(Self.inserting(entry))
            }
            // One step's events a microsecond apart, so their deliveries keep the order they were announced in.
            for (index, announcement) in result.announcements.enumerated() {
                let event = try WebhookEvent.dispute(
                    announcement.rawValue, dispute, id: PostgresOutbox.eventIds.make("evt"),
                    at: now.addingTimeInterval(Double(index) / 1_000_000))
                statements += PostgresOutbox.enqueueing(event)
            }
            try await c.pipeline(statements)
            return result
        }
    }

    public func dispute(tenant: UUID, id: String) async throws -> Dispute? {
        try await tenantScoped(tenant) { c in
            try await c.query("SELECT * FROM disputes WHERE id = $1", [.text(id)]).first.map(Self.dispute)
        }
    }

    public func disputes(tenant: UUID, filter: DisputeFilter, page: PageRequest) async throws -> Page<Dispute> {
        try await tenantScoped(tenant) { c in
            var scope = ["tenant_id = $1::uuid"]
            var params: [PGValue] = [.uuid(tenant)]
            if let paymentId = filter.paymentId {
                params.append(.text(paymentId))
                scope.append("payment_id = $\(params.count)")
            }
            if let dueBefore = filter.dueBefore {
                params.append(.timestamp(dueBefore))
                scope.append("evidence_due_by <= $\(params.count)::timestamptz")
            }
            if let needsReview = filter.needsReview {
                scope.append(needsReview ? "review IS NOT NULL" : "review IS NULL")
            }
            let rows = try await PageQuery(table: "disputes", livemodeColumn: "livemode").rows(
                c, page, scope: scope, params: params)
            return page.page(try rows.map(Self.dispute))
        }
    }
}
