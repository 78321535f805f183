import Foundation
import Logging
import Metrics
import ProviderKit
import SwitchyardCore
import SwitchyardObservability
import Tracing

/// The core's `ProviderGateway` over loaded plugins: builds each call's account context, supplies access
/// tokens, retries once after `authExpired`, and turns plugin failures into outcome classes.
public struct PluginGateway: ProviderGateway {
    let registry: PluginRegistry
    let tokens: AccessTokenCache
    /// Base URL under which Switchyard receives notifications (`<base>/notifications/<account id>`).
    let publicBaseURL: String
    let logger: Logger

    public init(registry: PluginRegistry, tokens: AccessTokenCache, publicBaseURL: String, logger: Logger) {
        self.registry = registry
        self.tokens = tokens
        self.publicBaseURL = publicBaseURL
        self.logger = logger
    }

    public func manifest(pluginId: String) async -> PluginManifest? {
        await registry.plugin(id: pluginId)?.manifest
    }

    public func authorize(_ request: AuthorizeRequest, account: ProviderAccount) async -> Outcome {
        await call(.authorize, request, account: account)
    }

    public func complete(_ request: CompleteRequest, account: ProviderAccount) async -> Outcome {
        await call(.complete, request, account: account)
    }

    public func capture(_ request: CaptureRequest, account: ProviderAccount) async -> Outcome {
        await call(.capture, request, account: account)
    }

    public func void(_ request: VoidRequest, account: ProviderAccount) async -> Outcome {
        await call(.void, request, account: account)
    }

    public func refund(_ request: RefundRequest, account: ProviderAccount) async -> Outcome {
        await call(.refund, request, account: account)
    }

    public func sync(_ request: SyncRequest, account: ProviderAccount) async -> Outcome {
        await call(.sync, request, account: account)
    }

    public func syncRefund(_ request: SyncRefundRequest, account: ProviderAccount) async -> Outcome {
        await call(.syncRefund, request, account: account)
    }

    public func vaultingSession(_ request: VaultingSessionRequest, account: ProviderAccount) async -> Outcome {
        await call(
            .vaultingSession, request, account: account, as: VaultingSessionResult.self, outcome: { $0.outcome },
            failed: { VaultingSessionResult(outcome: $0) }
        ).outcome
    }

    public func syncVaulting(_ request: VaultingSyncRequest, account: ProviderAccount) async -> VaultingSyncResult {
        await call(
            .syncVaulting, request, account: account, as: VaultingSyncResult.self, outcome: { $0.failure },
            failed: { VaultingSyncResult(event: nil, failure: $0) })
    }

    /// Asks the provider to revoke a stored credential. A plugin whose manifest lacks the flow answers
    /// `notSupported` without any call; a plugin failure is `unknown` (or `notSent` when it refused before
    /// sending anything).
    public func revokeCredential(_ request: RevokeCredentialRequest, account: ProviderAccount) async
        -> RevokeCredentialResult
    {
        await call(
            .revokeCredential, request, account: account, as: RevokeCredentialResult.self,
            outcome: { $0.status == .authExpired ? .authExpired : nil },
            failed: { RevokeCredentialResult(failure: $0) })
    }

    /// Sends a dispute answer through the account's plugin: ``SwitchyardCore/DisputeAnswerResult/unsupported``
    /// without a call when its manifest does not offer ``Flow/answerDispute``; a failure before sending or
    /// during the call is unknown (the answer is to be sent again: providers refuse a repeat as such).
    public func answerDispute(
        _ answer: SwitchyardCore.DisputeAnswer, providerDisputeId: String, account: ProviderAccount
    ) async -> SwitchyardCore.DisputeAnswerResult {
        guard let plugin = await registry.plugin(id: account.pluginId) else {
            return .unknown("plugin \(account.pluginId) is not loaded")
        }
        guard plugin.manifest.offers(.answerDispute) else { return .unsupported }
        let request: DisputeAnswerRequest
        switch answer {
        case .accept:
            request = DisputeAnswerRequest(providerDisputeId: providerDisputeId, answer: .accept)
        case .evidence(let files):
            request = DisputeAnswerRequest(
                providerDisputeId: providerDisputeId, answer: .evidence,
                documents: files.map {
                    .init(type: $0.type, name: $0.name, data: Data($0.data).base64EncodedString())
                })
        }
        let reply = await call(
            .answerDispute, request, account: account, as: DisputeAnswerReply.self, outcome: { _ in nil },
            failed: { DisputeAnswerReply(status: .unknown, code: $0.code, message: $0.message) })
        switch reply.status {
        case .accepted: return .done
        case .refused: return .refused(code: reply.code ?? "refused", message: reply.message ?? "")
        case .unknown: return .unknown(reply.message ?? reply.code ?? "no answer")
        }
    }

    public func notification(_ request: NotificationRequest, account: ProviderAccount) async throws
        -> NotificationResult
    {
        guard let plugin = await registry.plugin(id: account.pluginId) else {
            throw CoreError(.pluginUnavailable, "the plugin for this account is not loaded")
        }
        do {
            return try await plugin.call(
                .notification, account: context(account, token: nil), request: request, as: NotificationResult.self)
        } catch {
            logger.error(
                "notification plugin call failed",
                metadata: ["provider.account": "\(account.id)", "error": "\(Self.describe(error))"])
            throw CoreError(.pluginError, "the plugin could not process the notification")
        }
    }

    /// The notification URL of an account.
    public func notificationURL(accountId: UUID) -> String {
        "\(publicBaseURL)/notifications/\(accountId.uuidString.lowercased())"
    }

