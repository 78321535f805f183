import Foundation
import SwitchyardCore

/// Payments read with their attempts, refunds and operations: a fixed number of queries for one payment
/// or a whole page.
extension PostgresStore {
    public func record(tenant: UUID, paymentId: String) async throws -> PaymentRecord? {
        try await tenantScoped(tenant) { c in try self.record(paymentId, on: c) }
    }

    public func list(tenant: UUID, reference: String?, startingAfter: String?, limit: Int) async throws -> [Payment] {
        try await tenantScoped(tenant) { c in
            try Self.page(reference: reference, startingAfter: startingAfter, limit: limit, on: c)
        }
    }

    /// A page of a tenant's payments, newest first, with their records: four queries whatever `limit` is.
    /// The metadata filters are one containment (`@>`), answered by the `payments_metadata` index.
    public func records(
        tenant: UUID, reference: String?, metadata: [String: String], startingAfter: String?, limit: Int
    ) async throws -> [PaymentRecord] {
        try await tenantScoped(tenant) { c in
            try self.records(
                Self.page(
                    reference: reference, metadata: metadata, startingAfter: startingAfter, limit: limit, on: c),
                on: c)
        }
    }

    /// One payment's record, read on `c` inside the caller's transaction (one round trip).
    func record(_ paymentId: String, on c: PGConnection) throws -> PaymentRecord? {
        try record(from: c.pipeline(Self.recordReads(paymentId)))
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
    func records(_ payments: [Payment], on c: PGConnection) throws -> [PaymentRecord] {
        guard !payments.isEmpty else { return [] }
        let ids = PGValue.json(String(decoding: try JSONEncoder().encode(payments.map(\.id)), as: UTF8.self))
        let inPage = "payment_id IN (SELECT jsonb_array_elements_text($1::jsonb))"
        let attempts = Dictionary(
            grouping: try c.query("SELECT * FROM attempts WHERE \(inPage) ORDER BY sequence", [ids]).rows.map(
                Self.attempt), by: \.paymentId)
        let refunds = Dictionary(
            grouping: try c.query("SELECT * FROM refunds WHERE \(inPage) ORDER BY created_at, id", [ids]).rows.map(
                Self.refund), by: \.paymentId)
        let operations = Dictionary(
            grouping: try c.query("SELECT * FROM payment_operations WHERE \(inPage) ORDER BY created_at, id", [ids])
                .rows.map(self.operation), by: \.paymentId)
        return payments.map { payment in
            PaymentRecord(
                payment: payment, attempts: attempts[payment.id] ?? [], refunds: refunds[payment.id] ?? [],
                operations: operations[payment.id] ?? [])
        }
    }

    private static func page(
        reference: String?, metadata: [String: String] = [:], startingAfter: String?, limit: Int, on c: PGConnection
    ) throws -> [Payment] {
        var sql = "SELECT * FROM payments p WHERE TRUE"
        var params: [PGValue] = []
        if let reference {
            params.append(.text(reference))
            sql += " AND p.reference = $\(params.count)"
        }
        if !metadata.isEmpty {
            params.append(.json(try StoreJSON.encode(metadata)))
            sql += " AND p.metadata @> $\(params.count)::jsonb"
        }
        if let startingAfter {
            params.append(.text(startingAfter))
            sql += """
                 AND (p.created_at, p.id) < (SELECT created_at, id FROM payments WHERE id = $\(params.count))
                """
        }
        params.append(.int(Int64(limit)))
        sql += " ORDER BY p.created_at DESC, p.id DESC LIMIT $\(params.count)::bigint"
        return try c.query(sql, params).rows.map(Self.payment)
    }
}
