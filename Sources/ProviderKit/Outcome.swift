#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a provider call returned, classified for the orchestrator.
///
/// Only ``Kind/notSent`` may fail over to another provider; ``Kind/unknown`` must be resolved by `sync`.
public struct Outcome: Codable, Sendable, Equatable {
    /// The outcome classes of DESIGN.md.
    public enum Kind: String, Codable, Sendable {
        /// Done: for authorize/capture, money captured; for void, cancelled; for refund, refunded.
        case succeeded
        /// Authorised and waiting for a capture.
        case authorized
        /// Accepted, waiting for the customer or the provider; see `nextAction`.
        case pending
        /// The provider refused definitively.
        case declined
        /// The payment was cancelled or expired at the provider (sync and notifications).
        case canceled
        /// The request certainly did not reach the provider or was certainly not processed.
        case notSent
        /// The outcome is not known; resolve by `sync`, never by a second charge.
        case unknown
        /// The provider rejected our access token; the host refreshes it and retries once.
        case authExpired
    }

    public var kind: Kind
    /// The provider's id of the payment (or of the refund, for refund flows).
    public var providerPaymentId: String?
    /// The provider's raw status text, for display and diagnosis.
    public var providerStatus: String?
    /// The amount this operation covered, in minor units, when the provider says.
    public var amount: Int64?
    /// Amounts known from a sync, in minor units.
    public var capturedAmount: Int64?
    public var refundedAmount: Int64?
    /// What the merchant's app must do next, for `pending`.
    public var nextAction: NextAction?
    /// A decline or error code (the provider's, or a stable one of ours).
    public var code: String?
    /// A human-readable message; never contains secrets.
    public var message: String?
    /// For declines: whether the provider marks it retryable.
    public var retryable: Bool?

    public init(
        kind: Kind, providerPaymentId: String? = nil, providerStatus: String? = nil, amount: Int64? = nil,
        capturedAmount: Int64? = nil, refundedAmount: Int64? = nil, nextAction: NextAction? = nil,
        code: String? = nil, message: String? = nil, retryable: Bool? = nil
    ) {
        self.kind = kind
        self.providerPaymentId = providerPaymentId
        self.providerStatus = providerStatus
        self.amount = amount
        self.capturedAmount = capturedAmount
        self.refundedAmount = refundedAmount
        self.nextAction = nextAction
        self.code = code
        self.message = message
        self.retryable = retryable
    }

    /// A definitive refusal.
    public static func declined(
        code: String, message: String, retryable: Bool = false, providerPaymentId: String? = nil
    )
        -> Outcome
    {
        Outcome(
            kind: .declined, providerPaymentId: providerPaymentId, code: code, message: message, retryable: retryable)
    }

    /// The request certainly did not reach the provider.
    public static func notSent(_ reason: String) -> Outcome {
        Outcome(kind: .notSent, resultCode: .notSent, message: reason)
    }

    /// The outcome is not known.
    public static func unknown(_ reason: String, providerPaymentId: String? = nil) -> Outcome {
        Outcome(
            kind: .unknown, providerPaymentId: providerPaymentId, code: PluginResultCode.unknown.rawValue,
            message: reason)
    }

    /// The access token was rejected.
    public static let authExpired = Outcome(
        kind: .authExpired, resultCode: .authExpired, message: "access token rejected")
}

/// What a merchant's app must do next, and until when it can.
public struct NextAction: Codable, Sendable, Equatable {
    /// A stable type name, e.g. `citcon_sdk`.
    public var type: String
    /// What the app needs (tokens, session data, URLs).
    public var data: [String: JSONValue]
    /// When the data stops being usable, if the provider says.
    public var expiresAt: Date?
    /// Whether a new session may replace this one for the same payment: true only when the session is not
    /// bound to an order at the provider (nothing can be charged through the old one once it expires).
    public var renewable: Bool?

    public init(type: String, data: [String: JSONValue], expiresAt: Date? = nil, renewable: Bool? = nil) {
        self.type = type
        self.data = data
        self.expiresAt = expiresAt
        self.renewable = renewable
    }
}

