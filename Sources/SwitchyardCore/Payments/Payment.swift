import Foundation
import ProviderKit

/// Where a payment stands.
public enum PaymentStatus: String, Codable, Sendable, CaseIterable {
    /// An attempt is in flight.
    case processing
    /// Waiting for the customer's app (see `next_action`) or the provider.
    case requiresAction = "requires_action"
    /// Authorised; waiting for a capture.
    case authorized
    /// Money captured.
    case succeeded
    /// Definitively refused, or never reached any provider.
    case failed
    /// Cancelled before capture.
    case canceled
    /// The provider's answer is not known; resolved by sync, never by charging again.
    case unknown

    /// Whether no further provider outcome can change the status (refunds aside).
    public var isFinal: Bool {
        switch self {
        case .succeeded, .failed, .canceled: return true
        case .processing, .requiresAction, .authorized, .unknown: return false
        }
    }
}

/// A payment: the merchant's request and what became of it.
public struct Payment: Codable, Sendable, Equatable {
    public var id: String
    public var tenantId: UUID
    public var amount: Int64
    public var currency: String
    public var country: String
    public var method: String
    /// The merchant's order reference.
    public var reference: String
    public var captureMode: CaptureMode
    public var customerId: String?
    public var returnURL: String?
    public var paymentData: [String: JSONValue]
    public var status: PaymentStatus
    public var amountCaptured: Int64
    public var amountRefunded: Int64
    /// What disputes took from the merchant and still hold (withdrawn, not reinstated), in minor units.
    public var amountDisputed: Int64
    public var nextAction: NextAction?
    /// The account of the current (last) attempt.
    public var providerAccountId: UUID?
    public var failureCode: String?
    public var failureMessage: String?
    public var routing: RoutingDecision?
    /// The stored credential the payment was made with (`pm_…`), if any.
    public var paymentMethodId: String?
    /// The credential this payment asked the provider to set up for later payments (`pm_…`), if any.
    public var savedPaymentMethodId: String?
    /// How an unknown outcome is being resolved (nil when the outcome is known).
    public var resolution: Resolution?
    /// The merchant's key-value pairs, set at the create (``Metadata``).
    public var metadata: Metadata = .empty
    /// The merchant's free-text description (`description` in the API), set at the create.
    public var merchantDescription: String?
    /// Whether the payment moves real money: the mode of the key that created it, and of every account it
    /// was routed to.
    public var livemode: Bool = false
    public var createdAt: Date
    public var updatedAt: Date

    /// The janitor's bookkeeping for a payment whose outcome is unknown.
    public struct Resolution: Codable, Sendable, Equatable {
        /// When the payment became unknown.
        public var since: Date
        /// Syncs the janitor has made so far.
        public var syncs: Int
        /// When the next sync is due (nil: the first delay after ``since``).
        public var nextSyncAt: Date?
        /// Set when the horizon passed without an answer: a person must look at it.
        public var reviewRequired: Bool

        public init(since: Date, syncs: Int = 0, nextSyncAt: Date? = nil, reviewRequired: Bool = false) {
            self.since = since
            self.syncs = syncs
            self.nextSyncAt = nextSyncAt
            self.reviewRequired = reviewRequired
        }
    }

    public init(
        id: String, tenantId: UUID, amount: Int64, currency: String, country: String, method: String,
        reference: String, captureMode: CaptureMode, customerId: String?, returnURL: String?,
        paymentData: [String: JSONValue], status: PaymentStatus, createdAt: Date
    ) {
        self.id = id
        self.tenantId = tenantId
        self.amount = amount
        self.currency = currency
        self.country = country
        self.method = method
        self.reference = reference
        self.captureMode = captureMode
        self.customerId = customerId
        self.returnURL = returnURL
        self.paymentData = paymentData
        self.status = status
        self.amountCaptured = 0
        self.amountRefunded = 0
        self.amountDisputed = 0
        self.nextAction = nil
        self.providerAccountId = nil
        self.failureCode = nil
        self.failureMessage = nil
        self.routing = nil
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    /// What routing looks at.
    public var description: PaymentDescription {
        PaymentDescription(amount: amount, currency: currency, country: country, method: method)
    }
}

/// One try of a payment at one provider account.
public struct Attempt: Codable, Sendable, Equatable {
    public var id: String
    public var paymentId: String
    public var tenantId: UUID
    public var accountId: UUID
    public var pluginId: String
    /// 1 for the first attempt of a payment, 2 for the next…
    public var sequence: Int
    /// The outcome class, once known.
    public var outcome: Outcome.Kind?
    public var providerPaymentId: String?
    public var providerStatus: String?
    public var code: String?
    public var message: String?
    /// Why this account was chosen.
    public var reason: String
    public var startedAt: Date
    public var finishedAt: Date?

