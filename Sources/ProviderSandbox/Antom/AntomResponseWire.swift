import Foundation

// Answer and notification wire types of the Antom emulator. Nil fields are left out of the JSON.

struct AntomMoney: Codable, Sendable, Equatable {
    var currency: String
    var value: String

    init(_ amount: Int64, _ currency: String) {
        self.currency = currency
        self.value = String(amount)
    }
}

struct AntomResultOnly: Encodable {
    var result: AntomResult
}

struct AntomSessionResponse: Encodable {
    var result: AntomResult
    var paymentSessionData: String?
    var paymentSessionId: String?
    var paymentSessionExpiryTime: String?
    var normalUrl: String?
}

struct AntomPayResponse: Encodable {
    var result: AntomResult
    var paymentId: String?
    var paymentRequestId: String?
    var paymentAmount: AntomMoney?
    var paymentCreateTime: String?
    var paymentTime: String?
}

struct AntomTransactionWire: Encodable {
    var transactionResult: AntomResult
    var transactionType: String
    var transactionStatus: String
    var transactionRequestId: String?
    var transactionId: String
    var transactionAmount: AntomMoney
    var transactionTime: String
}

struct AntomInquiryResponse: Encodable {
    var result: AntomResult
    var paymentStatus: String
    var paymentResultCode: String
    var paymentResultMessage: String
    var paymentId: String
    var paymentRequestId: String
    var paymentAmount: AntomMoney
    var paymentMethodType: String
    var paymentCreateTime: String
    var paymentTime: String?
    var transactions: [AntomTransactionWire]?
}

struct AntomCancelResponse: Encodable {
    var result: AntomResult
    var paymentId: String
    var paymentRequestId: String
    var cancelTime: String
}

struct AntomRefundResponse: Encodable {
    var result: AntomResult
    var refundRequestId: String
    var refundId: String?
    var paymentId: String
    var refundAmount: AntomMoney?
    var refundTime: String?
}

struct AntomRefundInquiryResponse: Encodable {
    var result: AntomResult
    var refundStatus: String
    var refundId: String
    var refundRequestId: String
    var refundAmount: AntomMoney
    var refundTime: String
}

struct AntomCaptureResponse: Encodable {
    var result: AntomResult
    var captureRequestId: String
    var captureId: String?
    var paymentId: String
    var captureAmount: AntomMoney?
    var captureTime: String?
}

struct AntomVaultingSessionResponse: Encodable {
    var result: AntomResult
    var vaultingSessionData: String
    var vaultingSessionId: String
    var vaultingSessionExpiryTime: String
    var normalUrl: String
}

struct AntomCardDetail: Encodable, Sendable {
    var cardToken: String
    var maskedCardNo: String
    var brand: String
    var expiryYear: String
    var expiryMonth: String
    var lastFour: String
    var bin: String
    var fingerprint: String
}

struct AntomPaymentMethodDetail: Encodable, Sendable {
    var paymentMethodType = "CARD"
    var card: AntomCardDetail
}

struct AntomVaultingInquiryResponse: Encodable {
    var result: AntomResult
    var vaultingRequestId: String
    var vaultingStatus: String
    var vaultingResultCode: String
    var vaultingResultMessage: String
    var paymentMethodDetail: AntomPaymentMethodDetail?
    var normalUrl: String?
}

// MARK: Notifications

struct AntomPaymentNotify: Encodable {
    var notifyType: String
    var result: AntomResult
    var paymentRequestId: String
    var paymentId: String
    var paymentAmount: AntomMoney
    var paymentMethodType: String
    var paymentCreateTime: String
    var paymentTime: String?
}

struct AntomAuthorizationNotify: Encodable {
    var authorizationNotifyType: String
    var authClientId: String
    var accessToken: String
    var authState: String
    var userLoginId: String?
    var reason: String?
    var result: AntomResult
}

struct AntomVaultingNotify: Encodable {
    var notifyType = "VAULTING_RESULT"
    var vaultingRequestId: String
    var result: AntomResult
    var paymentMethodDetail: AntomPaymentMethodDetail?
    var vaultingCreateTime: String
}

struct AntomCaptureNotify: Encodable {
    var notifyType = "CAPTURE_RESULT"
    var captureRequestId: String
    var captureId: String
    var paymentId: String
    var captureAmount: AntomMoney
    var captureTime: String
    var result: AntomResult
}

struct AntomRefundNotify: Encodable {
    var notifyType = "REFUND_RESULT"
    var refundRequestId: String
    var refundId: String
    var paymentId: String
    var refundStatus: String
    var refundAmount: AntomMoney
    var refundTime: String
    var result: AntomResult
}

/// JSON encoding of everything the emulator sends: sorted keys, slashes unescaped.
enum AntomJSON {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func encode(_ value: some Encodable) -> [UInt8] {
        guard let data = try? encoder.encode(value) else { return encodingFailure }
        return Array(data)
    }

    /// What is answered if an answer cannot be encoded (never expected).
    private static let encodingFailure = Array(
        #"{"result":{"resultCode":"UNKNOWN_EXCEPTION","resultStatus":"U","resultMessage":"encoding failed"}}"#.utf8)
}
