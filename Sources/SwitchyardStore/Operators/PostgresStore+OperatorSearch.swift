import Foundation
import SwitchyardCore

extension PostgresStore {
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
}
