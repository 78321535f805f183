#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Codable mirrors of the __Name__ API's JSON. No logic lives here; see __Name__Mapping for the rules.
// Answer fields are optional so that a partial answer still decodes; the mapping decides what is required.

/// Body of `POST /v1/payments`.
struct __Name__PaymentRequest: Codable, Sendable, Equatable {
    /// Minor units of `currency`.
    var amount: Int64
    var currency: String
    var country: String
    var method: String
    /// Our attempt id: the provider finds the payment by it too.
    var reference: String
    /// The merchant's own order reference, shown to the customer.
    var description: String?
    /// Whether the payment is captured at once (`false`: authorised only).
    var capture: Bool
    var returnURL: String?
    var notificationURL: String

    enum CodingKeys: String, CodingKey {
        case amount
        case currency
        case country
        case method
        case reference
        case description
        case capture
        case returnURL = "return_url"
        case notificationURL = "notification_url"
    }
}

/// A payment, as `POST /v1/payments` and `GET /v1/payments/{id}` answer it.
struct __Name__Payment: Codable, Sendable, Equatable {
    var id: String
    var status: String?
    var reference: String?
    var amount: Int64?
    var amountRefunded: Int64?
    var currency: String?
    /// Where to send the customer when `status` is `requires_action`.
    var redirectURL: String?
    /// Why a `declined` payment was refused.
    var failureCode: String?

    enum CodingKeys: String, CodingKey {
        case id
        case status
        case reference
        case amount
        case amountRefunded = "amount_refunded"
        case currency
        case redirectURL = "redirect_url"
        case failureCode = "failure_code"
    }
}

/// The body of any refused request (HTTP 4xx): `{"error":{"code","message"}}`.
struct __Name__ErrorResponse: Codable, Sendable, Equatable {
    var error: __Name__Error
}

/// The `error` object of a refused request.
struct __Name__Error: Codable, Sendable, Equatable {
    var code: String?
    var message: String?
}
