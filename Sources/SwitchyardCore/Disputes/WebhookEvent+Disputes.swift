import Foundation

extension WebhookEvent {
    /// The event `type` (a ``WebhookEventType/disputeTypes`` name) announcing `dispute` as it now is.
    public static func dispute(_ type: String, _ dispute: Dispute, id: String, at now: Date) throws -> WebhookEvent {
        try make(
            id: id, tenant: dispute.tenantId, type: type, objectId: dispute.id, object: DisputeSnapshot(dispute),
            livemode: dispute.livemode, at: now)
    }
}

/// What a dispute event and the merchant API carry: the dispute, never the provider's credentials.
public struct DisputeSnapshot: Encodable, Sendable, Equatable {
    /// `evidence_details`: the deadline and what was submitted.
    public struct EvidenceDetails: Encodable, Sendable, Equatable {
        public var dueBy: Date?
        public var hasEvidence: Bool
        public var pastDue: Bool
        public var submissionCount: Int

        enum CodingKeys: String, CodingKey {
            case dueBy = "due_by"
            case hasEvidence = "has_evidence"
            case pastDue = "past_due"
            case submissionCount = "submission_count"
        }
    }

    public var id: String
    public var object = "dispute"
    public var payment: String?
    public var amount: Int64
    public var currency: String
    public var stage: String
    public var status: String
    public var providerStatus: String?
    public var reason: String
    public var reasonCode: String?
    public var evidenceDetails: EvidenceDetails
    public var funds: String
    public var providerAccount: String
    public var review: String?
    public var response: DisputeResponse?
    public var livemode: Bool
    public var createdAt: Date
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, object, payment, amount, currency, stage, status, reason, funds, review, livemode, response
        case providerStatus = "provider_status"
        case reasonCode = "reason_code"
        case evidenceDetails = "evidence_details"
        case providerAccount = "provider_account"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// The dispute as shown; `now` decides `past_due` (the dispute's last change when not given).
    public init(_ d: Dispute, now: Date? = nil) {
        id = d.id
        payment = d.paymentId
        amount = d.amount
        currency = d.currency
        stage = d.stage.rawValue
        status = d.status.rawValue
        providerStatus = d.providerStatus
        reason = d.reason.rawValue
        reasonCode = d.reasonCode
        evidenceDetails = EvidenceDetails(
            dueBy: d.evidenceDueBy, hasEvidence: d.hasEvidence, pastDue: d.isPastDue(at: now ?? d.updatedAt),
            submissionCount: d.submissionCount)
        funds = d.funds.rawValue
        providerAccount = d.accountId.uuidString.lowercased()
        review = d.review
        response = d.response
        livemode = d.livemode
        createdAt = d.createdAt
        updatedAt = d.updatedAt
    }
}