    public init(
        id: String, paymentId: String, tenantId: UUID, accountId: UUID, pluginId: String, sequence: Int,
        reason: String, startedAt: Date
    ) {
        self.id = id
        self.paymentId = paymentId
        self.tenantId = tenantId
        self.accountId = accountId
        self.pluginId = pluginId
        self.sequence = sequence
        self.reason = reason
        self.startedAt = startedAt
    }

    /// Learns the provider's later answer about the attempt (an inquiry or a notification): an attempt whose
    /// outcome is still open (none, `pending` or `unknown`) takes the answer's class, so a definite answer
    /// counts in the routing statistics, with the provider's code and message when the answer has them (a
    /// decline learnt from a notification names its reason); a known outcome stays. `unknown`, `notSent` and
    /// an expired authorisation say nothing new about the attempt.
    public mutating func learn(_ answer: Outcome) {
        guard answer.kind != .unknown, answer.kind != .notSent, answer.kind != .authExpired else { return }
        providerStatus = answer.providerStatus ?? providerStatus
        guard outcome == nil || outcome == .pending || outcome == .unknown else { return }
        outcome = answer.kind
        providerPaymentId = providerPaymentId ?? answer.providerPaymentId
        if answer.code != nil || answer.message != nil { (code, message) = (answer.code, answer.message) }
    }

    /// Records a provider outcome on the attempt.
    public mutating func record(_ outcome: Outcome, at time: Date) {
        self.outcome = outcome.kind
        if let id = outcome.providerPaymentId { providerPaymentId = id }
        providerStatus = outcome.providerStatus ?? providerStatus
        code = outcome.code
        message = outcome.message
        finishedAt = time
    }
}

/// A refund of (part of) a captured payment.
public struct Refund: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case pending
        case succeeded
        case failed
        case unknown
    }

    public var id: String
    public var paymentId: String
    public var tenantId: UUID
    public var amount: Int64
    public var currency: String
    public var reason: String?
    public var status: Status
    public var providerRefundId: String?
    public var failureCode: String?
    public var failureMessage: String?
    /// The merchant's key-value pairs, set at the create (``Metadata``).
    public var metadata: Metadata = .empty
    /// The merchant's free-text description (`description` in the API), set at the create.
    public var merchantDescription: String?
    /// Its payment's mode (``Payment/livemode``).
    public var livemode: Bool = false
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, paymentId: String, tenantId: UUID, amount: Int64, currency: String, reason: String?,
        createdAt: Date
    ) {
        self.id = id
        self.paymentId = paymentId
        self.tenantId = tenantId
        self.amount = amount
        self.currency = currency
        self.reason = reason
        self.status = .pending
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }
}

/// A capture, cancellation or completion performed on a payment.
public struct PaymentOperation: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case capture
        case void
        case complete
    }

    public var id: String
    public var paymentId: String
    public var tenantId: UUID
    public var kind: Kind
    public var amount: Int64?
    public var outcome: Outcome.Kind?
    public var providerId: String?
    public var code: String?
    public var message: String?
    public var createdAt: Date
    /// The request's data, kept (encrypted at rest) while its outcome is unknown, so that the same request
    /// can be replayed under the same idempotency key to learn that outcome; nil once it is known.
    public var replayData: [String: JSONValue]?

    public init(id: String, paymentId: String, tenantId: UUID, kind: Kind, amount: Int64?, createdAt: Date) {
        self.id = id
        self.paymentId = paymentId
        self.tenantId = tenantId
        self.kind = kind
        self.amount = amount
        self.createdAt = createdAt
    }
}
