import Foundation
import Logging
import ProviderKit
import SwitchyardCore

/// Provider access tokens per account: cached in memory and in the store, refreshed ahead of expiry
/// by `refreshMargin`, fetched by one caller at a time per account (the others wait for it), and
/// discarded when the provider rejects them.
public actor AccessTokenCache {
    private struct Key: Hashable {
        var account: UUID
        var kind: String
    }

    private let store: any AccessTokenStore
    private let refreshMargin: TimeInterval
    private let clock: @Sendable () -> Date
    private let logger: Logger
    private var cached: [Key: AccessToken] = [:]
    private var inFlight: [Key: Task<AccessTokenResult, Never>] = [:]

    public init(
        store: any AccessTokenStore, refreshMargin: TimeInterval, clock: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.store = store
        self.refreshMargin = refreshMargin
        self.clock = clock
        self.logger = logger
    }

    /// A usable token, fetched through `fetch` when none is cached or it is about to expire.
    public func token(
        account: UUID, kind: String, fetch: @escaping @Sendable () async -> AccessTokenResult
    ) async -> AccessTokenResult {
        let key = Key(account: account, kind: kind)
        if let token = cached[key], isFresh(token) { return AccessTokenResult(token: token) }
        if let task = inFlight[key] { return await task.value }
        let store = self.store
        let task = Task<AccessTokenResult, Never> {
            if let stored = try? await store.accessToken(accountId: account, kind: kind) {
                let token = AccessToken(token: stored.token, expiresAt: stored.expiresAt)
                if self.isFresh(token) { return AccessTokenResult(token: token) }
            }
            let result = await fetch()
            if let token = result.token {
                try? await store.storeAccessToken(
                    accountId: account, kind: kind, token: token.token, expiresAt: token.expiresAt)
            }
            return result
        }
        inFlight[key] = task
        let result = await task.value
        inFlight[key] = nil
        if let token = result.token {
            cached[key] = token
            logger.debug("access token ready", metadata: ["provider.account": "\(account)", "token.kind": "\(kind)"])
        }
        return result
    }

    /// Forgets a token the provider rejected, so the next caller fetches a new one.
    public func invalidate(account: UUID, kind: String) async {
        cached[Key(account: account, kind: kind)] = nil
        try? await store.discardAccessToken(accountId: account, kind: kind)
    }

    nonisolated private func isFresh(_ token: AccessToken) -> Bool {
        token.expiresAt.timeIntervalSince(clock()) > refreshMargin
    }
}
