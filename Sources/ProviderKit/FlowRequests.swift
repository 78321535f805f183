#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Whether an authorisation is captured at once or later by a separate capture.
public enum CaptureMode: String, Codable, Sendable {
    case automatic
    case manual
}

/// Create a payment at the provider.
public struct AuthorizeRequest: Codable, Sendable, Equatable {
    /// Switchyard's payment id.
    public var paymentId: String
    /// Switchyard's attempt id; also the reference sent to the provider (unique per attempt).
    public var attemptId: String
    /// The merchant's own reference for the order.
    public var merchantReference: String
    /// Amount in minor units of `currency`.
    public var amount: Int64
    /// ISO 4217 code, upper case.
    public var currency: String
    /// ISO 3166-1 alpha-2 code, upper case.
    public var country: String
    /// Payment method, lower case.
    public var method: String
    public var captureMode: CaptureMode
    /// The merchant's customer id, if any.
    public var customerId: String?
    /// Where the provider should send the shopper back, if the flow redirects.
    public var returnURL: String?
    /// Method-specific input from the merchant (e.g. an app's encrypted customer input).
    public var paymentData: [String: JSONValue]
    /// An idempotency key derived from the attempt id, for providers that honour one.
    public var idempotencyKey: String
    /// The customer's stored credential to pay with, instead of a session (a later EasySafePay payment with
    /// the agreement's token, a vaulted card).
    public var storedCredential: StoredCredential?
    /// Set up a stored credential with this payment (the first EasySafePay payment of an agreement).
    public var credentialSetup: CredentialSetup?

    public init(
        paymentId: String, attemptId: String, merchantReference: String, amount: Int64, currency: String,
        country: String, method: String, captureMode: CaptureMode, customerId: String? = nil,
        returnURL: String? = nil, paymentData: [String: JSONValue] = [:], idempotencyKey: String,
        storedCredential: StoredCredential? = nil, credentialSetup: CredentialSetup? = nil
    ) {
        self.paymentId = paymentId
        self.attemptId = attemptId
        self.merchantReference = merchantReference
        self.amount = amount
        self.currency = currency
        self.country = country
        self.method = method
        self.captureMode = captureMode
        self.customerId = customerId
        self.returnURL = returnURL
        self.paymentData = paymentData
        self.idempotencyKey = idempotencyKey
        self.storedCredential = storedCredential
        self.credentialSetup = credentialSetup
    }
}

/// Identifies the provider-side payment an operation applies to.
public struct PaymentLocator: Codable, Sendable, Equatable {
    /// The attempt id we sent as the provider reference.
    public var attemptId: String
    /// The provider's id for the payment, when we know it.
    public var providerPaymentId: String?

    public init(attemptId: String, providerPaymentId: String?) {
        self.attemptId = attemptId
        self.providerPaymentId = providerPaymentId
    }
}

/// Finish a payment with the customer app's output.
public struct CompleteRequest: Codable, Sendable, Equatable {
    public var payment: PaymentLocator
    /// Switchyard's id of this step; also the idempotency key for providers that honour one.
    public var operationId: String
    public var merchantReference: String
    public var amount: Int64
    public var currency: String
    public var country: String
    public var method: String
    public var captureMode: CaptureMode
    public var returnURL: String?
    /// What the app produced (e.g. `encrypted_customer_input`) and the provider session it belongs to.
    public var paymentData: [String: JSONValue]
    /// The session data the `authorize` step returned in its next action.
    public var session: [String: JSONValue]
    /// Whether this repeats an earlier request whose outcome is unknown, with the same operation id and
    /// data, to learn that outcome from a provider that honours idempotency keys. The plugin sends the
    /// same request again and does not judge the session's expiry (the provider does).
    public var isReplay: Bool

    public init(
        payment: PaymentLocator, operationId: String, merchantReference: String, amount: Int64, currency: String,
        country: String, method: String, captureMode: CaptureMode, returnURL: String?,
        paymentData: [String: JSONValue], session: [String: JSONValue], isReplay: Bool = false
    ) {
        self.payment = payment
        self.operationId = operationId
        self.merchantReference = merchantReference
        self.amount = amount
        self.currency = currency
        self.country = country
        self.method = method
        self.captureMode = captureMode
        self.returnURL = returnURL
        self.paymentData = paymentData
        self.session = session
        self.isReplay = isReplay
    }

