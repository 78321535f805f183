import Foundation

/// A tenant's payments as the merchant lists them.
public protocol PaymentRecordListing: Sendable {
    /// A page of a tenant's payments, newest first, with their records; `startingAfter` is the last
    /// payment id of the previous page. Only payments whose metadata holds every pair of `metadata` are
    /// listed (none required when it is empty).
    func records(
        tenant: UUID, reference: String?, metadata: [String: String], startingAfter: String?, limit: Int
    ) async throws -> [PaymentRecord]
}

extension PaymentRecordListing {
    /// A page of a tenant's payments, whatever their metadata.
    public func records(tenant: UUID, reference: String?, startingAfter: String?, limit: Int) async throws
        -> [PaymentRecord]
    {
        try await records(
            tenant: tenant, reference: reference, metadata: [:], startingAfter: startingAfter, limit: limit)
    }
}
