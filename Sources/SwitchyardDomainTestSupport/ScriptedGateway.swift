import Foundation
import ProviderKit
import SwitchyardCore
import Synchronization

/// A ``ProviderGateway`` whose answers each test scripts per flow (and, optionally, per account), and
/// which records every call it receives, so a test can count provider calls.
///
/// An answer is taken from the queue of the flow at the called account, else from the flow's queue for
/// any account; a call with no scripted answer is recorded in ``unscripted`` and answered `unknown`
/// (code `unscripted`), which neither fails over nor settles anything.
public final class ScriptedGateway: ProviderGateway, Sendable {
    /// One call the gateway received.
    public struct Call: Sendable, Equatable {
        public var flow: Flow
        public var accountId: UUID
        /// The payment's id (authorize), else the attempt's id the call locates the payment by.
        public var reference: String?
        /// The operation's own id: the attempt, capture, void, refund or completion id.
        public var operationId: String?
        public var amount: Int64?
        /// The stored credential an authorize pays with.
        public var storedCredentialId: String?
        /// The correlation id of the credential an authorize asks the provider to set up.
        public var setupCorrelationId: String?
    }

    private struct Key: Hashable {
        var flow: Flow
        var accountId: UUID?
    }

    private struct State {
        var manifests: [String: PluginManifest] = [:]
        var answers: [Key: [Outcome]] = [:]
        var vaultingSyncs: [VaultingSyncResult] = []
        var revocations: [RevokeCredentialResult] = []
        var notifications: [(events: [NotificationEvent], disputes: [DisputeEvent])] = []
        var disputeAnswers: [DisputeAnswerResult] = []
        var answered: [DisputeAnswer] = []
        var recorded: [Call] = []
        var missing: [Call] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Declares a plugin: its manifest is what routing and the service read.
    public func register(_ manifest: PluginManifest) {
        state.withLock { $0.manifests[manifest.id] = manifest }
    }

    /// Queues answers to `flow` calls, at `account` only when given.
    public func script(_ flow: Flow, at account: UUID? = nil, _ outcomes: Outcome...) {
        state.withLock { $0.answers[Key(flow: flow, accountId: account), default: []].append(contentsOf: outcomes) }
    }

    /// Queues one verified notification carrying `events`; an unscripted notification is refused as
    /// unverifiable.
    public func scriptNotification(_ events: NotificationEvent...) {
        state.withLock { $0.notifications.append((events, [])) }
    }

    /// Queues the provider's results of the next dispute answers; with none queued a plugin has no dispute API
    /// (``DisputeAnswerResult/unsupported``).
    public func scriptDisputeAnswers(_ results: DisputeAnswerResult...) {
        state.withLock { $0.disputeAnswers.append(contentsOf: results) }
    }

    /// The dispute answers sent to a provider so far, oldest first.
    public var disputeAnswersSent: [DisputeAnswer] { state.withLock { $0.answered } }

    public func answerDispute(_ answer: DisputeAnswer, providerDisputeId: String, account: ProviderAccount) async
        -> DisputeAnswerResult
    {
        state.withLock { state in
            guard !state.disputeAnswers.isEmpty else { return .unsupported }
            state.answered.append(answer)
            return state.disputeAnswers.removeFirst()
        }
    }

    /// Queues one verified notification carrying `disputes`.
    public func scriptDisputeNotification(_ disputes: DisputeEvent...) {
        state.withLock { $0.notifications.append(([], disputes)) }
    }

    /// Queues answers to vaulting inquiries.
    public func scriptVaultingSync(_ results: VaultingSyncResult...) {
        state.withLock { $0.vaultingSyncs.append(contentsOf: results) }
    }

    /// Queues answers to credential revocations.
    public func scriptRevocation(_ results: RevokeCredentialResult...) {
        state.withLock { $0.revocations.append(contentsOf: results) }
    }

    /// Every call so far, in order.
    public var calls: [Call] { state.withLock { $0.recorded } }

    /// The calls of one flow so far.
    public func calls(_ flow: Flow) -> [Call] { calls.filter { $0.flow == flow } }

    /// Calls that found no scripted answer.
    public var unscripted: [Call] { state.withLock { $0.missing } }

    /// A manifest for a test plugin: every flow by default, paying with `methods` in any country and currency.
    public static func manifest(
        _ id: String, flows: [Flow] = Flow.allCases, methods: [String] = ["card", "alipay"],
        honoursIdempotencyKey: Bool = true
    ) -> PluginManifest {
        PluginManifest(
            id: id, version: "1.0.0", provider: id, abiVersion: 1, flows: flows, methods: methods, countries: [],
            currencies: [], honoursIdempotencyKey: honoursIdempotencyKey, usesAccessToken: false, credentials: [])
    }

    public func manifest(pluginId: String) async -> PluginManifest? {
        state.withLock { $0.manifests[pluginId] }
    }

