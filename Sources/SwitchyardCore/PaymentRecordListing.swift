import Foundation

/// A tenant's payments as the merchant lists them.
public protocol PaymentRecordListing: Sendable {
    /// A page of a tenant's payments, newest first, with their records; `startingAfter` is the last
    /// payment id of the previous page.
    func records(tenant: UUID, reference: String?, startingAfter: String?, limit: Int) async throws
        -> [PaymentRecord]
}