/// An access token and its expiry, from the `accessToken` flow.
public struct AccessToken: Codable, Sendable, Equatable {
    public var token: String
    public var expiresAt: Date

    public init(token: String, expiresAt: Date) {
        self.token = token
        self.expiresAt = expiresAt
    }
}

/// The result of the `accessToken` flow: a token, or an outcome explaining why there is none.
public struct AccessTokenResult: Codable, Sendable, Equatable {
    public var token: AccessToken?
    public var failure: Outcome?

    public init(token: AccessToken) {
        self.token = token
        self.failure = nil
    }

    public init(failure: Outcome) {
        self.token = nil
        self.failure = failure
    }
}

/// The reply the provider expects to a notification.
public struct NotificationReply: Codable, Sendable, Equatable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: String

    public init(status: Int, headers: [HTTPHeader] = [], body: String) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// What a notification says about one payment or refund.
public struct NotificationEvent: Codable, Sendable, Equatable {
    public enum Subject: String, Codable, Sendable {
        case payment
        case refund
        case other
    }

    public var subject: Subject
    /// Our reference the provider echoed (attempt id for payments, refund id for refunds).
    public var reference: String?
    /// The provider's id of the payment (or refund).
    public var providerPaymentId: String?
    /// The state the notification reports.
    public var outcome: Outcome

    public init(subject: Subject, reference: String?, providerPaymentId: String?, outcome: Outcome) {
        self.subject = subject
        self.reference = reference
        self.providerPaymentId = providerPaymentId
        self.outcome = outcome
    }
}

/// The result of the `notification` flow.
public struct NotificationResult: Codable, Sendable, Equatable {
    /// Whether the provider's signature verified. An unverified body must never be trusted.
    public var verified: Bool
    /// What to answer the provider.
    public var reply: NotificationReply
    /// The events the notification carries (empty when not verified).
    public var events: [NotificationEvent]
    /// Why verification failed, if it did (no secrets).
    public var failureReason: String?
    /// Changes of stored credentials the notification reports (tokens created or revoked, cards vaulted).
    public var credentials: [CredentialEvent]
    /// The signed content that identifies the notification (e.g. the signed fields in their canonical
    /// order), which the host hashes to recognise a replay; nil: the whole body is used. Only content the
    /// signature covers belongs here, so a copy with an unsigned field added is the same notification.
    public var dedupKey: String?
    /// Names of body fields (JSON keys or form fields, at any depth) whose values are secrets the host must
    /// remove before it stores the raw body; the host also removes the fields it knows to be secret.
    public var secretFields: [String]
    /// What the notification says about disputes of payments (empty when not verified).
    public var disputes: [DisputeEvent]

    public init(
        verified: Bool, reply: NotificationReply, events: [NotificationEvent], failureReason: String? = nil,
        credentials: [CredentialEvent] = [], dedupKey: String? = nil, secretFields: [String] = [],
        disputes: [DisputeEvent] = []
    ) {
        self.verified = verified
        self.reply = reply
        self.events = events
        self.failureReason = failureReason
        self.credentials = credentials
        self.dedupKey = dedupKey
        self.secretFields = secretFields
        self.disputes = disputes
    }

    private enum CodingKeys: String, CodingKey {
        case verified, reply, events, failureReason, credentials, dedupKey, secretFields, disputes
    }

    /// Decodes a result; `credentials`, `dedupKey`, `secretFields` and `disputes` may be absent (plugins
    /// built before them).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        verified = try c.decode(Bool.self, forKey: .verified)
        reply = try c.decode(NotificationReply.self, forKey: .reply)
        events = try c.decode([NotificationEvent].self, forKey: .events)
        failureReason = try c.decodeIfPresent(String.self, forKey: .failureReason)
        credentials = try c.decodeIfPresent([CredentialEvent].self, forKey: .credentials) ?? []
        dedupKey = try c.decodeIfPresent(String.self, forKey: .dedupKey)
        secretFields = try c.decodeIfPresent([String].self, forKey: .secretFields) ?? []
        disputes = try c.decodeIfPresent([DisputeEvent].self, forKey: .disputes) ?? []
    }
}
