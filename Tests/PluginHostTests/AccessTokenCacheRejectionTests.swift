import Foundation
import Logging
import ProviderKit
import SwitchyardCore
import Synchronization
import Testing

@testable import PluginHost

/// Rejected tokens and a busy refresh lock, over the in-memory store.
struct AccessTokenCacheRejectionTests {
    let clock = TestClock()
    let account = UUID()

    /// A provider answering `t1`, `t2`, … and counting its calls.
    final class Provider: Sendable {
        let calls = Mutex(0)
        let clock: TestClock
        init(clock: TestClock) { self.clock = clock }
        var count: Int { calls.withLock { $0 } }
        var fetch: @Sendable () async -> AccessTokenResult {
            {
                let n = self.calls.withLock {
                    $0 += 1
                    return $0
                }
                return AccessTokenResult(
                    token: AccessToken(token: "t\(n)", expiresAt: self.clock.read().addingTimeInterval(3600)))
            }
        }
    }

    func cache(_ store: MemoryTokenStore) -> AccessTokenCache {
        AccessTokenCache(
            store: store, refreshMargin: 300, clock: { [clock] in clock.read() }, logger: Logger(label: "test"))
    }

    @Test func aLateRejectionKeepsTheNewerToken() async throws {
        let provider = Provider(clock: clock)
        let cache = cache(MemoryTokenStore())
        let fetch = provider.fetch
        #expect(await cache.token(account: account, kind: "server", fetch: fetch).token?.token == "t1")
        await cache.invalidate(account: account, kind: "server", token: "t1")
        #expect(await cache.token(account: account, kind: "server", fetch: fetch).token?.token == "t2")
        // A second caller that had also used t1 reports it only now.
        await cache.invalidate(account: account, kind: "server", token: "t1")
        #expect(await cache.token(account: account, kind: "server", fetch: fetch).token?.token == "t2")
        #expect(provider.count == 2)
    }

    @Test func aRejectedTokenIsNotTakenFromTheStoreButAnotherReplicasNewTokenIs() async throws {
        let store = MemoryTokenStore()
        let mine = cache(store)
        let theirs = cache(store)
        let provider = Provider(clock: clock)
        let fetch = provider.fetch
        #expect(await mine.token(account: account, kind: "server", fetch: fetch).token?.token == "t1")
        #expect(await theirs.token(account: account, kind: "server", fetch: fetch).token?.token == "t1")
        #expect(provider.count == 1, "the second replica found the stored token")

        // The provider rejects t1 at both replicas; only the first to refresh asks for a new one.
        await mine.invalidate(account: account, kind: "server", token: "t1")
        #expect(await mine.token(account: account, kind: "server", fetch: fetch).token?.token == "t2")
        await theirs.invalidate(account: account, kind: "server", token: "t1")
        #expect(await theirs.token(account: account, kind: "server", fetch: fetch).token?.token == "t2")
        #expect(provider.count == 2)
        #expect(store.lockHolds.withLock { $0 } == 2, "the store was read again without the lock first")
    }

    @Test func aBusyLockNeverFetchesBesideItsHolder() async throws {
        let store = MemoryTokenStore()
        store.lockAvailable.withLock { $0 = false }
        let cache = cache(store)
        let provider = Provider(clock: clock)
        let busy = await cache.token(account: account, kind: "server", fetch: provider.fetch)
        #expect(busy.token == nil)
        #expect(busy.failure?.kind == .notSent)
        #expect(busy.failure?.code == "access_token_busy")
        #expect(provider.count == 0)

        // What the holder stores is used once it is there, still without a fetch of our own.
        try await store.storeAccessToken(
            accountId: account, kind: "server", token: "theirs", expiresAt: clock.read().addingTimeInterval(3600))
        #expect(await cache.token(account: account, kind: "server", fetch: provider.fetch).token?.token == "theirs")
        #expect(provider.count == 0)
    }

    @Test func aStoredTokenInsideTheMarginIsRefreshed() async throws {
        let store = MemoryTokenStore()
        try await store.storeAccessToken(
            accountId: account, kind: "server", token: "old", expiresAt: clock.read().addingTimeInterval(299))
        let provider = Provider(clock: clock)
        let result = await cache(store).token(account: account, kind: "server", fetch: provider.fetch)
        #expect(result.token?.token == "t1")
        #expect(provider.count == 1)
        #expect(try await store.accessToken(accountId: account, kind: "server")?.token == "t1")
    }
}
