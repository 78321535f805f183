#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `payments/createPaymentSession` body (EasySafePay first payment).
struct AntomCreatePaymentSessionRequest: Codable, Sendable, Equatable {
    var productCode: String
    var productScene: String
    var paymentRequestId: String
    var paymentAmount: AntomAmount
    var paymentMethod: AntomPaymentMethod
    var order: AntomOrder
    var env: AntomEnv
    var settlementStrategy: AntomSettlementStrategy
    var paymentNotifyUrl: String
    var paymentRedirectUrl: String
    var agreementInfo: AntomAgreementInfo?
    var paymentSessionExpiryTime: String
    var merchantRegion: String?
}

/// `payments/createPaymentSession` answer: what the app's AMSEasyPay SDK needs.
struct AntomCreatePaymentSessionResponse: Codable, Sendable, Equatable {
    var result: AntomResult?
    var paymentSessionData: String?
    var paymentSessionId: String?
    var paymentSessionExpiryTime: String?
    var normalUrl: String?
}

/// `payments/pay` body (EasySafePay agreement payment or stored card payment).
struct AntomPayRequest: Codable, Sendable, Equatable {
    var productCode: String
    var paymentRequestId: String
    var paymentAmount: AntomAmount
    var paymentMethod: AntomPaymentMethod
    var paymentFactor: AntomPaymentFactor?
    var order: AntomOrder
    var env: AntomEnv
    var settlementStrategy: AntomSettlementStrategy
    var paymentNotifyUrl: String
    var paymentRedirectUrl: String
    var merchantRegion: String?
}

/// `payments/pay` answer.
struct AntomPayResponse: Codable, Sendable, Equatable {
    var result: AntomResult?
    var paymentId: String?
    var paymentRequestId: String?
    var paymentAmount: AntomAmount?
    var paymentCreateTime: String?
    var paymentTime: String?
    var normalUrl: String?
}

/// `payments/inquiryPayment` body.
struct AntomInquiryPaymentRequest: Codable, Sendable, Equatable {
    var paymentRequestId: String?
    var paymentId: String?
}

/// `payments/inquiryPayment` answer; `result` only says whether the inquiry worked.
struct AntomInquiryPaymentResponse: Codable, Sendable, Equatable {
    var result: AntomResult?
    var paymentStatus: String?
    var paymentResultCode: String?
    var paymentResultMessage: String?
    var paymentId: String?
    var paymentRequestId: String?
    var paymentAmount: AntomAmount?
    var paymentTime: String?
    var transactions: [AntomTransaction]?
}

/// `payments/cancel` body: by Antom's payment id, or by our request id.
struct AntomCancelRequest: Codable, Sendable, Equatable {
    var paymentId: String?
    var paymentRequestId: String?
}

/// `payments/cancel` answer.
struct AntomCancelResponse: Codable, Sendable, Equatable {
    var result: AntomResult?
    var paymentId: String?
    var paymentRequestId: String?
    var cancelTime: String?
}

/// `payments/refund` body.
struct AntomRefundRequest: Codable, Sendable, Equatable {
    var refundRequestId: String
    var paymentId: String
    var refundAmount: AntomAmount
    var refundReason: String?
}

/// `payments/refund` answer.
struct AntomRefundResponse: Codable, Sendable, Equatable {
    var result: AntomResult?
    var refundRequestId: String?
    var refundId: String?
    var paymentId: String?
    var refundAmount: AntomAmount?
    var refundTime: String?
}

/// `payments/inquiryRefund` body.
struct AntomInquiryRefundRequest: Codable, Sendable, Equatable {
    var refundRequestId: String?
    var refundId: String?
}

/// `payments/inquiryRefund` answer.
struct AntomInquiryRefundResponse: Codable, Sendable, Equatable {
    var result: AntomResult?
    var refundStatus: String?
    var refundId: String?
    var refundRequestId: String?
    var refundAmount: AntomAmount?
    var refundTime: String?
}

/// `payments/capture` body.
struct AntomCaptureRequest: Codable, Sendable, Equatable {
    var captureRequestId: String
    var paymentId: String
    var captureAmount: AntomAmount
    var isLastCapture: Bool?
}

/// `payments/capture` answer.
struct AntomCaptureResponse: Codable, Sendable, Equatable {
    var result: AntomResult?
    var captureRequestId: String?
    var captureId: String?
    var paymentId: String?
    var captureAmount: AntomAmount?
    var captureTime: String?
}
