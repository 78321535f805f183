#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Codable mirrors of Worldline Direct's JSON (API v2). Every response field is optional so that a
// partial answer still decodes; the mapping decides what is required.

/// `POST /v2/{merchantId}/sessions` body (`tokens` is omitted: no stored cards yet).
struct WorldlineSessionRequest: Codable, Sendable, Equatable {
    var tokens: [String]?
}

/// The session the client SDK needs.
struct WorldlineSessionResponse: Codable, Sendable, Equatable {
    var clientSessionId: String?
    var customerId: String?
    var clientApiUrl: String?
    var assetUrl: String?
    var invalidTokens: [String]?
}

/// An amount in minor units and its currency.
struct WorldlineAmountOfMoney: Codable, Sendable, Equatable {
    var amount: Int64?
    var currencyCode: String?
}

/// `order.references` and `operationReferences`.
struct WorldlineReferences: Codable, Sendable, Equatable {
    var merchantReference: String?
}

/// `order` of a create-payment request.
struct WorldlineOrder: Codable, Sendable, Equatable {
    var amountOfMoney: WorldlineAmountOfMoney
    var references: WorldlineReferences
}

/// `threeDSecure.redirectionData`.
struct WorldlineRedirectionData: Codable, Sendable, Equatable {
    var returnUrl: String?
}

/// `cardPaymentMethodSpecificInput.threeDSecure`.
struct WorldlineThreeDSecure: Codable, Sendable, Equatable {
    var redirectionData: WorldlineRedirectionData?
}

/// `cardPaymentMethodSpecificInput` (non-sensitive card options; the card itself is encrypted).
struct WorldlineCardInput: Codable, Sendable, Equatable {
    var authorizationMode: String
    var returnUrl: String?
    var threeDSecure: WorldlineThreeDSecure?
}

/// `feedbacks`: where Worldline sends this payment's webhooks (besides the portal's URLs).
struct WorldlineFeedbacks: Codable, Sendable, Equatable {
    var webhooksUrls: [String]
}

/// `POST /v2/{merchantId}/payments` body.
struct WorldlineCreatePaymentRequest: Codable, Sendable, Equatable {
    var encryptedCustomerInput: String
    var order: WorldlineOrder
    var cardPaymentMethodSpecificInput: WorldlineCardInput
    var feedbacks: WorldlineFeedbacks?
}

/// `merchantAction.redirectData`.
struct WorldlineRedirectData: Codable, Sendable, Equatable {
    var redirectURL: String?
}

/// What the merchant must do next (3-D Secure redirect and others).
struct WorldlineMerchantAction: Codable, Sendable, Equatable {
    var actionType: String?
    var redirectData: WorldlineRedirectData?
}

/// One entry of `errors[]`.
struct WorldlineAPIError: Codable, Sendable, Equatable {
    var errorCode: String?
    var code: String?
    var category: String?
    var httpStatusCode: Int?
    var id: String?
    var message: String?
    var propertyName: String?
    var retriable: Bool?
}

/// `statusOutput` of a payment, capture or refund.
struct WorldlineStatusOutput: Codable, Sendable, Equatable {
    var statusCode: Int?
    var statusCategory: String?
    var isAuthorized: Bool?
    var errors: [WorldlineAPIError]?
}

/// `reattemptInstructions` of a card output.
struct WorldlineReattemptInstructions: Codable, Sendable, Equatable {
    var indicator: String?
    var frozenPeriod: Int?
}

/// `paymentOutput.cardPaymentMethodSpecificOutput` (only what the mapping reads).
struct WorldlineCardOutput: Codable, Sendable, Equatable {
    var paymentProductId: Int?
    var reattemptInstructions: WorldlineReattemptInstructions?
}

/// `paymentOutput`.
struct WorldlinePaymentOutput: Codable, Sendable, Equatable {
    var amountOfMoney: WorldlineAmountOfMoney?
    var acquiredAmount: WorldlineAmountOfMoney?
    var references: WorldlineReferences?
    var cardPaymentMethodSpecificOutput: WorldlineCardOutput?
}

/// `PaymentResponse`.
struct WorldlinePayment: Codable, Sendable, Equatable {
    var id: String?
    var status: String?
    var statusOutput: WorldlineStatusOutput?
    var paymentOutput: WorldlinePaymentOutput?
}

/// `CreatePaymentResponse`, also the `paymentResult` of a declined payment.
struct WorldlineCreatePaymentResponse: Codable, Sendable, Equatable {
    var merchantAction: WorldlineMerchantAction?
    var payment: WorldlinePayment?
}

/// `POST …/capture` body.
struct WorldlineCaptureRequest: Codable, Sendable, Equatable {
    var amount: Int64
    var isFinal: Bool
}

/// `captureOutput`.
struct WorldlineCaptureOutput: Codable, Sendable, Equatable {
    var amountOfMoney: WorldlineAmountOfMoney?
}

/// `CaptureResponse`.
struct WorldlineCaptureResponse: Codable, Sendable, Equatable {
    var id: String?
    var status: String?
    var statusOutput: WorldlineStatusOutput?
    var captureOutput: WorldlineCaptureOutput?
}

/// `POST …/cancel` body (empty: cancel the whole authorisation).
struct WorldlineCancelRequest: Codable, Sendable, Equatable {}

/// `CancelPaymentResponse`.
struct WorldlineCancelResponse: Codable, Sendable, Equatable {
    var payment: WorldlinePayment?
}

/// `POST …/refund` body.
struct WorldlineRefundRequest: Codable, Sendable, Equatable {
    var amountOfMoney: WorldlineAmountOfMoney
}

/// `refundOutput`.
struct WorldlineRefundOutput: Codable, Sendable, Equatable {
    var amountOfMoney: WorldlineAmountOfMoney?
}

/// `RefundResponse`, also the `refundResult` of a refused refund.
struct WorldlineRefundResponse: Codable, Sendable, Equatable {
    var id: String?
    var status: String?
    var statusOutput: WorldlineStatusOutput?
    var refundOutput: WorldlineRefundOutput?
}

/// Error bodies: `ErrorResponse`, `PaymentErrorResponse` and `RefundErrorResponse` in one shape.
struct WorldlineErrorResponse: Codable, Sendable, Equatable {
    var errorId: String?
    var errors: [WorldlineAPIError]?
    var paymentResult: WorldlineCreatePaymentResponse?
    var refundResult: WorldlineRefundResponse?
}

/// A webhook event body.
struct WorldlineWebhookEvent: Codable, Sendable, Equatable {
    var apiVersion: String?
    var id: String?
    var created: String?
    var merchantId: String?
    var type: String?
    var payment: WorldlinePayment?
    var refund: WorldlineRefundResponse?
}
