import ProviderKit

extension LoadedPlugin {
    /// Creates a payment at the provider.
    public func authorize(_ request: AuthorizeRequest, account: AccountContext) async throws -> Outcome {
        try await call(.authorize, account: account, request: request, as: Outcome.self)
    }

    /// Captures an authorised payment.
    public func capture(_ request: CaptureRequest, account: AccountContext) async throws -> Outcome {
        try await call(.capture, account: account, request: request, as: Outcome.self)
    }

    /// Cancels a payment that was not captured.
    public func void(_ request: VoidRequest, account: AccountContext) async throws -> Outcome {
        try await call(.void, account: account, request: request, as: Outcome.self)
    }

    /// Refunds a captured payment.
    public func refund(_ request: RefundRequest, account: AccountContext) async throws -> Outcome {
        try await call(.refund, account: account, request: request, as: Outcome.self)
    }

    /// Asks for a payment's state.
    public func sync(_ request: SyncRequest, account: AccountContext) async throws -> Outcome {
        try await call(.sync, account: account, request: request, as: Outcome.self)
    }

    /// Asks for a refund's state.
    public func syncRefund(_ request: SyncRefundRequest, account: AccountContext) async throws -> Outcome {
        try await call(.syncRefund, account: account, request: request, as: Outcome.self)
    }

    /// Obtains a provider access token for the account.
    public func accessToken(_ request: AccessTokenRequest, account: AccountContext) async throws -> AccessTokenResult {
        try await call(.accessToken, account: account, request: request, as: AccessTokenResult.self)
    }

    /// Verifies and interprets an inbound notification.
    public func notification(_ request: NotificationRequest, account: AccountContext) async throws -> NotificationResult
    {
        try await call(.notification, account: account, request: request, as: NotificationResult.self)
    }

    /// Asks the provider to revoke a stored credential.
    public func revokeCredential(_ request: RevokeCredentialRequest, account: AccountContext) async throws
        -> RevokeCredentialResult
    {
        try await call(.revokeCredential, account: account, request: request, as: RevokeCredentialResult.self)
    }
}
