#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Body of `POST /v1/payments/{id}/refunds`.
struct __Name__RefundRequest: Codable, Sendable, Equatable {
    /// Minor units of the payment's currency.
    var amount: Int64
    /// Our refund id.
    var reference: String
    var reason: String?

    enum CodingKeys: String, CodingKey {
        case amount
        case reference
        case reason
    }
}

/// A refund, as `POST /v1/payments/{id}/refunds` answers it.
struct __Name__Refund: Codable, Sendable, Equatable {
    var id: String
    var status: String?
    var reference: String?
    var amount: Int64?
    var failureCode: String?

    enum CodingKeys: String, CodingKey {
        case id
        case status
        case reference
        case amount
        case failureCode = "failure_code"
    }
}