    public func authorize(_ request: AuthorizeRequest, account: ProviderAccount) async -> Outcome {
        answer(
            Call(
                flow: .authorize, accountId: account.id, reference: request.paymentId, operationId: request.attemptId,
                amount: request.amount, storedCredentialId: request.storedCredential?.id,
                setupCorrelationId: request.credentialSetup?.correlationId))
    }

    public func complete(_ request: CompleteRequest, account: ProviderAccount) async -> Outcome {
        answer(call(.complete, account, request.payment, request.operationId, request.amount))
    }

    public func capture(_ request: CaptureRequest, account: ProviderAccount) async -> Outcome {
        answer(call(.capture, account, request.payment, request.operationId, request.amount))
    }

    public func void(_ request: VoidRequest, account: ProviderAccount) async -> Outcome {
        answer(call(.void, account, request.payment, request.operationId, nil))
    }

    public func refund(_ request: RefundRequest, account: ProviderAccount) async -> Outcome {
        answer(call(.refund, account, request.payment, request.refundId, request.amount))
    }

    public func sync(_ request: SyncRequest, account: ProviderAccount) async -> Outcome {
        answer(call(.sync, account, request.payment, nil, nil))
    }

    public func syncRefund(_ request: SyncRefundRequest, account: ProviderAccount) async -> Outcome {
        guard await supports(.syncRefund, account) else {
            return Outcome(kind: .notSent, code: "not_supported", message: "the plugin has no refund inquiry")
        }
        return answer(call(.syncRefund, account, request.payment, request.refundId, nil))
    }

    public func notification(_ request: NotificationRequest, account: ProviderAccount) async throws
        -> NotificationResult
    {
        let scripted = state.withLock { state in
            state.notifications.isEmpty ? nil : state.notifications.removeFirst()
        }
        record(Call(flow: .notification, accountId: account.id), found: scripted != nil)
        if let scripted {
            return NotificationResult(
                verified: true, reply: NotificationReply(status: 200, body: "ok"), events: scripted.events,
                disputes: scripted.disputes)
        }
        return NotificationResult(
            verified: false, reply: NotificationReply(status: 400, body: ""), events: [],
            failureReason: "no scripted notification")
    }

    public func vaultingSession(_ request: VaultingSessionRequest, account: ProviderAccount) async -> Outcome {
        answer(Call(flow: .vaultingSession, accountId: account.id, reference: request.vaultingId))
    }

    public func syncVaulting(_ request: VaultingSyncRequest, account: ProviderAccount) async -> VaultingSyncResult {
        let call = Call(flow: .syncVaulting, accountId: account.id, reference: request.vaultingId)
        let next: VaultingSyncResult? = state.withLock { state in
            state.vaultingSyncs.isEmpty ? nil : state.vaultingSyncs.removeFirst()
        }
        record(call, found: next != nil)
        return next ?? VaultingSyncResult(event: nil, failure: .unknown("unscripted"))
    }

    public func revokeCredential(_ request: RevokeCredentialRequest, account: ProviderAccount) async
        -> RevokeCredentialResult
    {
        guard await supports(.revokeCredential, account) else {
            return RevokeCredentialResult(status: .notSupported)
        }
        let call = Call(flow: .revokeCredential, accountId: account.id, operationId: request.operationId)
        let next: RevokeCredentialResult? = state.withLock { state in
            state.revocations.isEmpty ? nil : state.revocations.removeFirst()
        }
        record(call, found: next != nil)
        return next ?? RevokeCredentialResult(status: .unknown, code: "unscripted")
    }

    private func supports(_ flow: Flow, _ account: ProviderAccount) async -> Bool {
        await manifest(pluginId: account.pluginId)?.flows.contains(flow) == true
    }

    private func call(
        _ flow: Flow, _ account: ProviderAccount, _ payment: PaymentLocator, _ id: String?, _ amount: Int64?
    )
        -> Call
    {
        Call(flow: flow, accountId: account.id, reference: payment.attemptId, operationId: id, amount: amount)
    }

    /// Records `call` and takes its scripted answer.
    private func answer(_ call: Call) -> Outcome {
        let outcome: Outcome? = state.withLock { state in
            for key in [Key(flow: call.flow, accountId: call.accountId), Key(flow: call.flow, accountId: nil)] {
                if var queue = state.answers[key], !queue.isEmpty {
                    let first = queue.removeFirst()
                    state.answers[key] = queue
                    return first
                }
            }
            return nil
        }
        record(call, found: outcome != nil)
        return outcome ?? Outcome(kind: .unknown, code: "unscripted", message: "no scripted answer")
    }

    private func record(_ call: Call, found: Bool) {
        state.withLock { state in
            state.recorded.append(call)
            if !found { state.missing.append(call) }
        }
    }
}
