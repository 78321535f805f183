import Foundation
import ProviderKit

/// Everything that changed about one payment, committed atomically by the store.
public struct PaymentChanges: Sendable {
    public var payment: Payment?
    public var attempts: [Attempt]
    public var refunds: [Refund]
    public var operations: [PaymentOperation]

    public init(
        payment: Payment? = nil, attempts: [Attempt] = [], refunds: [Refund] = [], operations: [PaymentOperation] = []
    ) {
        self.payment = payment
        self.attempts = attempts
        self.refunds = refunds
        self.operations = operations
    }
}

/// A payment with everything that hangs off it.
public struct PaymentRecord: Sendable, Equatable {
    public var payment: Payment
    public var attempts: [Attempt]
    public var refunds: [Refund]
    public var operations: [PaymentOperation]

    public init(payment: Payment, attempts: [Attempt], refunds: [Refund], operations: [PaymentOperation]) {
        self.payment = payment
        self.attempts = attempts
        self.refunds = refunds
        self.operations = operations
    }

    /// The most recent attempt, if any.
    public var lastAttempt: Attempt? { attempts.max { $0.sequence < $1.sequence } }
}

/// Storage of payments and their parts. Every method commits before it returns.
public protocol PaymentRepository: Sendable {
    /// Upserts all changes in one transaction.
    func commit(_ changes: PaymentChanges) async throws
    /// Stores a new payment's first changes (the payment, and its first attempt when there is one) in one
    /// transaction. With `claim`, that transaction first claims the request's `Idempotency-Key`, stores the
    /// changes only when the claim lets the request go on (``IdempotencyClaim/proceed``, or a takeover of a
    /// key under which nothing was created) and records the payment under the key. Returns the claim
    /// (``IdempotencyClaim/proceed`` without one).
    func begin(_ changes: PaymentChanges, claim: IdempotencyScope?) async throws -> IdempotencyClaim
    /// A payment's routing decision and payment data are stored by the write that inserts the payment and
    /// never changed after: `body` of a transition sees the payment without them (``Payment/routing`` nil,
    /// ``Payment/paymentData`` empty), and nothing it sets there is stored.
    ///
    /// ``transition(tenant:paymentId:with:_:)`` that, when `concluding` holds for `body`'s result, also reads
    /// the payment's record in the same transaction and stores `answer(payment)` (when not nil; `payment` as
    /// `body` left it) as the outcome of its `Idempotency-Key`, if the answer's owner still owns the key.
    /// Returns the record read, and whether the answer was stored.
    func transition<T: Sendable>(
        tenant: UUID, paymentId: String, with changes: PaymentChanges,
        concluding: @escaping @Sendable (T) -> Bool,
        answer: @escaping @Sendable (Payment) -> IdempotentAnswer?,
        _ body: @escaping @Sendable (inout Payment) throws -> T
    ) async throws -> (T, PaymentRecord?, answered: Bool)
    /// Inserts a refund only if it fits the payment's refundable remainder, with the payment row locked.
    /// With `linking`, the same transaction records the refund under that `Idempotency-Key`, and nothing
    /// is stored (``ErrorCode/idempotencyInProgress``) when its request no longer owns the key.
    func reserveRefund(_ refund: Refund, linking: IdempotencyScope?) async throws
    /// Applies `body` to the stored refund with its payment's row and its own row locked, then stores the
    /// result (and the payment's refunded amount) in the same transaction when it changed, so a notification
    /// and a provider answer never overwrite each other. Returns `body`'s result, or nil when the tenant
    /// has no such refund.
    func transitionRefund<T: Sendable>(
        tenant: UUID, refundId: String, _ body: @escaping @Sendable (inout Refund) throws -> T
    ) async throws -> T?
    func record(tenant: UUID, paymentId: String) async throws -> PaymentRecord?
    /// System scope: the attempt with this id at this account.
    func attempt(accountId: UUID, attemptId: String) async throws -> Attempt?
    /// System scope: the attempt with this provider id at this account.
    func attempt(accountId: UUID, providerPaymentId: String) async throws -> Attempt?
    /// System scope: a refund by id.
    func refund(id: String) async throws -> Refund?
    /// System scope: open payments (requires_action, processing, unknown) last tried at an account.
    func openPayments(accountId: UUID, limit: Int) async throws -> [(tenant: UUID, paymentId: String)]
    /// System scope: claims up to `limit` unknown payments whose next sync is due at `now` (a payment
    /// never synced is due `firstDelay` after it became unknown), skipping rows another replica holds,
    /// and moves their due time to `leaseUntil` so no other janitor takes them meanwhile.
    func claimUnresolved(now: Date, firstDelay: TimeInterval, leaseUntil: Date, limit: Int) async throws
        -> [(tenant: UUID, paymentId: String)]
    /// System scope: claims up to `limit` `processing` payments neither updated nor with an attempt started
    /// after `cutoff`, skipping rows another replica holds, and leases them until `leaseUntil`.
    func claimStaleProcessing(now: Date, cutoff: Date, leaseUntil: Date, limit: Int) async throws
        -> [(tenant: UUID, paymentId: String)]
    /// System scope: payments flagged for manual review, oldest first.
    func paymentsForReview(tenant: UUID?, limit: Int) async throws -> [Payment]
    /// System scope: claims up to `limit` payments waiting for the app whose client session expired at or
    /// before `now` and was not swept since (or `retryAfter` ago, while `horizon` past the expiry lasts;
    /// past it, once more if not swept since it passed), skipping rows another replica holds, and marks
    /// them swept.
    func claimExpiredSessions(now: Date, retryAfter: TimeInterval, horizon: TimeInterval, limit: Int) async throws
        -> [(tenant: UUID, paymentId: String)]
    /// System scope: claims up to `limit` payments waiting for the app whose client session is past half
    /// its life (see ``SessionHalfLife``) but not expired and was not synced since that point, skipping rows
    /// another replica holds, and marks them synced.
    func claimHalfLifeSessions(now: Date, limit: Int) async throws -> [(tenant: UUID, paymentId: String)]
    /// Records that a notification settled a payment of `accountId` that waited for the customer's app,
    /// `seconds` after the payment was created.
    func recordNotificationDelay(tenant: UUID, accountId: UUID, seconds: TimeInterval, at time: Date) async throws
    /// System scope: each account's `percentile` (nearest rank, 1–100) of the delays recorded since
    /// `since`, for the accounts with at least `minSamples` of them (see ``OverdueNotifications``).
    func observedNotificationDelays(since: Date, percentile: Int, minSamples: Int) async throws -> [UUID: TimeInterval]
    /// System scope: deletes at most `limit` delays recorded before `cutoff`; returns how many.
    func pruneNotificationDelays(before cutoff: Date, limit: Int) async throws -> Int
    /// System scope: claims payments waiting for the app whose notification is overdue at `now`: past their
    /// account's threshold after creation (`thresholds`, `fallback` for accounts without one) the first
    /// time, then `interval(n)` after the n-th overdue inquiry; at most `perAccount` per account and `limit`
    /// in all, skipping rows another replica holds. Each is marked inquired and scheduled for the next.
    func claimOverdueWaiting(
        now: Date, thresholds: [UUID: TimeInterval], fallback: TimeInterval, policy: OverdueNotifications,
        perAccount: Int, limit: Int
    ) async throws -> [(tenant: UUID, paymentId: String)]
}

