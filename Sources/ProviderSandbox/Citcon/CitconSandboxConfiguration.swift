import Foundation

/// A merchant known to the Citcon emulator.
public struct CitconSandboxMerchant: Sendable, Hashable {
    /// The merchant's identifier inside the sandbox (used by faults, the ledger and token counts).
    public var id: String
    /// The private key a merchant presents as bearer to obtain access tokens.
    public var privateKey: String
    /// The merchant API secret that signs the IPNs sent to this merchant.
    public var ipnSecret: String

    /// Creates a merchant.
    public init(id: String, privateKey: String, ipnSecret: String) {
        self.id = id
        self.privateKey = privateKey
        self.ipnSecret = ipnSecret
    }
}

/// How IPNs are put on the wire.
public enum CitconIPNEncoding: String, Sendable, Codable {
    /// `application/x-www-form-urlencoded` (the default).
    case form
    /// `application/json`, an object whose values are all strings.
    case json
}

/// Settings of the Citcon UPI emulator.
public struct CitconSandboxConfiguration: Sendable {
    /// The merchants whose private keys are accepted.
    public var merchants: [CitconSandboxMerchant]
    /// Lifetime of issued access tokens, in seconds (24 h by default).
    public var tokenLifetime: TimeInterval
    /// Lifetime of a pending (unconfirmed) charge, in seconds (30 min by default).
    public var pendingChargeLifetime: TimeInterval
    /// Wire encoding of IPNs.
    public var ipnEncoding: CitconIPNEncoding
    /// When true, token `expiry` is reported in epoch milliseconds instead of seconds
    /// (both variants have been observed from the real service).
    public var tokenExpiryInMilliseconds: Bool
    /// Whether a chargeback IPN names the chargeback in a `chargeback_id` field of its own (beside `id`, the
    /// charge's); Citcon documents no such field, so by default `id` names it (undocumented either way).
    public var chargebackIdField: Bool = false
    /// Days after a Notification of Claim by which the merchant must respond, sent as `due_date`
    /// (`yyyy-MM-dd HH:mm:ss`, UTC); nil (the default) sends none, as Citcon documents none.
    public var chargebackDueDays: Int? = nil

    /// Creates a configuration.
    public init(
        merchants: [CitconSandboxMerchant] = [],
        tokenLifetime: TimeInterval = 24 * 3600,
        pendingChargeLifetime: TimeInterval = 30 * 60,
        ipnEncoding: CitconIPNEncoding = .form,
        tokenExpiryInMilliseconds: Bool = false
    ) {
        self.merchants = merchants
        self.tokenLifetime = tokenLifetime
        self.pendingChargeLifetime = pendingChargeLifetime
        self.ipnEncoding = ipnEncoding
        self.tokenExpiryInMilliseconds = tokenExpiryInMilliseconds
    }
}
