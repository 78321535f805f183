import Foundation

/// Where a payment lives: its tenant and id.
public struct PaymentLocation: Sendable, Equatable {
    public var tenant: UUID
    public var paymentId: String

    public init(tenant: UUID, paymentId: String) {
        self.tenant = tenant
        self.paymentId = paymentId
    }
}

/// The operator's cross-tenant reads of payments.
public protocol PaymentSearchRepository: Sendable {
    /// The payments with this id or this merchant reference, across every tenant, newest first.
    func paymentLocations(id: String?, reference: String?, limit: Int) async throws -> [PaymentLocation]
    /// The records of these payments of one tenant, in the order of `paymentIds` (unknown ids left out),
    /// read together: a fixed number of queries however many there are.
    func records(tenant: UUID, paymentIds: [String]) async throws -> [PaymentRecord]
}
