import Foundation
import Logging
import ProviderKit
import SwitchyardCore

/// Provider access tokens per account and kind, cached in memory and in the store shared by every
/// replica.
///
/// A token is refreshed ahead of expiry by `refreshMargin`, and at once after the provider rejected it
/// (``invalidate(account:kind:token:)``). A refresh is single-flight twice over: within this process
/// one task refreshes while the other callers wait for it, and across replicas that task first takes
/// the store's refresh lock (see `AccessTokenStore.withAccessTokenRefreshLock`), then reads the store
/// again and asks the provider only when the stored token is still missing, rejected or inside the
/// margin. When the lock cannot be had within `lockWait` (another replica's refresh hangs), the store
/// is read once more; without a usable token there, the caller gets a `notSent` failure with code
/// `access_token_busy` and no provider call is made. Tokens are never logged.
public actor AccessTokenCache {
    struct Key: Hashable, Sendable {
        var account: UUID
        var kind: String
    }

    let store: any AccessTokenStore
    let refreshMargin: TimeInterval
    let lockWait: Duration
    let lockLease: Duration
    let clock: @Sendable () -> Date
    let logger: Logger
    private var cached: [Key: AccessToken] = [:]
    /// The last token value the provider rejected, per key: never taken from the store again.
    private var rejected: [Key: String] = [:]
    private var inFlight: [Key: Task<AccessTokenResult, Never>] = [:]

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - refreshMargin: how long before its expiry a token is refreshed, in seconds.
    ///   - lockWait: how long a refresh waits for another replica's refresh of the same token; it should
    ///     exceed the provider timeout, so that a healthy refresh elsewhere is waited for.
    ///   - lockLease: how long a refresh may hold the lock before another replica may take it (the
    ///     holder having died); it should exceed the provider timeout and the store's own waits.
    public init(
        store: any AccessTokenStore, refreshMargin: TimeInterval, lockWait: Duration = .seconds(20),
        lockLease: Duration = .seconds(60), clock: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.store = store
        self.refreshMargin = refreshMargin
        self.lockWait = lockWait
        self.lockLease = lockLease
        self.clock = clock
        self.logger = logger
    }

    /// A usable token, fetched through `fetch` when none is cached or stored, or it is about to expire.
    public func token(
        account: UUID, kind: String, fetch: @escaping @Sendable () async -> AccessTokenResult
    ) async -> AccessTokenResult {
        let key = Key(account: account, kind: kind)
        if let token = cached[key], isFresh(token) { return AccessTokenResult(token: token) }
        if let task = inFlight[key] { return await task.value }
        let avoiding = rejected[key]
        let task = Task<AccessTokenResult, Never> { await self.refresh(key, avoiding: avoiding, fetch: fetch) }
        inFlight[key] = task
        let result = await task.value
        inFlight[key] = nil
        // A token rejected while the refresh ran is not kept (its callers still get it once).
        if let token = result.token, token.token != rejected[key] {
            cached[key] = token
            logger.debug("access token ready", metadata: ["provider.account": "\(account)", "token.kind": "\(kind)"])
        }
        return result
    }

    /// Forgets a token the provider rejected, so that the next caller refreshes it.
    ///
    /// `token` is the rejected value. When this replica already holds another (newer) token, nothing
    /// changes: a late rejection never throws away a refreshed token. The rejected value is never taken
    /// from the store again, so a replica that finds it there refreshes it, while one that finds a token
    /// another replica refreshed meanwhile uses that one. Without `token`, whatever this replica holds is
    /// treated as rejected.
    public func invalidate(account: UUID, kind: String, token: String? = nil) {
        let key = Key(account: account, kind: kind)
        guard let rejectedToken = token ?? cached[key]?.token else { return }
        if let current = cached[key], current.token != rejectedToken { return }
        cached[key] = nil
        rejected[key] = rejectedToken
        logger.debug("access token rejected", metadata: ["provider.account": "\(account)", "token.kind": "\(kind)"])
    }

    nonisolated func isFresh(_ token: AccessToken) -> Bool {
        token.expiresAt.timeIntervalSince(clock()) > refreshMargin
    }
}
