#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The provider account a call is made for: where the provider is and how to authenticate.
/// The host fills it in for every call; plugins keep no per-account state.
public struct AccountContext: Codable, Sendable, Equatable {
    /// Switchyard's id of the provider account.
    public var accountId: String
    /// `sandbox`, `test` or `live`.
    public var environment: String
    /// Base URL of the provider's API for this account (no trailing slash).
    public var baseURL: String
    /// Credential fields by name, secrets included (decrypted by the host for this call only).
    public var credentials: [String: String]
    /// A current access token, when the plugin's manifest says it uses one.
    public var accessToken: String?
    /// The URL at which Switchyard receives this account's notifications.
    public var notificationURL: String
    /// Per-account options (non-secret), e.g. a default capture mode.
    public var options: [String: String]

    public init(
        accountId: String, environment: String, baseURL: String, credentials: [String: String],
        accessToken: String? = nil, notificationURL: String, options: [String: String] = [:]
    ) {
        self.accountId = accountId
        self.environment = environment
        self.baseURL = baseURL
        self.credentials = credentials
        self.accessToken = accessToken
        self.notificationURL = notificationURL
        self.options = options
    }
}
