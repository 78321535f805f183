import Foundation
import Logging
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardTestSupport
import Synchronization
import TestWaiting
import Testing

@testable import SwitchyardStore

/// The provider token refresh lock: a lease row, holding no pooled connection while its body runs.
@Suite("Token refresh lock leases")
struct TokenLockLeaseTests {
    static let logger: Logger = {
        var logger = Logger(label: "test.token-locks")
        logger.logLevel = .warning
        return logger
    }()

    /// A migrated store whose pool has `size` connections.
    static func store(size: Int, url: String? = nil) async throws -> PostgresStore {
        let connectionString: String
        if let url { connectionString = url } else { connectionString = try await TestPostgres.freshDatabase() }
        let pool = try PGPool(
            PostgresConfiguration(connectionString: connectionString, poolSize: size),
            logger: logger)
        let store = PostgresStore(
            pool: pool, secrets: try SecretBox(key: SecureRandom.bytes(32)), clock: { Date() }, logger: logger)
        try await store.migrate()
        return store
    }

    static func locksHeld(_ store: PostgresStore) async throws -> Int64 {
        try await store.pool.withConnection { connection in
            try #require(try await connection.query("SELECT count(*) AS n FROM provider_token_locks").first).int64("n")
        }
    }

    @Test func twoSlowRefreshesLeaveAPoolOfTwoFreeForOtherWork() async throws {
        let store = try await Self.store(size: 2)
        let account = UUID()
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let finished = Counter()
        // The provider's slow token calls last until the other work below is done.
        let providerAnswers = Gate()
        let refreshes = Task {
            try await withThrowingTaskGroup(of: Int?.self) { group in
                for kind in ["server", "client"] {
                    group.addTask {
                        try await store.accessTokens.withAccessTokenRefreshLock(
                            accountId: account, kind: kind, wait: .seconds(5), lease: .seconds(30)
                        ) {
                            enteredContinuation.yield()
                            try await providerAnswers.wait()
                            finished.add()
                            return 1
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ?? 0) }
            }
        }
        var iterator = entered.makeAsyncIterator()
        for _ in 0..<2 { await iterator.next() }
        #expect(try await Self.locksHeld(store) == 2)

        // Twenty API-key checks and queries meanwhile: none waits for a connection.
        let clock = ContinuousClock()
        let start = clock.now
        // Bounded: had a refresh held a connection, the work below would wait for the refreshes, which wait for it.
        try await Deadline.within(.seconds(10), "other work beside two refreshes") {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        if index.isMultiple(of: 2) {
                            let key = try await store.tenants.authenticate(secret: "sk_unknown_\(index)")
                            #expect(key == nil)
                        } else {
                            let value = try await store.pool.withConnection { connection in
                                try #require(
                                    try await connection.query("SELECT $1::int AS v", [.int(Int64(index))]).first
                                )
                                .int64("v")
                            }
                            #expect(value == Int64(index))
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let elapsed = clock.now - start
        // Had a refresh held a connection, the other work could only have finished after the refreshes.
        #expect(finished.value == 0, "other work waited for the refreshes: \(elapsed)")
        providerAnswers.open()
        #expect(try await refreshes.value == 2)
        #expect(try await Self.locksHeld(store) == 0)
        await store.pool.shutdown()
    }

    @Test func aDeadHoldersLeaseExpiresAndItsLateReleaseKeepsTheNewHolders() async throws {
        let url = try await TestPostgres.freshDatabase()
        let a = try await Self.store(size: 2, url: url)
        let b = try await Self.store(size: 2, url: url)
        let account = UUID()
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let (resume, resumeContinuation) = AsyncStream<Void>.makeStream()
        // A holder that outlives its 200 ms lease (a replica that hung).
        let stale = Task {
            try await a.accessTokens.withAccessTokenRefreshLock(
                accountId: account, kind: "server", wait: .seconds(1), lease: .milliseconds(200)
            ) {
                enteredContinuation.yield()
                for await _ in resume { break }
                return "stale"
            }
        }
        var iterator = entered.makeAsyncIterator()
        await iterator.next()
        let (taken, takenContinuation) = AsyncStream<Void>.makeStream()
        let (done, doneContinuation) = AsyncStream<Void>.makeStream()
        let successor = Task {
            try await b.accessTokens.withAccessTokenRefreshLock(
                accountId: account, kind: "server", wait: .seconds(5), lease: .seconds(30)
            ) {
                takenContinuation.yield()
                for await _ in done { break }
                return "successor"
            }
        }
        var takenIterator = taken.makeAsyncIterator()
        await takenIterator.next()
        // The stale holder ends now: its release must not free the successor's lock.
        resumeContinuation.yield()
        #expect(try await stale.value == "stale")
        #expect(try await Self.locksHeld(a) == 1)
        let third = try await a.accessTokens.withAccessTokenRefreshLock(
            accountId: account, kind: "server", wait: .milliseconds(100), lease: .seconds(30)
        ) { "third" }
        #expect(third == nil, "the successor still held the lock")
        doneContinuation.yield()
        #expect(try await successor.value == "successor")
        #expect(try await Self.locksHeld(a) == 0)
        await a.pool.shutdown()
        await b.pool.shutdown()
    }

    @Test func theLockIsReleasedWhenTheHolderThrowsOrIsCancelled() async throws {
        let store = try await Self.store(size: 2)
        let account = UUID()
        await #expect(throws: CancellationError.self) {
            try await store.accessTokens.withAccessTokenRefreshLock(
                accountId: account, kind: "server", wait: .seconds(1), lease: .seconds(30)
            ) { () async throws -> Int in throw CancellationError() }
        }
        #expect(try await Self.locksHeld(store) == 0)
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await store.accessTokens.withAccessTokenRefreshLock(
                accountId: account, kind: "server", wait: .seconds(1), lease: .seconds(30)
            ) {
                enteredContinuation.yield()
                try await Hold.untilCancelled()
            }
        }
        var iterator = entered.makeAsyncIterator()
        await iterator.next()
        holder.cancel()
        await #expect(throws: CancellationError.self) { try await holder.value }
        #expect(try await Self.locksHeld(store) == 0)
        let next = try await store.accessTokens.withAccessTokenRefreshLock(
            accountId: account, kind: "server", wait: .zero, lease: .seconds(30)
        ) { 1 }
        #expect(next == 1)
        await store.pool.shutdown()
    }
}

/// A count shared by concurrent tasks.
final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}
