#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Every notification Antom sends, in one shape: notifyPayment, notifyCapture, notifyRefund (`notifyType`),
/// notifyVaulting (`notifyType: VAULTING_RESULT`) and notifyAuthorization (`authorizationNotifyType`).
struct AntomNotification: Codable, Sendable, Equatable {
    var notifyType: String?
    var authorizationNotifyType: String?
    var result: AntomResult?
    var paymentRequestId: String?
    var paymentId: String?
    var paymentAmount: AntomAmount?
    var paymentCreateTime: String?
    var paymentTime: String?
    var paymentMethodType: String?
    var captureRequestId: String?
    var captureId: String?
    var captureAmount: AntomAmount?
    var captureTime: String?
    var refundRequestId: String?
    var refundId: String?
    var refundStatus: String?
    var refundAmount: AntomAmount?
    var refundTime: String?
    var accessToken: String?
    var authState: String?
    var userLoginId: String?
    var reason: String?
    var vaultingRequestId: String?
    var paymentMethodDetail: AntomPaymentMethodDetail?
    var vaultingCreateTime: String?
}
