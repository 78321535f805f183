#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a provider's notification says about a dispute (a retrieval request, a chargeback and what
/// follows), mapped by the plugin onto one ``Kind``. The host keeps one dispute per provider dispute id
/// and account, and applies the events in the order they arrive; a repeated or overtaken event changes
/// nothing there.
public struct DisputeEvent: Codable, Sendable, Equatable {
    /// What happened to the dispute.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// The dispute was reported at ``DisputeEvent/stage``: created, or escalated to a later stage.
        case opened
        /// The provider asks for the merchant's evidence (or reminds of it) by ``DisputeEvent/evidenceDueBy``.
        case evidenceRequested = "evidence_requested"
        /// Evidence reached the provider.
        case evidenceSubmitted = "evidence_submitted"
        /// The merchant accepted the dispute (it is not defended).
        case accepted
        /// The cardholder withdrew the dispute.
        case withdrawn
        /// Decided for the merchant.
        case won
        /// Decided for the cardholder.
        case lost
        /// The provider closed the case without saying how it was decided.
        case closed
    }

    /// How far the dispute has gone.
    public enum Stage: String, Codable, Sendable, CaseIterable {
        /// A retrieval or information request: no funds move yet.
        case inquiry
        /// A chargeback: the provider takes the disputed amount.
        case chargeback
        /// A second chargeback after the defence was rejected.
        case preArbitration = "pre_arbitration"
        /// The scheme decides.
        case arbitration
    }

    public var kind: Kind
    /// The provider's id of the dispute (the same in every notification about it).
    public var providerDisputeId: String
    /// Our reference the provider echoed (the attempt id), when it did.
    public var reference: String?
    /// The provider's id of the disputed payment.
    public var providerPaymentId: String?
    /// The stage the event reports; nil when the event does not say (a decision, a reminder).
    public var stage: Stage?
    /// The provider's own status or event name, as it came (e.g. `Notification of Claim`).
    public var providerStatus: String
    /// The disputed amount in minor units of ``currency``, when the notification carries it.
    public var amount: Int64?
    public var currency: String?
    /// The scheme's or provider's reason code, as it came.
    public var reasonCode: String?
    /// The reason in the host's categories (`fraudulent`, `product_not_received`, `product_unacceptable`,
    /// `duplicate`, `credit_not_processed`, `subscription_canceled`, `general`, `unrecognized`); nil: general.
    public var reason: String?
    /// When the merchant's evidence is due, if the provider says.
    public var evidenceDueBy: Date?

    public init(
        kind: Kind, providerDisputeId: String, reference: String? = nil, providerPaymentId: String? = nil,
        stage: Stage? = nil, providerStatus: String, amount: Int64? = nil, currency: String? = nil,
        reasonCode: String? = nil, reason: String? = nil, evidenceDueBy: Date? = nil
    ) {
        self.kind = kind
        self.providerDisputeId = providerDisputeId
        self.reference = reference
        self.providerPaymentId = providerPaymentId
        self.stage = stage
        self.providerStatus = providerStatus
        self.amount = amount
        self.currency = currency
        self.reasonCode = reasonCode
        self.reason = reason
        self.evidenceDueBy = evidenceDueBy
    }
}
