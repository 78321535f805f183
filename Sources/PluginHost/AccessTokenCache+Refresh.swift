import Foundation
import Logging
import ProviderKit
import SwitchyardCore

extension AccessTokenCache {
    /// Gets a token from the store, or from the provider under the store's refresh lock.
    nonisolated func refresh(
        _ key: Key, avoiding rejected: String?, fetch: @escaping @Sendable () async -> AccessTokenResult
    ) async -> AccessTokenResult {
        // Another replica may have refreshed the token already: then no lock is needed.
        if let token = await storedToken(key, avoiding: rejected) { return AccessTokenResult(token: token) }
        let metadata: Logger.Metadata = ["provider.account": "\(key.account)", "token.kind": "\(key.kind)"]
        let store = self.store
        do {
            let locked = try await store.withAccessTokenRefreshLock(
                accountId: key.account, kind: key.kind, wait: lockWait, lease: lockLease
            ) { () async -> AccessTokenResult in
                // Whoever held the lock before may have stored a fresh token.
                if let token = await self.storedToken(key, avoiding: rejected) {
                    return AccessTokenResult(token: token)
                }
                let result = await fetch()
                if let token = result.token {
                    do {
                        try await store.storeAccessToken(
                            accountId: key.account, kind: key.kind, token: token.token, expiresAt: token.expiresAt)
                    } catch {
                        self.logger.warning(
                            "access token not stored",
                            metadata: metadata.merging(["error": "\(type(of: error))"]) { $1 })
                    }
                }
                return result
            }
            if let locked { return locked }
        } catch {
            logger.error(
                "access token refresh lock unavailable",
                metadata: metadata.merging(["error": "\(type(of: error))"]) { $1 })
            return AccessTokenResult(
                failure: Outcome(
                    kind: .notSent, resultCode: .accessTokenUnavailable,
                    message: "the access token could not be refreshed: storage unavailable"))
        }
        // The lock stayed busy for `lockWait`: use what the holder stored, if anything; never fetch beside it.
        if let token = await storedToken(key, avoiding: rejected) { return AccessTokenResult(token: token) }
        logger.warning("access token refresh lock busy", metadata: metadata)
        return AccessTokenResult(
            failure: Outcome(
                kind: .notSent, resultCode: .accessTokenBusy,
                message: "another replica is refreshing the access token; try again"))
    }

    /// The stored token, when it is fresh and not the rejected one.
    nonisolated func storedToken(_ key: Key, avoiding rejected: String?) async -> AccessToken? {
        guard let stored = try? await store.accessToken(accountId: key.account, kind: key.kind),
            stored.token != rejected
        else { return nil }
        let token = AccessToken(token: stored.token, expiresAt: stored.expiresAt)
        return isFresh(token) ? token : nil
    }
}
