#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Maps a flow to the provider method that implements it, with JSON on both sides.
enum PluginExportDispatch {
    /// Runs `flow` on `provider` with the invocation JSON `body` and returns the reply JSON.
    static func run<P: Provider>(_ provider: P, flow: Flow, body: Data) async -> Data {
        switch flow {
        case .authorize:
            return await reply(body, AuthorizeRequest.self) { try await provider.authorize($0, account: $1) }
        case .complete:
            return await reply(body, CompleteRequest.self) { try await provider.complete($0, account: $1) }
        case .capture:
            return await reply(body, CaptureRequest.self) { try await provider.capture($0, account: $1) }
        case .void:
            return await reply(body, VoidRequest.self) { try await provider.void($0, account: $1) }
        case .refund:
            return await reply(body, RefundRequest.self) { try await provider.refund($0, account: $1) }
        case .sync:
            return await reply(body, SyncRequest.self) { try await provider.sync($0, account: $1) }
        case .syncRefund:
            return await reply(body, SyncRefundRequest.self) { try await provider.syncRefund($0, account: $1) }
        case .accessToken:
            return await reply(body, AccessTokenRequest.self) { try await provider.accessToken($0, account: $1) }
        case .notification:
            return await reply(body, NotificationRequest.self) { try await provider.notification($0, account: $1) }
        case .vaultingSession:
            return await reply(body, VaultingSessionRequest.self) {
                try await provider.vaultingSession($0, account: $1)
            }
        case .syncVaulting:
            return await reply(body, VaultingSyncRequest.self) { try await provider.syncVaulting($0, account: $1) }
        case .revokeCredential:
            return await reply(body, RevokeCredentialRequest.self) {
                try await provider.revokeCredential($0, account: $1)
            }
        case .answerDispute:
            return await reply(body, DisputeAnswerRequest.self) { try await provider.answerDispute($0, account: $1) }
        case .clientSession:
            // The Provider protocol has no method for these flows (yet).
            let error = ProviderError.notSupported(flow)
            return PluginExportInstance.errorReply(error.resultCode, message: error.message)
        }
    }

    /// Decodes the invocation, runs `operation` and encodes its result or error.
    private static func reply<Request: Codable & Sendable, Result: Codable & Sendable>(
        _ body: Data, _ requestType: Request.Type,
        _ operation: (Request, AccountContext) async throws -> Result
    ) async -> Data {
        let invocation: PluginInvocation<Request>
        do {
            invocation = try PluginJSON.decode(PluginInvocation<Request>.self, from: body)
        } catch {
            // Never echo the body or the decoder's description: both may carry request data.
            return PluginExportInstance.errorReply(.badRequest, message: "the invocation does not decode")
        }
        do {
            let result = try await operation(invocation.request, invocation.account)
            return try PluginJSON.encode(PluginReply(result: result))
        } catch let error as ProviderError {
            return PluginExportInstance.errorReply(error.resultCode, message: error.message)
        } catch is CancellationError {
            return PluginExportInstance.errorReply(.cancelled, message: "the call was cancelled")
        } catch {
            return PluginExportInstance.errorReply(
                .pluginError, message: "the plugin failed with \(String(describing: type(of: error)))"
            )
        }
    }
}
