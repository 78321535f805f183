import Foundation
import SwitchyardCrypto

/// A dispute the Antom emulator opened on a paid payment.
public struct AntomDispute: Sendable, Codable, Equatable {
    public var disputeId: String
    public var paymentId: String
    public var paymentRequestId: String
    public var clientId: String
    public var amount: Int64
    public var currency: String
    /// `CHARGEBACK`, `RETRIEVAL_REQUEST` or `COMPLIANCE_REQUEST`.
    public var disputeType: String
    public var reasonCode: String
    public var defenseDueTime: Date
    public var notifyURL: String?
    /// `OPEN`, `ACCEPTED`, `DEFENDED`, `CANCELLED` or `JUDGED`.
    public var status: String
    public var judgedResult: String?
    public var acceptReason: String?
    /// How many defence documents were supplied.
    public var documents: Int
}

extension AntomState {
    /// The types of notifyDispute the admin route may send by hand.
    static let disputeNotificationTypes: Set<String> = [
        "DISPUTE_CREATED", "DEFENSE_DUE_ALERT", "DISPUTE_CANCELLED", "DISPUTE_JUDGED", "DEFENSE_SUPPLIED",
        "DISPUTE_ACCEPTED", "RDR_RESOLVED",
    ]

    /// Opens a dispute of the paid payment `paymentId` (its notifyDispute `DISPUTE_CREATED` is the event).
    func openDispute(
        paymentId: String, type: String, reasonCode: String, dueIn: TimeInterval, amount: Int64?
    ) throws(AntomSandboxError) -> (AntomDispute, AntomEvent) {
        guard let payment = payments[paymentId] else { throw .paymentNotFound }
        guard payment.status == .success else { throw .notDisputable }
        guard ["CHARGEBACK", "RETRIEVAL_REQUEST", "COMPLIANCE_REQUEST"].contains(type) else {
            throw .disputeInput("type must be CHARGEBACK, RETRIEVAL_REQUEST or COMPLIANCE_REQUEST")
        }
        let dispute = AntomDispute(
            disputeId: "2025"
                + String(SecureRandom.token(bytes: 8).filter(\.isNumber).prefix(12)).padding(
                    toLength: 12, withPad: "7", startingAt: 0),
            paymentId: payment.paymentId, paymentRequestId: payment.paymentRequestId, clientId: payment.clientId,
            amount: amount ?? payment.capturedAmount, currency: payment.currency, disputeType: type,
            reasonCode: reasonCode, defenseDueTime: clock().addingTimeInterval(dueIn), notifyURL: payment.notifyURL,
            status: "OPEN", judgedResult: nil, acceptReason: nil, documents: 0)
        disputes[dispute.disputeId] = dispute
        return (dispute, .dispute(dispute, type: "DISPUTE_CREATED"))
    }

    /// Moves the dispute as a notification of `type` says (a judgement with `judgedResult`) and returns the
    /// notification to send.
    func moveDispute(id: String, type: String, judgedResult: String?) throws(AntomSandboxError) -> AntomEvent {
        guard var dispute = disputes[id] else { throw .disputeNotFound }
        guard Self.disputeNotificationTypes.contains(type) else {
            throw .disputeInput("type must be one of \(Self.disputeNotificationTypes.sorted().joined(separator: ", "))")
        }
        switch type {
        case "DISPUTE_CANCELLED": dispute.status = "CANCELLED"
        case "DISPUTE_JUDGED":
            guard let judgedResult,
                ["ACCEPT_BY_CUSTOMER", "ACCEPT_BY_MERCHANT", "VALIDATE_SUCCESS", "VALIDATE_FAIL"]
                    .contains(judgedResult)
            else {
                throw .disputeInput(
                    "judgedResult must be ACCEPT_BY_CUSTOMER, ACCEPT_BY_MERCHANT, VALIDATE_SUCCESS or VALIDATE_FAIL")
            }
            dispute.status = "JUDGED"
            dispute.judgedResult = judgedResult
        case "DISPUTE_ACCEPTED", "RDR_RESOLVED":
            dispute.status = "ACCEPTED"
            dispute.acceptReason = dispute.acceptReason ?? "MANUAL_PROCESSING_ACCEPTED"
        default: break
        }
        disputes[id] = dispute
        return .dispute(dispute, type: type)
    }

    /// `payments/acceptDispute`: `SUCCESS` with `DISPUTE_ACCEPTED` to follow; `REPEAT_REQUEST` once accepted,
    /// `TIME_EXCEEDS_LIMIT` past the defence deadline, `NOT_ALLOWED_IN_CURRENT_STATUS` once decided.
    func acceptDispute(clientId: String, disputeId: String) -> AntomReply {
        guard var dispute = disputes[disputeId], dispute.clientId == clientId else {
            return AntomReply(result: .paramIllegal("unknown disputeId"))
        }
        if dispute.status == "ACCEPTED" { return AntomReply(result: .repeatRequest) }
        guard dispute.status == "OPEN" else { return AntomReply(result: .notAllowedInCurrentStatus) }
        guard clock() <= dispute.defenseDueTime else { return AntomReply(result: .timeExceedsLimit) }
        dispute.status = "ACCEPTED"
        dispute.acceptReason = "MERCHANT_ACCEPTED"
        disputes[disputeId] = dispute
        return AntomReply(
            AntomDisputeAnswer(
                result: .success, disputeId: disputeId, disputeResolutionTime: AntomTime.format(clock())),
            events: [.dispute(dispute, type: "DISPUTE_ACCEPTED")])
    }

    /// `payments/supplyDefenseDocument`: `SUCCESS` with `DEFENSE_SUPPLIED` to follow; `PARAM_ILLEGAL` for a
    /// document over 1,000,000 characters or not Base64, `TIME_EXCEEDS_LIMIT` past the deadline.
    func supplyDefense(clientId: String, disputeId: String, evidence: String) -> AntomReply {
        guard var dispute = disputes[disputeId], dispute.clientId == clientId else {
            return AntomReply(result: .paramIllegal("unknown disputeId"))
        }
        guard evidence.count <= 1_000_000, Data(base64Encoded: evidence) != nil else {
            return AntomReply(result: .paramIllegal("disputeEvidence must be Base64 of at most 1,000,000 characters"))
        }
        guard dispute.status == "OPEN" || dispute.status == "DEFENDED" else {
            return AntomReply(result: .notAllowedInCurrentStatus)
        }
        guard clock() <= dispute.defenseDueTime else { return AntomReply(result: .timeExceedsLimit) }
        dispute.status = "DEFENDED"
        dispute.documents += 1
        disputes[disputeId] = dispute
        return AntomReply(
            AntomDisputeAnswer(
                result: .success, disputeId: disputeId, disputeResolutionTime: AntomTime.format(clock())),
            events: [.dispute(dispute, type: "DEFENSE_SUPPLIED")])
    }
}

/// The answer of `acceptDispute` and `supplyDefenseDocument`.
struct AntomDisputeAnswer: Encodable {
    var result: AntomResult
    var disputeId: String
    var disputeResolutionTime: String
}

/// notifyDispute's body.
struct AntomDisputeNotify: Encodable {
    var paymentRequestId: String
    var disputeId: String
    var paymentId: String
    var disputeTime: String
    var disputeAmount: AntomMoney
    var disputeNotificationType: String
    var disputeReasonCode: String
    var disputeType: String
    var defenseDueTime: String
    var disputeJudgedResult: String?
    var disputeAcceptReason: String?
    var defendable: Bool
}
