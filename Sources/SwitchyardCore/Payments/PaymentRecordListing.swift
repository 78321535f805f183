import Foundation

/// A tenant's payments as the merchant lists them.
public protocol PaymentRecordListing: Sendable {
    /// A page of a tenant's payments (see ``PageRequest``: newest first, cursors, creation window, status),
    /// each with its record. Only payments with `reference` (when given) and whose metadata holds every pair
    /// of `metadata` (none required when it is empty) are listed; a cursor must be one of those payments.
    func records(tenant: UUID, reference: String?, metadata: [String: String], page: PageRequest) async throws
        -> Page<PaymentRecord>
}

extension PaymentRecordListing {
    /// Up to `limit` of a tenant's payments with `reference` (any when nil), newest first, older than the
    /// payment `startingAfter`, whatever their metadata.
    public func records(tenant: UUID, reference: String?, startingAfter: String?, limit: Int) async throws
        -> [PaymentRecord]
    {
        try await records(
            tenant: tenant, reference: reference, metadata: [:],
            page: PageRequest(limit: limit, cursor: startingAfter.map { .after($0) })
        ).items
    }
}