    private enum CodingKeys: String, CodingKey {
        case payment, operationId, merchantReference, amount, currency, country, method, captureMode, returnURL
        case paymentData, session, isReplay
    }

    /// Decodes a request; `isReplay` may be absent (false).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        payment = try c.decode(PaymentLocator.self, forKey: .payment)
        operationId = try c.decode(String.self, forKey: .operationId)
        merchantReference = try c.decode(String.self, forKey: .merchantReference)
        amount = try c.decode(Int64.self, forKey: .amount)
        currency = try c.decode(String.self, forKey: .currency)
        country = try c.decode(String.self, forKey: .country)
        method = try c.decode(String.self, forKey: .method)
        captureMode = try c.decode(CaptureMode.self, forKey: .captureMode)
        returnURL = try c.decodeIfPresent(String.self, forKey: .returnURL)
        paymentData = try c.decode([String: JSONValue].self, forKey: .paymentData)
        session = try c.decode([String: JSONValue].self, forKey: .session)
        isReplay = try c.decodeIfPresent(Bool.self, forKey: .isReplay) ?? false
    }
}

/// Capture an authorised payment.
public struct CaptureRequest: Codable, Sendable, Equatable {
    public var payment: PaymentLocator
    /// Switchyard's id of this capture; also its reference at the provider.
    public var operationId: String
    public var amount: Int64
    public var currency: String
    /// Whether no further capture will follow.
    public var isFinal: Bool

    public init(payment: PaymentLocator, operationId: String, amount: Int64, currency: String, isFinal: Bool) {
        self.payment = payment
        self.operationId = operationId
        self.amount = amount
        self.currency = currency
        self.isFinal = isFinal
    }
}

/// Cancel a payment that was not captured.
public struct VoidRequest: Codable, Sendable, Equatable {
    public var payment: PaymentLocator
    /// Switchyard's id of this cancellation; also its reference at the provider.
    public var operationId: String

    public init(payment: PaymentLocator, operationId: String) {
        self.payment = payment
        self.operationId = operationId
    }
}

/// Refund a captured payment.
public struct RefundRequest: Codable, Sendable, Equatable {
    public var payment: PaymentLocator
    /// Switchyard's refund id; also the refund's reference at the provider.
    public var refundId: String
    public var amount: Int64
    public var currency: String
    public var reason: String?

    public init(payment: PaymentLocator, refundId: String, amount: Int64, currency: String, reason: String? = nil) {
        self.payment = payment
        self.refundId = refundId
        self.amount = amount
        self.currency = currency
        self.reason = reason
    }
}

/// Ask for a payment's state.
public struct SyncRequest: Codable, Sendable, Equatable {
    public var payment: PaymentLocator
    /// When the attempt being synced started, if the host knows: a plugin whose provider answers "not found"
    /// for our reference judges by it whether the attempt can still appear (see ``NotFoundRule``). Absent in
    /// requests from hosts built before it.
    public var attemptStartedAt: Date?

    public init(payment: PaymentLocator, attemptStartedAt: Date? = nil) {
        self.payment = payment
        self.attemptStartedAt = attemptStartedAt
    }
}

/// Ask for a refund's state.
public struct SyncRefundRequest: Codable, Sendable, Equatable {
    public var payment: PaymentLocator
    public var refundId: String
    public var providerRefundId: String?

    public init(payment: PaymentLocator, refundId: String, providerRefundId: String?) {
        self.payment = payment
        self.refundId = refundId
        self.providerRefundId = providerRefundId
    }
}

/// Obtain an access token for the account.
public struct AccessTokenRequest: Codable, Sendable, Equatable {
    /// Token kind, e.g. `server` or `client` (provider-specific).
    public var kind: String

    public init(kind: String) {
        self.kind = kind
    }
}

/// One HTTP header as a name/value pair (names keep their case; duplicates are kept).
public struct HTTPHeader: Codable, Sendable, Equatable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// An inbound notification as Switchyard received it.
public struct NotificationRequest: Codable, Sendable, Equatable {
    public var method: String
    /// The request path (and query) at Switchyard.
    public var path: String
    public var headers: [HTTPHeader]
    /// The raw body, byte for byte.
    public var body: Data

    public init(method: String, path: String, headers: [HTTPHeader], body: Data) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}
