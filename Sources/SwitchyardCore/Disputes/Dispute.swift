import Foundation

/// A cardholder's dispute of a payment, as every provider's dispute states map onto it: its stage, a
/// status from one set (Stripe's: `warning_*` while it is an inquiry, then `needs_response`,
/// `under_review`, `won`, `lost`), the provider's own status and reason code kept beside it, the evidence
/// deadline and what was submitted, and where the disputed funds are.
public struct Dispute: Sendable, Equatable {
    /// How far the dispute has gone, in the order schemes escalate it.
    public enum Stage: String, Sendable, Codable, CaseIterable, Comparable {
        /// A retrieval or information request: no funds move yet.
        case inquiry
        /// A chargeback: the disputed amount is taken from the merchant until it is decided.
        case chargeback
        /// The merchant's defence was rejected and the issuer insists (a second chargeback).
        case preArbitration = "pre_arbitration"
        /// The scheme decides.
        case arbitration

        public static func < (lhs: Stage, rhs: Stage) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// Where the dispute stands for the merchant.
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// An inquiry waiting for the merchant's answer.
        case warningNeedsResponse = "warning_needs_response"
        /// An inquiry answered, waiting for the issuer.
        case warningUnderReview = "warning_under_review"
        /// An inquiry that ended without a chargeback.
        case warningClosed = "warning_closed"
        /// A chargeback waiting for the merchant's evidence (or acceptance).
        case needsResponse = "needs_response"
        /// Evidence submitted, waiting for the decision.
        case underReview = "under_review"
        /// Decided for the merchant (or withdrawn by the cardholder): the funds come back.
        case won
        /// Decided for the cardholder, or accepted by the merchant: the funds stay taken.
        case lost

        /// Whether nothing at the current stage moves it any more (a later stage may still reopen it).
        public var isClosed: Bool { self == .warningClosed || self == .won || self == .lost }
    }

    /// Why the cardholder disputes, in the categories every scheme's reason codes fall into.
    public enum ReasonCategory: String, Sendable, Codable, CaseIterable {
        case fraudulent
        case productNotReceived = "product_not_received"
        case productUnacceptable = "product_unacceptable"
        case duplicate
        case creditNotProcessed = "credit_not_processed"
        case subscriptionCanceled = "subscription_canceled"
        case general
        case unrecognized
    }

    /// Where the disputed amount is.
    public enum Funds: String, Sendable, Codable {
        /// Nothing was taken (an inquiry).
        case untouched
        /// Taken from the merchant while the dispute is decided (or for good, when lost).
        case withdrawn
        /// Given back after the merchant won.
        case reinstated
    }

    /// `dp_…`.
    public var id: String
    public var tenantId: UUID
    /// The provider account whose notification reported it.
    public var accountId: UUID
    /// Test or live (``Livemode``), as the account is.
    public var livemode: Bool
    /// The disputed payment; nil for a dispute whose payment Switchyard does not know (kept for review).
    public var paymentId: String?
    /// The provider's id of the dispute.
    public var providerDisputeId: String
    /// The disputed amount, in minor units of `currency`.
    public var amount: Int64
    public var currency: String
    public var stage: Stage
    public var status: Status
    /// The provider's own status, as it came.
    public var providerStatus: String?
    /// The scheme's or provider's reason code, as it came (e.g. `4853`).
    public var reasonCode: String?
    public var reason: ReasonCategory
    /// When the merchant's evidence must be in; nil when the provider gives no deadline.
    public var evidenceDueBy: Date?
    /// How many times evidence was submitted.
    public var submissionCount: Int
    public var funds: Funds
    /// Why an operator should look at it (an unknown payment, an amount over the payment's, a payment
    /// already refunded); nil when nothing is odd.
    public var review: String?
    /// Whether its funds move the payment's `amount_disputed`: the payment is known and the dispute fits it
    /// (same currency, not more than its amount). A dispute that does not is kept for review instead.
    public var countsOnPayment: Bool
    /// What Switchyard did with the merchant's last answer (accept, evidence), if any.
    public var response: DisputeResponse?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, tenantId: UUID, accountId: UUID, livemode: Bool = false,
        paymentId: String?, providerDisputeId: String, amount: Int64, currency: String, stage: Stage,
        reason: ReasonCategory = .general, reasonCode: String? = nil, evidenceDueBy: Date? = nil, createdAt: Date
    ) {
        self.id = id
        self.tenantId = tenantId
        self.accountId = accountId
        self.livemode = livemode
        self.paymentId = paymentId
        self.providerDisputeId = providerDisputeId
        self.amount = amount
        self.currency = currency
        self.stage = stage
        self.status = stage == .inquiry ? .warningNeedsResponse : .needsResponse
        self.reason = reason
        self.reasonCode = reasonCode
        self.evidenceDueBy = evidenceDueBy
        self.submissionCount = 0
        self.funds = stage == .inquiry ? .untouched : .withdrawn
        self.review = nil
        self.countsOnPayment = paymentId != nil
        self.response = nil
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    /// Whether evidence was ever submitted.
    public var hasEvidence: Bool { submissionCount > 0 }

    /// Whether it waits for the merchant's evidence (or acceptance).
    public var isWaitingForEvidence: Bool { status == .needsResponse || status == .warningNeedsResponse }

    /// Whether the evidence deadline passed at `now` while the dispute still waited for the merchant.
    public func isPastDue(at now: Date) -> Bool {
        guard let evidenceDueBy, isWaitingForEvidence else { return false }
        return evidenceDueBy <= now
    }
}
