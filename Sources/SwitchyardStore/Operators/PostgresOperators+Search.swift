import Foundation
import SwitchyardCore

extension PostgresOperators {
    /// The payments with this id or this merchant reference, across every tenant, newest first: for the
    /// operator's search. Read the full records with ``records(tenant:paymentIds:)``.
    public func paymentLocations(id: String?, reference: String?, limit: Int) async throws -> [PaymentLocation] {
        let rows = try await system { c in
            try await c.query(
                """
                SELECT tenant_id, id FROM payments
                WHERE ($1::text IS NULL OR id = $1) AND ($2::text IS NULL OR reference = $2)
                ORDER BY created_at DESC, id DESC LIMIT $3::bigint
                """,
                [id.pg, reference.pg, .int(Int64(limit))]
            ).rows
        }
        return try rows.map { PaymentLocation(tenant: try $0.uuid("tenant_id"), paymentId: try $0.string("id")) }
    }

    /// The records of these payments of `tenant`, in the order of `paymentIds`, in one transaction of
    /// four queries whatever their number.
    public func records(tenant: UUID, paymentIds: [String]) async throws -> [PaymentRecord] {
        guard !paymentIds.isEmpty else { return [] }
        return try await tenantScoped(tenant) { c in
            let ids = PGValue.json(String(decoding: try JSONEncoder().encode(paymentIds), as: UTF8.self))
            let payments = try await c.query(
                "SELECT * FROM payments WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb))", [ids]
            ).rows.map(PostgresPayments.payment)
            let byId = Dictionary(payments.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return try await PostgresPayments(database: self.database).records(
                paymentIds.compactMap { byId[$0] }, on: c)
        }
    }
}
