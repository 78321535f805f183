#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Errors a provider implementation may throw for our own failures (not declines, which are data).
public struct ProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable machine-readable code, e.g. `not_supported`, `bad_request`, `misconfigured`.
    public var code: String
    /// A message without secrets.
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    /// The flow is not implemented by this plugin.
    public static func notSupported(_ flow: Flow) -> ProviderError {
        ProviderError(.notSupported, message: "flow \(flow.rawValue) is not supported")
    }

    /// The account's configuration is unusable (missing credential, bad base URL…).
    public static func misconfigured(_ message: String) -> ProviderError {
        ProviderError(.misconfigured, message: message)
    }
}

/// What a plugin author implements: one value per loaded plugin, stateless across accounts.
///
/// Every flow receives the account it is for; the host decides which flows are called by the
/// manifest. Flows not implemented throw ``ProviderError/notSupported(_:)`` by default.
public protocol Provider: Sendable {
    /// The plugin's manifest.
    static var manifest: PluginManifest { get }
    /// Creates the provider with the host's services.
    init(host: any HostServices)

    func authorize(_ request: AuthorizeRequest, account: AccountContext) async throws -> Outcome
    func complete(_ request: CompleteRequest, account: AccountContext) async throws -> Outcome
    func capture(_ request: CaptureRequest, account: AccountContext) async throws -> Outcome
    func void(_ request: VoidRequest, account: AccountContext) async throws -> Outcome
    func refund(_ request: RefundRequest, account: AccountContext) async throws -> Outcome
    func sync(_ request: SyncRequest, account: AccountContext) async throws -> Outcome
    func syncRefund(_ request: SyncRefundRequest, account: AccountContext) async throws -> Outcome
    func accessToken(_ request: AccessTokenRequest, account: AccountContext) async throws -> AccessTokenResult
    func notification(_ request: NotificationRequest, account: AccountContext) async throws -> NotificationResult
    func vaultingSession(_ request: VaultingSessionRequest, account: AccountContext) async throws
        -> VaultingSessionResult
    func syncVaulting(_ request: VaultingSyncRequest, account: AccountContext) async throws -> VaultingSyncResult
    func answerDispute(_ request: DisputeAnswerRequest, account: AccountContext) async throws -> DisputeAnswerReply
    func revokeCredential(_ request: RevokeCredentialRequest, account: AccountContext) async throws
        -> RevokeCredentialResult
}

extension Provider {
    public func authorize(_ request: AuthorizeRequest, account: AccountContext) async throws -> Outcome {
        throw ProviderError.notSupported(.authorize)
    }
    public func complete(_ request: CompleteRequest, account: AccountContext) async throws -> Outcome {
        throw ProviderError.notSupported(.complete)
    }
    public func capture(_ request: CaptureRequest, account: AccountContext) async throws -> Outcome {
        throw ProviderError.notSupported(.capture)
    }
    public func void(_ request: VoidRequest, account: AccountContext) async throws -> Outcome {
        throw ProviderError.notSupported(.void)
    }
    public func refund(_ request: RefundRequest, account: AccountContext) async throws -> Outcome {
        throw ProviderError.notSupported(.refund)
    }
    public func sync(_ request: SyncRequest, account: AccountContext) async throws -> Outcome {
        throw ProviderError.notSupported(.sync)
    }
    public func syncRefund(_ request: SyncRefundRequest, account: AccountContext) async throws -> Outcome {
        throw ProviderError.notSupported(.syncRefund)
    }
    public func accessToken(_ request: AccessTokenRequest, account: AccountContext) async throws -> AccessTokenResult {
        throw ProviderError.notSupported(.accessToken)
    }
    public func notification(_ request: NotificationRequest, account: AccountContext) async throws
        -> NotificationResult
    {
        throw ProviderError.notSupported(.notification)
    }

    public func vaultingSession(_ request: VaultingSessionRequest, account: AccountContext) async throws
        -> VaultingSessionResult
    {
        throw ProviderError.notSupported(.vaultingSession)
    }

    public func syncVaulting(_ request: VaultingSyncRequest, account: AccountContext) async throws
        -> VaultingSyncResult
    {
        throw ProviderError.notSupported(.syncVaulting)
    }

    public func revokeCredential(_ request: RevokeCredentialRequest, account: AccountContext) async throws
        -> RevokeCredentialResult
    {
        throw ProviderError.notSupported(.revokeCredential)
    }

    public func answerDispute(_ request: DisputeAnswerRequest, account: AccountContext) async throws
        -> DisputeAnswerReply
    {
        throw ProviderError.notSupported(.answerDispute)
    }
}
