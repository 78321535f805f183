#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `notifyDispute`: what Antom tells the merchant about a dispute (global-open-sdk `AlipayDisputeNotify`).
struct AntomDisputeNotification: Codable, Sendable, Equatable {
    var paymentRequestId: String?
    var disputeId: String?
    var paymentId: String?
    var disputeTime: String?
    var disputeAmount: AntomAmount?
    var disputeNotificationType: String?
    var disputeReasonCode: String?
    var disputeReasonMsg: String?
    var disputeSource: String?
    var defenseDueTime: String?
    var disputeJudgedTime: String?
    var disputeJudgedAmount: AntomAmount?
    var disputeJudgedResult: String?
    var disputeType: String?
    var disputeAcceptReason: String?
    var disputeAcceptTime: String?
    var captureId: String?
}

/// `payments/acceptDispute` body.
struct AntomAcceptDisputeRequest: Codable, Sendable, Equatable {
    var disputeId: String
}

/// `payments/supplyDefenseDocument` body: one document, in Base64.
struct AntomSupplyDefenseRequest: Codable, Sendable, Equatable {
    var disputeId: String
    var disputeEvidence: String
}

/// The answer of `acceptDispute` and `supplyDefenseDocument`.
struct AntomDisputeResponse: Codable, Sendable, Equatable {
    var result: AntomResult?
    var disputeId: String?
    var disputeResolutionTime: String?
}
