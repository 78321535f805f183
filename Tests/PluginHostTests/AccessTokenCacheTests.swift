import Foundation
import Logging
import ProviderKit
import SwitchyardCore
import Synchronization
import Testing

@testable import PluginHost

/// An in-memory token store and a clock the test moves.
final class MemoryTokenStore: AccessTokenStore, Sendable {
    let tokens = Mutex<[String: (String, Date)]>([:])

    func accessToken(accountId: UUID, kind: String) async throws -> (token: String, expiresAt: Date)? {
        tokens.withLock { $0["\(accountId)/\(kind)"] }.map { (token: $0.0, expiresAt: $0.1) }
    }

    func storeAccessToken(accountId: UUID, kind: String, token: String, expiresAt: Date) async throws {
        tokens.withLock { $0["\(accountId)/\(kind)"] = (token, expiresAt) }
    }

    /// Whether the refresh lock can be had (false plays another replica holding it past the wait).
    let lockAvailable = Mutex(true)
    /// How many times a caller held the refresh lock.
    let lockHolds = Mutex(0)

    func withAccessTokenRefreshLock<T: Sendable>(
        accountId: UUID, kind: String, wait: Duration, lease: Duration, _ body: @Sendable () async throws -> T
    ) async throws -> T? {
        guard lockAvailable.withLock({ $0 }) else { return nil }
        lockHolds.withLock { $0 += 1 }
        return try await body()
    }
}

final class TestClock: Sendable {
    let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    func advance(_ seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
    func read() -> Date { now.withLock { $0 } }
}

struct AccessTokenCacheTests {
    @Test func refreshesAheadOfExpiryAndFetchesOnceForConcurrentCallers() async throws {
        let clock = TestClock()
        let fetches = Mutex(0)
        let cache = AccessTokenCache(
            store: MemoryTokenStore(), refreshMargin: 300, clock: { clock.read() }, logger: Logger(label: "test"))
        let account = UUID()
        let fetch: @Sendable () async -> AccessTokenResult = {
            let n = fetches.withLock {
                $0 += 1; return $0
            }
            // The provider's latency is the subject: callers arriving during the fetch share it.
            try? await Task.sleep(for: .milliseconds(50))
            return AccessTokenResult(
                token: AccessToken(token: "t\(n)", expiresAt: clock.read().addingTimeInterval(3600)))
        }
        let tokens = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<50 {
                group.addTask { await cache.token(account: account, kind: "server", fetch: fetch).token?.token }
            }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(Set(tokens) == ["t1"], "one fetch served every concurrent caller")
        #expect(fetches.withLock { $0 } == 1)
        clock.advance(3600 - 301)
        #expect(
            await cache.token(account: account, kind: "server", fetch: fetch).token?.token == "t1",
            "still outside the margin")
        clock.advance(2)
        #expect(
            await cache.token(account: account, kind: "server", fetch: fetch).token?.token == "t2",
            "refreshed inside the margin")
        await cache.invalidate(account: account, kind: "server")
        #expect(
            await cache.token(account: account, kind: "server", fetch: fetch).token?.token == "t3",
            "refetched after a rejection")
    }
}
