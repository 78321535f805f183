import Foundation

// Wire types of the Worldline Direct emulator, written from the protocol notes (never shared with a plugin).

struct WDAmountOfMoney: Codable, Sendable {
    var amount: Int64?
    var currencyCode: String?
}

struct WDSessionRequest: Decodable {
    var tokens: [String]?
}

struct WDSessionResponse: Encodable {
    var clientSessionId: String
    var customerId: String
    var clientApiUrl: String
    var assetUrl: String
    var invalidTokens: [String]
}

struct WDCard: Decodable {
    var cardNumber: String?
    var cardholderName: String?
    var cvv: String?
    var expiryDate: String?
}

struct WDCreatePaymentRequest: Decodable {
    struct CardInput: Decodable {
        struct ThreeDSecure: Decodable {
            struct RedirectionData: Decodable { var returnUrl: String? }
            var redirectionData: RedirectionData?
        }
        var authorizationMode: String?
        var card: WDCard?
        var paymentProductId: Int?
        var returnUrl: String?
        var threeDSecure: ThreeDSecure?
    }
    struct Order: Decodable {
        struct References: Decodable { var merchantReference: String? }
        var amountOfMoney: WDAmountOfMoney?
        var references: References?
    }
    /// The SDK sends `webhookUrl` and `webhooksUrls`; `webhookUrls` is accepted too.
    struct Feedbacks: Decodable {
        var webhookUrl: String?
        var webhooksUrls: [String]?
        var webhookUrls: [String]?

        var first: String? { webhooksUrls?.first ?? webhookUrls?.first ?? webhookUrl }
    }

    var cardPaymentMethodSpecificInput: CardInput?
    var encryptedCustomerInput: String?
    var order: Order?
    var feedbacks: Feedbacks?
}

struct WDOperationReferences: Codable, Sendable {
    var merchantReference: String?
}

struct WDCaptureRequest: Decodable {
    var amount: Int64?
    var isFinal: Bool?
    var operationReferences: WDOperationReferences?
}

struct WDCancelRequest: Decodable {
    var amountOfMoney: WDAmountOfMoney?
    var isFinal: Bool?
}

struct WDRefundRequest: Decodable {
    var amountOfMoney: WDAmountOfMoney?
    var operationReferences: WDOperationReferences?
    var reason: String?
}

struct WDStatusOutput: Encodable {
    var statusCode: Int
    var statusCategory: String
    var isAuthorized: Bool?
    var isCancellable: Bool?
    var isRefundable: Bool?
    var errors: [WDAPIError]?
    var statusCodeChangeDateTime: String?
}

struct WDCardOutput: Encodable {
    struct Card: Encodable {
        var cardNumber: String
        var expiryDate: String
        var bin: String
        var cardholderName: String?
    }
    var paymentProductId: Int
    var authorisationCode: String?
    var card: Card
}

struct WDPaymentOutput: Encodable {
    struct References: Encodable { var merchantReference: String? }
    var amountOfMoney: WDAmountOfMoney
    var acquiredAmount: WDAmountOfMoney
    var references: References
    var paymentMethod: String
    var cardPaymentMethodSpecificOutput: WDCardOutput
}

struct WDOperationOutput: Encodable {
    var id: String
    var type: String
    var amountOfMoney: WDAmountOfMoney
    var operationReferences: WDOperationReferences?
}

struct WDPaymentResponse: Encodable {
    var id: String
    var status: String
    var statusOutput: WDStatusOutput
    var paymentOutput: WDPaymentOutput
    /// Only in `GET /payments/{id}/details`, where the member is spelled `Operations`.
    var operations: [WDOperationOutput]?

    enum CodingKeys: String, CodingKey {
        case id, status, statusOutput, paymentOutput
        case operations = "Operations"
    }
}

struct WDMerchantAction: Encodable {
    struct RedirectData: Encodable {
        var redirectURL: String
        var RETURNMAC: String
    }
    var actionType: String
    var redirectData: RedirectData?
}

struct WDCreatePaymentResponse: Encodable {
    struct CreationOutput: Encodable {
        var externalReference: String?
        var isNewToken: Bool
        var tokenizationSucceeded: Bool
    }
    var creationOutput: CreationOutput
    var merchantAction: WDMerchantAction?
    var payment: WDPaymentResponse
}

struct WDCaptureResponse: Encodable {
    struct CaptureOutput: Encodable {
        var amountOfMoney: WDAmountOfMoney
        var acquiredAmount: WDAmountOfMoney
        var operationReferences: WDOperationReferences?
        var paymentMethod: String
    }
    var id: String
    var status: String
    var statusOutput: WDStatusOutput
    var captureOutput: CaptureOutput
}

struct WDCancelResponse: Encodable {
    var payment: WDPaymentResponse
}

struct WDRefundResponse: Encodable {
    struct RefundOutput: Encodable {
        var amountOfMoney: WDAmountOfMoney
        var amountPaid: Int64
        var operationReferences: WDOperationReferences?
        var paymentMethod: String
    }
    var id: String
    var status: String
    var statusOutput: WDStatusOutput
    var refundOutput: RefundOutput
}

struct WDAPIError: Encodable {
    var errorCode: String
    var code: String
    var category: String
    var httpStatusCode: Int
    var id: String
    var message: String
    var propertyName: String?
    var retriable: Bool

    init(_ error: WorldlineDirectSandboxError) {
        errorCode = error.errorCode
        code = error.errorCode
        category = error.category
        httpStatusCode = error.httpStatus
        id = error.id
        message = error.message
        propertyName = error.propertyName
        retriable = error.retriable
    }
}

struct WDErrorResponse: Encodable {
    var errorId: String
    var errors: [WDAPIError]
    /// Present on declined payments (`PaymentErrorResponse`).
    var paymentResult: WDCreatePaymentResponse?
}

struct WDPublicKeyResponse: Encodable {
    var keyId: String
    var publicKey: String
}

struct WDEncryptedPayload: Decodable {
    struct Value: Decodable {
        var key: String
        var value: String
    }
    var clientSessionId: String?
    var nonce: String?
    var paymentProductId: Int?
    var paymentValues: [Value]?
}

struct WDWebhookEvent<Object: Encodable>: Encodable {
    var apiVersion = "v1"
    var id: String
    var created: String
    var merchantId: String
    var type: String
    var payment: Object?
    var refund: Object?
}
