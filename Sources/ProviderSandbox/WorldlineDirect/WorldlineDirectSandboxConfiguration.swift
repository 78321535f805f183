import Foundation

/// A merchant known to the Worldline Direct emulator.
public struct WorldlineDirectSandboxMerchant: Sendable, Hashable {
    /// The merchant id of the path `/v2/{merchantId}/…` (also used by faults and the ledger).
    public var merchantId: String
    /// The API key id sent in `Authorization: GCS v1HMAC:<apiKeyId>:<signature>`.
    public var apiKeyId: String
    /// The secret API key that signs requests (HMAC-SHA256).
    public var secretApiKey: String
    /// The id of the webhook secret, sent as `X-GCS-KeyId`.
    public var webhookKeyId: String
    /// The secret that signs webhooks (`X-GCS-Signature`).
    public var webhookSecret: String
    /// Where webhooks go when a payment does not name its own `feedbacks.webhookUrls`; nil sends none.
    public var webhookURL: String?

    /// Creates a merchant.
    public init(
        merchantId: String,
        apiKeyId: String,
        secretApiKey: String,
        webhookKeyId: String,
        webhookSecret: String,
        webhookURL: String? = nil
    ) {
        self.merchantId = merchantId
        self.apiKeyId = apiKeyId
        self.secretApiKey = secretApiKey
        self.webhookKeyId = webhookKeyId
        self.webhookSecret = webhookSecret
        self.webhookURL = webhookURL
    }
}

/// Settings of the Worldline Direct emulator.
public struct WorldlineDirectSandboxConfiguration: Sendable {
    /// The merchants whose API keys are accepted.
    public var merchants: [WorldlineDirectSandboxMerchant]
    /// Lifetime of a client session, in seconds (3 h by default).
    public var sessionLifetime: TimeInterval
    /// Largest accepted difference between a request's `Date` header and the sandbox clock, in seconds
    /// (15 min by default).
    public var allowedDateSkew: TimeInterval
    /// Size in bits of the RSA key served to the client API (2048 by default).
    public var publicKeyBits: Int
    /// Time a state-changing request spends "processing" after its idempotence key is registered
    /// (zero by default); lets a test observe the `409` answered to a concurrent replay.
    public var processingDelay: Duration
    /// The payment `status` a `payment.chargebacked` webhook carries (Worldline documents none:
    /// `CHARGEBACKED` by default) and its `statusCode` (84, the legacy reconciliation guide's chargeback code).
    public var chargebackStatus: String = "CHARGEBACKED"
    public var chargebackStatusCode: Int = 84

    /// Creates a configuration.
    public init(
        merchants: [WorldlineDirectSandboxMerchant] = [],
        sessionLifetime: TimeInterval = 3 * 3600,
        allowedDateSkew: TimeInterval = 15 * 60,
        publicKeyBits: Int = 2048,
        processingDelay: Duration = .zero
    ) {
        self.merchants = merchants
        self.sessionLifetime = sessionLifetime
        self.allowedDateSkew = allowedDateSkew
        self.publicKeyBits = publicKeyBits
        self.processingDelay = processingDelay
    }
}
