#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A notification body: `{"type":"payment.updated","data":{…}}`, signed by the `X-Signature` header.
struct __Name__Event: Codable, Sendable, Equatable {
    /// `payment.<something>` or `refund.<something>`; other types carry nothing for Switchyard.
    var type: String
    var data: __Name__EventObject
}

/// The payment or refund a notification reports.
struct __Name__EventObject: Codable, Sendable, Equatable {
    var id: String
    var status: String?
    /// Our attempt id (payments) or refund id (refunds).
    var reference: String?
    var amount: Int64?

    enum CodingKeys: String, CodingKey {
        case id
        case status
        case reference
        case amount
    }
}
