import Foundation
import SwitchyardCore

/// Payments read with their attempts, refunds and operations: a fixed number of queries for one payment
/// or a whole page.
extension PostgresPayments {
    public func record(tenant: UUID, paymentId: String) async throws -> PaymentRecord? {
        // Reads only: the opening, the four reads and COMMIT go in one round trip.
        try await tenantSnapshot(tenant) { c in
            try await self.record(from: c.commit(after: Self.recordReads(paymentId), repeatable: true))
        }
    }

    /// A page of a tenant's payments, newest first, with their records: four queries whatever `limit` is.
    /// The metadata filters are one containment (`@>`), answered by the `payments_metadata` index.
    public func records(tenant: UUID, reference: String?, metadata: [String: String], page: PageRequest)
        async throws -> Page<PaymentRecord>
    {
        let (scope, params) = try Self.paymentScope(reference: reference, metadata: metadata)
        return try await tenantSnapshot(tenant) { c in
            let rows = try await Self.paymentPages.rows(c, page, scope: scope, params: params)
            let payments = page.page(try rows.map(Self.payment))
            return await Page(items: try self.records(payments.items, on: c), hasMore: payments.hasMore)
        }
    }

    /// The conditions a listed payment meets: its reference when given, and every pair of `metadata`.
    static func paymentScope(reference: String?, metadata: [String: String]) throws -> ([String], [PGValue]) {
        var scope: [String] = []
        var params: [PGValue] = []
        if let reference {
            params.append(.text(reference))
            scope.append("p.reference = $\(params.count)")
        }
        if !metadata.isEmpty {
            params.append(.json(try StoreJSON.encode(metadata)))
            scope.append("p.metadata @> $\(params.count)::jsonb")
        }
        return (scope, params)
    }

    /// The pages of the payments list (row-level security keeps them to the transaction's tenant).
    static let paymentPages = PageQuery(
        table: "payments p", idColumn: "p.id", createdColumn: "p.created_at", statusColumn: "p.status",
        livemodeColumn: "p.livemode")

    /// One payment's record, read on `c` inside the caller's transaction (one round trip).
    func record(_ paymentId: String, on c: PGConnection) async throws -> PaymentRecord? {
        try await record(from: c.pipeline(Self.recordReads(paymentId)))
    }

    /// The four reads of one payment's record: the payment, its attempts, refunds and operations.
    static func recordReads(_ paymentId: String) -> [PGStatement] {
        let id: [PGValue] = [.text(paymentId)]
        return [
            PGStatement("SELECT * FROM payments WHERE id = $1", id),
            PGStatement("SELECT * FROM attempts WHERE payment_id = $1 ORDER BY sequence", id),
            PGStatement("SELECT * FROM refunds WHERE payment_id = $1 ORDER BY created_at, id", id),
            PGStatement("SELECT * FROM payment_operations WHERE payment_id = $1 ORDER BY created_at, id", id),
        ]
    }

    /// The record in the results of ``recordReads(_:)``; nil when the payment does not exist.
    func record(from results: [PGResult]) throws -> PaymentRecord? {
        guard results.count == 4, let row = results[0].first else { return nil }
        return PaymentRecord(
            payment: try Self.payment(row), attempts: try results[1].rows.map(Self.attempt),
            refunds: try results[2].rows.map(Self.refund), operations: try results[3].rows.map(operation))
    }

    /// The records of `payments`, in their order: one query each for attempts, refunds and operations.
    func records(_ payments: [Payment], on c: PGConnection) async throws -> [PaymentRecord] {
        guard !payments.isEmpty else { return [] }
        let ids = PGValue.json(String(decoding: try JSONEncoder().encode(payments.map(\.id)), as: UTF8.self))
        let inPage = "payment_id IN (SELECT jsonb_array_elements_text($1::jsonb))"
        let attempts = Dictionary(
            grouping: try await c.query("SELECT * FROM attempts WHERE \(inPage) ORDER BY sequence", [ids]).rows.map(
                Self.attempt), by: \.paymentId)
        let refunds = Dictionary(
            grouping: try await c.query("SELECT * FROM refunds WHERE \(inPage) ORDER BY created_at, id", [ids]).rows
                .map(
                    Self.refund), by: \.paymentId)
        let operations = Dictionary(
            grouping: try await c.query(
                "SELECT * FROM payment_operations WHERE \(inPage) ORDER BY created_at, id", [ids]
            )
            .rows.map(self.operation), by: \.paymentId)
        return payments.map { payment in
            PaymentRecord(
                payment: payment, attempts: attempts[payment.id] ?? [], refunds: refunds[payment.id] ?? [],
                operations: operations[payment.id] ?? [])
        }
    }
}
