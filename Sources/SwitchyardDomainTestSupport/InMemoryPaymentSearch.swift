import Foundation
import SwitchyardCore

/// Payments of every tenant in memory, for fast tests of the operator's search over a
/// ``PaymentSearchRepository``. Counts the batched reads so tests can see their number.
public actor InMemoryPaymentSearch: PaymentSearchRepository {
    private var stored: [PaymentRecord] = []
    /// How many times ``records(tenant:paymentIds:)`` was called.
    public private(set) var recordReads = 0

    public init() {}

    /// Adds a payment (without attempts, refunds or operations).
    public func add(_ payment: Payment) {
        stored.append(PaymentRecord(payment: payment, attempts: [], refunds: [], operations: []))
    }

    public func paymentLocations(id: String?, reference: String?, limit: Int) async throws -> [PaymentLocation] {
        stored.filter { (id == nil || $0.payment.id == id) && (reference == nil || $0.payment.reference == reference) }
            .sorted { ($0.payment.createdAt, $0.payment.id) > ($1.payment.createdAt, $1.payment.id) }
            .prefix(limit)
            .map { PaymentLocation(tenant: $0.payment.tenantId, paymentId: $0.payment.id) }
    }

    public func records(tenant: UUID, paymentIds: [String]) async throws -> [PaymentRecord] {
        recordReads += 1
        return paymentIds.compactMap { id in stored.first { $0.payment.tenantId == tenant && $0.payment.id == id } }
    }
}
