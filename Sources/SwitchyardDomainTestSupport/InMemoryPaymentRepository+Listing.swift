import Foundation
import SwitchyardCore

/// The merchant's payment listing over the stored payments: newest first, each with its record.
extension InMemoryPaymentRepository: PaymentRecordListing {
    public func records(tenant: UUID, reference: String?, metadata: [String: String], page: PageRequest)
        async throws -> Page<PaymentRecord>
    {
        let listed = transact { state in
            state.payments.values.map(\.stored).filter {
                $0.tenantId == tenant && (reference == nil || $0.reference == reference)
                    && $0.metadata.contains(metadata)
            }
        }
        let selected = page.page(
            try page.select(listed, id: \.id, created: \.createdAt, status: \.status.rawValue, livemode: \.livemode))
        var records: [PaymentRecord] = []
        for payment in selected.items {
            if let record = try await record(tenant: tenant, paymentId: payment.id) { records.append(record) }
        }
        return Page(items: records, hasMore: selected.hasMore)
    }
}