    private func context(_ account: ProviderAccount, token: String?) -> AccountContext {
        AccountContext(
            accountId: account.id.uuidString.lowercased(), environment: account.environment, baseURL: account.baseURL,
            credentials: account.credentials, accessToken: token,
            notificationURL: notificationURL(accountId: account.id),
            options: account.options)
    }

    /// Calls a money-moving or inquiry flow, with the access-token dance when the plugin needs one.
    private func call<Request: Codable & Sendable>(_ flow: Flow, _ request: Request, account: ProviderAccount) async
        -> Outcome
    {
        await call(flow, request, account: account, as: Outcome.self, outcome: { $0 }, failed: { $0 })
    }

    /// Calls a flow whose answer is `Result`: `outcome` reads the answer's outcome class (for the
    /// `authExpired` retry) and `failed` wraps an outcome the host decided without an answer.
    private func call<Request: Codable & Sendable, Result: Codable & Sendable>(
        _ flow: Flow, _ request: Request, account: ProviderAccount, as type: Result.Type,
        outcome: (Result) -> Outcome?, failed: (Outcome) -> Result
    ) async -> Result {
        await ProviderCallObservation.observe(plugin: account.pluginId, flow: flow, outcome: outcome) {
            await callUnobserved(flow, request, account: account, as: type, outcome: outcome, failed: failed)
        }
    }

    private func callUnobserved<Request: Codable & Sendable, Result: Codable & Sendable>(
        _ flow: Flow, _ request: Request, account: ProviderAccount, as type: Result.Type,
        outcome: (Result) -> Outcome?, failed: (Outcome) -> Result
    ) async -> Result {
        guard let plugin = await registry.plugin(id: account.pluginId) else {
            return failed(.notSent("plugin \(account.pluginId) is not loaded"))
        }
        guard plugin.manifest.offers(flow) else {
            return failed(
                Outcome(
                    kind: .notSent, resultCode: .notSupported,
                    message: "\(flow.rawValue) is not supported by \(account.pluginId)"))
        }
        var token: String?
        if plugin.manifest.usesAccessToken {
            switch await accessToken(plugin: plugin, account: account) {
            case .success(let value): token = value
            case .failure(let outcome): return failed(outcome)
            }
        }
        var result = await invoke(plugin, flow, request, account: account, token: token, as: type, failed: failed)
        if outcome(result)?.kind == .authExpired && plugin.manifest.usesAccessToken {
            logger.notice("access token rejected; refreshing once", metadata: ["provider.account": "\(account.id)"])
            await tokens.invalidate(account: account.id, kind: "server", token: token)
            switch await accessToken(plugin: plugin, account: account) {
            case .success(let value):
                result = await invoke(plugin, flow, request, account: account, token: value, as: type, failed: failed)
            case .failure(let failure): return failed(failure)
            }
        }
        return result
    }

    private func invoke<Request: Codable & Sendable, Result: Codable & Sendable>(
        _ plugin: LoadedPlugin, _ flow: Flow, _ request: Request, account: ProviderAccount, token: String?,
        as type: Result.Type, failed: (Outcome) -> Result
    ) async -> Result {
        do {
            return try await plugin.call(flow, account: context(account, token: token), request: request, as: type)
        } catch let error as PluginCallError where error.code.isRefusalBeforeSending {
            // The plugin refused before building a request: nothing reached the provider.
            return failed(Outcome(kind: .notSent, resultCode: error.code, message: error.message))
        } catch let error as PluginCallError where error.code.isUnansweredBeforeSending {
            // The host answered for the plugin (deadline, dead or unavailable worker) and the plugin
            // asked for no outbound send since the call began: nothing reached the provider.
            logger.warning(
                "plugin call unanswered before sending",
                metadata: ["provider.account": "\(account.id)", "flow": "\(flow.rawValue)", "error": "\(error.code)"])
            return failed(Outcome(kind: .notSent, resultCode: error.code, message: error.message))
        } catch {
            logger.error(
                "plugin call failed",
                metadata: [
                    "provider.account": "\(account.id)", "flow": "\(flow.rawValue)", "error": "\(Self.describe(error))",
                ])
            let code = (error as? PluginCallError).map(\.code).flatMap { $0.isUnansweredAfterSending ? $0 : nil }
            return failed(Outcome(kind: .unknown, code: code?.rawValue, message: "the plugin failed during the call"))
        }
    }

    private enum TokenOutcome {
        case success(String)
        case failure(Outcome)
    }

    private func accessToken(plugin: LoadedPlugin, account: ProviderAccount) async -> TokenOutcome {
        let context = context(account, token: nil)
        let result = await tokens.token(account: account.id, kind: "server") {
            let fetched: AccessTokenResult
            do {
                fetched = try await plugin.call(
                    .accessToken, account: context, request: AccessTokenRequest(kind: "server"),
                    as: AccessTokenResult.self)
            } catch {
                fetched = AccessTokenResult(failure: .notSent("the access token could not be obtained"))
            }
            ProviderCallObservation.tokenFetched(plugin: account.pluginId, ok: fetched.token != nil)
            return fetched
        }
        if let token = result.token { return .success(token.token) }
        var failure = result.failure ?? .notSent("no access token")
        // A token request moves no money: whatever went wrong, the payment call was not sent.
        if failure.kind != .notSent {
            let code = failure.code ?? PluginResultCode.accessTokenFailed.rawValue
            failure = Outcome(kind: .notSent, code: code, message: failure.message)
        }
        return .failure(failure)
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? PluginCallError { return error.code.rawValue }
        return String(describing: type(of: error))
    }
}
