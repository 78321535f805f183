import Foundation
import SwitchyardCore

extension PostgresStore: PaymentSearchRepository {
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
