import Foundation
import Logging
import PluginHost
import ProviderKit
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardStore
import SwitchyardTestSupport
import Synchronization
import TestWaiting
import Testing

/// Two replicas (a pool, a store and a token cache each) on one database refresh a token once between
/// them.
@Suite struct AccessTokenReplicaTests {
    struct Replica {
        var pool: PGPool
        var store: PostgresStore
        var cache: AccessTokenCache
    }

    /// A provider whose token call takes `delay`, answers `t1`, `t2`, … (or fails) and counts calls.
    final class Provider: Sendable {
        let calls = Mutex(0)
        let failing = Mutex(false)
        let delay: Duration
        init(delay: Duration = .milliseconds(200)) { self.delay = delay }
        var count: Int { calls.withLock { $0 } }

        var fetch: @Sendable () async -> AccessTokenResult {
            {
                let n = self.calls.withLock {
                    $0 += 1
                    return $0
                }
                // The provider's latency is the subject: what other replicas do while a fetch is slow.
                try? await Task.sleep(for: self.delay)
                if self.failing.withLock({ $0 }) {
                    return AccessTokenResult(failure: Outcome(kind: .declined, code: "4010", message: "bad key"))
                }
                return AccessTokenResult(
                    token: AccessToken(token: "tok-\(n)", expiresAt: Date().addingTimeInterval(86_400)))
            }
        }
    }

    static let logger: Logger = {
        var logger = Logger(label: "test.tokens")
        logger.logLevel = .warning
        return logger
    }()

    /// Two replicas on a fresh, migrated database, sharing the encryption key as real replicas do.
    static func withReplicas(
        lockWait: Duration = .seconds(20), _ body: (Replica, Replica) async throws -> Void
    ) async throws {
        let url = try await TestPostgres.freshSwitchyardDatabase().appURL
        let secrets = try SecretBox(key: SecureRandom.bytes(32))
        var replicas: [Replica] = []
        for _ in 0..<2 {
            let pool = try PGPool(PostgresConfiguration(connectionString: url, poolSize: 4), logger: logger)
            let store = PostgresStore(pool: pool, secrets: secrets, clock: { Date() }, logger: logger)
            try await store.migrate()
            let cache = AccessTokenCache(
                store: store.accessTokens, refreshMargin: 300, lockWait: lockWait, clock: { Date() }, logger: logger)
            replicas.append(Replica(pool: pool, store: store, cache: cache))
        }
        do {
            try await body(replicas[0], replicas[1])
        } catch {
            for replica in replicas { await replica.pool.shutdown() }
            throw error
        }
        for replica in replicas { await replica.pool.shutdown() }
    }

    /// `perReplica` concurrent callers on each replica; the token values they got.
    static func burst(
        _ replicas: [Replica], account: UUID, perReplica: Int = 100, provider: Provider
    ) async -> [String?] {
        await withTaskGroup(of: String?.self) { group in
            for replica in replicas {
                for _ in 0..<perReplica {
                    group.addTask {
                        await replica.cache.token(account: account, kind: "server", fetch: provider.fetch).token?.token
                    }
                }
            }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
    }

    /// Refresh locks held (lease rows present) in the replicas' database.
    static func tokenLocksHeld(_ pool: PGPool) async throws -> Int64 {
        try await pool.withConnection { connection in
            try #require(try await connection.query("SELECT count(*) AS n FROM provider_token_locks").first).int64("n")
        }
    }

    @Test func twoHundredCallersOnTwoColdReplicasFetchOnce() async throws {
        try await Self.withReplicas(lockWait: .seconds(20)) { (a: Replica, b: Replica) async throws in
            let provider = Provider()
            let account = UUID()
            let clock = ContinuousClock()
            let start = clock.now
            let tokens = await Self.burst([a, b], account: account, provider: provider)
            let elapsed = clock.now - start
            #expect(tokens.count == 200)
            #expect(Set(tokens) == ["tok-1"], "every caller of both replicas got the one token")
            #expect(provider.count == 1)
            #expect(elapsed < .seconds(10), "the second replica did not wait out its lock wait: \(elapsed)")
            #expect(try await Self.tokenLocksHeld(a.pool) == 0)
            // Encrypted at rest.
            let raw = try await a.pool.withConnection { connection in
                try #require(try await connection.query("SELECT token_encrypted FROM provider_tokens").first)
                    .string("token_encrypted")
            }
            #expect(!raw.contains("tok-1"))

            // Both replicas see the token rejected; the next burst fetches exactly once more.
            await a.cache.invalidate(account: account, kind: "server", token: "tok-1")
            await b.cache.invalidate(account: account, kind: "server", token: "tok-1")
            let again = await Self.burst([a, b], account: account, provider: provider)
            #expect(Set(again) == ["tok-2"])
            #expect(provider.count == 2)

            // A replica that learns of the rejection only after the other refreshed does not refresh again.
            await a.cache.invalidate(account: account, kind: "server", token: "tok-2")
            #expect(await Self.burst([a], account: account, provider: provider).allSatisfy { $0 == "tok-3" })
            await b.cache.invalidate(account: account, kind: "server", token: "tok-2")
            #expect(await Self.burst([b], account: account, provider: provider).allSatisfy { $0 == "tok-3" })
            #expect(provider.count == 3)
        }
    }

    @Test func aFailedFetchReleasesTheLockForTheNextCaller() async throws {
        try await Self.withReplicas(lockWait: .seconds(2)) { (a: Replica, b: Replica) async throws in
            let provider = Provider(delay: .milliseconds(50))
            let account = UUID()
            provider.failing.withLock { $0 = true }
            let failed = await a.cache.token(account: account, kind: "server", fetch: provider.fetch)
            #expect(failed.token == nil)
            #expect(failed.failure?.code == "4010")
            #expect(try await Self.tokenLocksHeld(a.pool) == 0)
            provider.failing.withLock { $0 = false }
            // A lock left held would make this caller give up with access_token_busy.
            let next = await b.cache.token(account: account, kind: "server", fetch: provider.fetch)
            #expect(next.token?.token == "tok-2")
            #expect(provider.count == 2)
        }
    }

    @Test func aReplicaThatCannotGetTheLockInTimeDoesNotFetch() async throws {
        try await Self.withReplicas(lockWait: .milliseconds(300)) { (a: Replica, b: Replica) async throws in
            let slow = Provider(delay: .seconds(3))
            let account = UUID()
            let holder = Task { await a.cache.token(account: account, kind: "server", fetch: slow.fetch) }
            // Wait until replica A holds the lock and is inside its slow fetch.
            try await Poll.until("replica A's fetch", within: .seconds(2), every: .milliseconds(10)) { slow.count > 0 }
            try #require(slow.count == 1)
            let other = Provider()
            let busy = await b.cache.token(account: account, kind: "server", fetch: other.fetch)
            #expect(busy.token == nil)
            #expect(busy.failure?.kind == .notSent)
            #expect(busy.failure?.code == "access_token_busy")
            #expect(other.count == 0)
            #expect(await holder.value.token?.token == "tok-1")
            // Once A has stored its token, B uses it.
            #expect(await b.cache.token(account: account, kind: "server", fetch: other.fetch).token?.token == "tok-1")
            #expect(other.count == 0)
        }
    }
}
