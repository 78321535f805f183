#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Ask the provider to revoke a customer's stored credential (delete a wallet card, cancel an agreement's
/// token), so that it cannot pay again even outside Switchyard.
public struct RevokeCredentialRequest: Codable, Sendable, Equatable {
    /// The credential: Switchyard's id, its kind (`wallet_agreement`, `card`), the provider's token and
    /// payment-method type.
    public var credential: StoredCredential
    /// The merchant's customer who owns the credential.
    public var customerId: String
    /// Switchyard's id of this revocation; an idempotency key for providers that honour one.
    public var operationId: String

    /// Creates a request.
    public init(credential: StoredCredential, customerId: String, operationId: String) {
        self.credential = credential
        self.customerId = customerId
        self.operationId = operationId
    }
}

/// What the provider did with a revocation request.
public struct RevokeCredentialResult: Codable, Sendable, Equatable {
    /// The result classes of a revocation.
    public enum Status: String, Codable, Sendable {
        /// The provider revoked the credential, or confirms it no longer exists.
        case revoked
        /// The provider (or its plugin) offers no revocation for this credential; nothing was sent.
        case notSupported = "not_supported"
        /// The provider refused to revoke it; ``RevokeCredentialResult/code`` is the provider's code.
        case declined
        /// The request certainly did not reach the provider, or was certainly not processed.
        case notSent = "not_sent"
        /// Whether the provider revoked it is not known (timeout, server error, unverifiable answer).
        case unknown
        /// The provider rejected our access token; the host refreshes it and retries once.
        case authExpired = "auth_expired"
    }

    public var status: Status
    /// The provider's code for `declined`; a stable code of ours otherwise (never a token).
    public var code: String?
    /// A human-readable message without secrets.
    public var message: String?

    /// Creates a result.
    public init(status: Status, code: String? = nil, message: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// The provider revoked the credential.
    public static let revoked = RevokeCredentialResult(status: .revoked)

    /// No revocation is possible at the provider for this credential.
    public static func notSupported(_ message: String) -> RevokeCredentialResult {
        RevokeCredentialResult(status: .notSupported, code: PluginResultCode.notSupported.rawValue, message: message)
    }

    /// The result for a call that ended with `failure` instead of a revocation: `declined`, `notSent` (or
    /// `notSupported` when its code is `not_supported`), `authExpired`, and `unknown` for every other class.
    public init(failure: Outcome) {
        let status: Status
        switch failure.kind {
        case .declined: status = .declined
        case .notSent: status = failure.resultCode == .notSupported ? .notSupported : .notSent
        case .authExpired: status = .authExpired
        default: status = .unknown
        }
        self.init(status: status, code: failure.code, message: failure.message)
    }
}
