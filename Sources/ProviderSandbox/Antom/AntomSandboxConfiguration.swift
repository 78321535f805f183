import Foundation
import SwitchyardCrypto

/// A merchant known to the Antom emulator.
public struct AntomSandboxMerchant: Sendable, Hashable {
    /// The client id sent in the `client-id` header (ids starting with `SANDBOX_` use `/ams/sandbox/api/…`,
    /// both path forms are accepted for every merchant). Also names the merchant in faults and the ledger.
    public var clientId: String
    /// The merchant's RSA public key that verifies its requests: PEM (`BEGIN PUBLIC KEY`) or bare base64
    /// of the DER `SubjectPublicKeyInfo`, as Antom's dashboard shows it.
    public var merchantPublicKey: String
    /// The key version expected in the `signature` header and sent back in signed answers ("1" by default).
    public var keyVersion: String
    /// Where `notifyAuthorization` goes; when nil it goes to the `paymentNotifyUrl` of the session that
    /// created the access token.
    public var authorizationNotifyURL: String?
    /// When true, every payment session of this merchant is approved by its wallet user at once, before
    /// `createPaymentSession` answers (as if the app had completed it immediately): for load and fault
    /// tests that need wallet payments to finish without an app.
    public var approvesSessionsAtOnce: Bool

    /// Creates a merchant.
    /// - Parameters:
    ///   - clientId: the `client-id` of the merchant.
    ///   - merchantPublicKey: PEM or bare base64 SPKI of the key that verifies the merchant's requests.
    ///   - keyVersion: the key version of the `signature` header.
    ///   - authorizationNotifyURL: the dashboard-configured `notifyAuthorization` URL, if any.
    public init(
        clientId: String,
        merchantPublicKey: String,
        keyVersion: String = "1",
        authorizationNotifyURL: String? = nil,
        approvesSessionsAtOnce: Bool = false
    ) {
        self.approvesSessionsAtOnce = approvesSessionsAtOnce
        self.clientId = clientId
        self.merchantPublicKey = merchantPublicKey
        self.keyVersion = keyVersion
        self.authorizationNotifyURL = authorizationNotifyURL
    }
}

/// Settings of the Antom emulator.
public struct AntomSandboxConfiguration: Sendable {
    /// The merchants whose signed requests are accepted.
    public var merchants: [AntomSandboxMerchant]
    /// Antom's own private key (PKCS#8 or PKCS#1 PEM, or bare base64 PKCS#8) that signs answers and
    /// notifications; nil generates a 2048-bit key on first use.
    public var privateKeyPEM: String?
    /// Lifetime of a vaulting session, in seconds (30 min by default).
    public var vaultingSessionLifetime: TimeInterval
    /// Longest accepted `paymentSessionExpiryTime` after creation, in seconds (1 h, also the default expiry).
    public var maxPaymentSessionLifetime: TimeInterval
    /// How long after `paymentTime` a successful payment may still be cancelled, in seconds (24 h by default).
    public var cancelWindow: TimeInterval
    /// When true the failure card (``AntomTestCard/failure``) is vaulted, and payments with its token are
    /// declined `F RISK_REJECT`; when false (default) vaulting it fails.
    public var failureCardVaults: Bool

    /// Creates a configuration.
    public init(
        merchants: [AntomSandboxMerchant] = [],
        privateKeyPEM: String? = nil,
        vaultingSessionLifetime: TimeInterval = 30 * 60,
        maxPaymentSessionLifetime: TimeInterval = 3600,
        cancelWindow: TimeInterval = 24 * 3600,
        failureCardVaults: Bool = false
    ) {
        self.merchants = merchants
        self.privateKeyPEM = privateKeyPEM
        self.vaultingSessionLifetime = vaultingSessionLifetime
        self.maxPaymentSessionLifetime = maxPaymentSessionLifetime
        self.cancelWindow = cancelWindow
        self.failureCardVaults = failureCardVaults
    }

    /// Checks that every key of the configuration can be read, so a command can refuse a bad setting
    /// before serving (the emulator itself answers `F INVALID_SIGNATURE` for a merchant whose key is
    /// unreadable).
    /// - Throws: ``AntomSandboxError`` with code `INVALID_KEY` naming the client id or `privateKeyPEM`.
    public func validate() throws(AntomSandboxError) {
        for merchant in merchants where (try? RSAPublicKey(keyText: merchant.merchantPublicKey)) == nil {
            throw AntomSandboxError(
                code: "INVALID_KEY", message: "unreadable public key of client \(merchant.clientId)", httpStatus: 400)
        }
        if let privateKeyPEM, (try? RSAPrivateKey(keyText: privateKeyPEM)) == nil {
            throw AntomSandboxError(code: "INVALID_KEY", message: "unreadable privateKeyPEM", httpStatus: 400)
        }
    }
}