extension PaymentRepository {
    /// Applies `body` to the current stored payment with its row locked, then stores the result and the
    /// other `changes` in the same transaction, so concurrent transitions (a notification arriving while a
    /// provider call is in flight) never overwrite each other.
    public func transition<T: Sendable>(
        tenant: UUID, paymentId: String, with changes: PaymentChanges,
        _ body: @escaping @Sendable (inout Payment) throws -> T
    ) async throws -> T {
        try await transition(
            tenant: tenant, paymentId: paymentId, with: changes, concluding: { _ in false }, answer: { _ in nil }, body
        ).0
    }

    /// ``reserveRefund(_:linking:)`` outside any `Idempotency-Key`.
    public func reserveRefund(_ refund: Refund) async throws {
        try await reserveRefund(refund, linking: nil)
    }
}

/// Storage of provider accounts and routing rules.
public protocol ConfigurationRepository: Sendable {
    /// A tenant's account, secrets decrypted.
    func account(tenant: UUID, id: UUID) async throws -> ProviderAccount?
    /// All of a tenant's accounts, secrets decrypted.
    func accounts(tenant: UUID) async throws -> [ProviderAccount]
    /// System scope: any account by id, secrets decrypted.
    func account(id: UUID) async throws -> ProviderAccount?
    func routingRules(tenant: UUID) async throws -> [RoutingRule]
    /// The tenant's rules with their version.
    func routingConfiguration(tenant: UUID) async throws -> RoutingConfiguration
    /// The tenant's own limits (empty when it has none).
    func tenantPolicy(tenant: UUID) async throws -> TenantPolicy
    /// All of a tenant's accounts for routing: secret credential fields are left out (not decrypted).
    func accountDescriptors(tenant: UUID) async throws -> [ProviderAccount]
}

extension ConfigurationRepository {
    /// By default the accounts with their secrets.
    public func accountDescriptors(tenant: UUID) async throws -> [ProviderAccount] {
        try await accounts(tenant: tenant)
    }
}

