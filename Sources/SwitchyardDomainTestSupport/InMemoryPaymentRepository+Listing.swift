import Foundation
import SwitchyardCore

/// The merchant's payment listing over the stored payments: newest first, each with its record.
extension InMemoryPaymentRepository: PaymentRecordListing {
    public func records(tenant: UUID, reference: String?, startingAfter: String?, limit: Int) async throws
        -> [PaymentRecord]
    {
        var records: [PaymentRecord] = []
        for payment in try await list(tenant: tenant, reference: reference, startingAfter: startingAfter, limit: limit)
        {
            if let record = try await record(tenant: tenant, paymentId: payment.id) { records.append(record) }
        }
        return records
    }
}
