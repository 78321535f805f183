import Foundation
import SwitchyardCore

/// The merchant's payment listing over the stored payments: newest first, each with its record.
extension InMemoryPaymentRepository: PaymentRecordListing {
    public func records(
        tenant: UUID, reference: String?, metadata: [String: String], startingAfter: String?, limit: Int
    ) async throws -> [PaymentRecord] {
        var records: [PaymentRecord] = []
        let page = list(
            tenant: tenant, reference: reference, metadata: metadata, startingAfter: startingAfter, limit: limit)
        for payment in page {
            if let record = try await record(tenant: tenant, paymentId: payment.id) { records.append(record) }
        }
        return records
    }
}