/// Calls provider plugins for an account. Implementations own access tokens, timeouts and plugin errors:
/// they never throw for a provider call, they classify.
public protocol ProviderGateway: Sendable {
    func manifest(pluginId: String) async -> PluginManifest?
    func authorize(_ request: AuthorizeRequest, account: ProviderAccount) async -> Outcome
    func complete(_ request: CompleteRequest, account: ProviderAccount) async -> Outcome
    func capture(_ request: CaptureRequest, account: ProviderAccount) async -> Outcome
    func void(_ request: VoidRequest, account: ProviderAccount) async -> Outcome
    func refund(_ request: RefundRequest, account: ProviderAccount) async -> Outcome
    func sync(_ request: SyncRequest, account: ProviderAccount) async -> Outcome
    /// Asks the provider for one refund's state; `notSent` (code `not_supported`) without a call when the
    /// account's plugin has no refund inquiry.
    func syncRefund(_ request: SyncRefundRequest, account: ProviderAccount) async -> Outcome
    func notification(_ request: NotificationRequest, account: ProviderAccount) async throws -> NotificationResult
    func vaultingSession(_ request: VaultingSessionRequest, account: ProviderAccount) async -> Outcome
    func syncVaulting(_ request: VaultingSyncRequest, account: ProviderAccount) async -> VaultingSyncResult
    /// Asks the provider to revoke a stored credential; `notSupported` without a call when the account's
    /// plugin does not offer it.
    func revokeCredential(_ request: RevokeCredentialRequest, account: ProviderAccount) async
        -> RevokeCredentialResult
    /// Sends the merchant's `answer` to the provider's dispute `providerDisputeId` through the account's
    /// plugin; ``DisputeAnswerResult/unsupported`` without a call when the plugin offers no such API.
    func answerDispute(_ answer: DisputeAnswer, providerDisputeId: String, account: ProviderAccount) async
        -> DisputeAnswerResult
}

/// Durable storage of provider access tokens (encrypted at rest by the implementation), shared by every
/// replica that uses the same storage.
public protocol AccessTokenStore: Sendable {
    func accessToken(accountId: UUID, kind: String) async throws -> (token: String, expiresAt: Date)?
    func storeAccessToken(accountId: UUID, kind: String, token: String, expiresAt: Date) async throws
    /// Runs `body` while holding the refresh lock of one account's token of one kind, which at most one
    /// caller among all replicas holds at a time, waiting at most `wait` for it.
    ///
    /// The lock is released however `body` ends (it returns, throws or is cancelled); a holder that
    /// dies keeps it at most `lease`, which should outlast `body` (a provider call). Holding the lock
    /// ties up no storage resource (such as a pooled connection) while `body` runs.
    ///
    /// - Returns: what `body` returned, or nil when the lock could not be had within `wait` (`body` did
    ///   not run then).
    /// - Throws: `CancellationError` when cancelled while waiting, a storage error, or whatever `body`
    ///   throws.
    func withAccessTokenRefreshLock<T: Sendable>(
        accountId: UUID, kind: String, wait: Duration, lease: Duration, _ body: @Sendable () async throws -> T
    ) async throws -> T?
}

/// Customers' stored credentials. Tokens are sealed at rest by the implementation.
public protocol CredentialRepository: Sendable {
    /// Inserts or updates a credential (the token is sealed; its digest kept for look-ups).
    func saveCredential(_ credential: StoredPaymentMethod) async throws
    /// Applies `body` to the stored credential with its row locked and stores the result when `body`
    /// returns true, so a concurrent change (a provider's notification) is never overwritten. Returns the
    /// credential as it now stands, or nil when there is none.
    func updateCredential(tenant: UUID, id: String, _ body: @escaping @Sendable (inout StoredPaymentMethod) -> Bool)
        async throws -> StoredPaymentMethod?
    func credential(tenant: UUID, id: String) async throws -> StoredPaymentMethod?
    /// The credential an account's notification refers to, by the correlation id it echoes.
    func credential(tenant: UUID, accountId: UUID, correlationId: String) async throws -> StoredPaymentMethod?
    /// The credential holding `token` at an account.
    func credential(tenant: UUID, accountId: UUID, token: String) async throws -> StoredPaymentMethod?
    /// A customer's credentials, newest first, without their tokens.
    func credentials(tenant: UUID, customerId: String) async throws -> [StoredPaymentMethod]
    /// The rows of `page` (see ``PageRequest/page(_:)``) of a customer's credentials, without their tokens.
    func credentials(tenant: UUID, customerId: String, page: PageRequest) async throws -> [StoredPaymentMethod]
    /// System scope: pending credentials whose vaulting session expired at or before `now`, or whose
    /// payment went on at another account (a failover), oldest first.
    func stalePendingCredentials(now: Date, limit: Int) async throws -> [(tenant: UUID, id: String)]
}
