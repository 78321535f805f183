import Foundation
import Logging
import SwitchyardCore
import Testing

/// The janitor runs each retention delete at most once per `retention.interval_seconds`, and again on the
/// next look while the previous one deleted a full batch, however often it looks.
struct JanitorRetentionPacingTests {
    struct DatabaseGone: Error {}

    /// Counts the deletes asked of it, per kind, answering each with `deleted(kind)` rows or a failure.
    final class CountingRetention: RetentionRepository, RoutingOutcomeRetention, @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [String: Int] = [:]
        private let deleted: @Sendable (String) throws -> Int

        init(deleted: @escaping @Sendable (String) throws -> Int = { _ in 0 }) {
            self.deleted = deleted
        }

        func calls(_ kind: String) -> Int { lock.withLock { counts[kind] ?? 0 } }

        /// The deletes asked of every kind, routing outcomes included, in a stable order.
        var all: [Int] { (RetentionKind.allCases.map(\.rawValue) + ["routing_outcomes"]).map(calls) }

        private func count(_ kind: String) throws -> Int {
            lock.withLock { counts[kind, default: 0] += 1 }
            return try deleted(kind)
        }

        func deleteExpired(_ kind: RetentionKind, before cutoff: Date, limit: Int) async throws -> Int {
            try count(kind.rawValue)
        }

        func pruneRoutingOutcomes(before cutoff: Date, limit: Int) async throws -> Int {
            try count("routing_outcomes")
        }
    }

    static let batch = 10

    /// A janitor over `world` deleting through `store`, with a 60 s interval and batches of ``batch``.
    func janitor(_ world: DomainWorld, _ store: CountingRetention) -> PaymentJanitor {
        var policy = PlatformPolicy()
        policy.retention.intervalSeconds = 60
        policy.retention.batchSize = Self.batch
        world.service.policy.replace(policy)
        return PaymentJanitor(
            service: world.service, payments: world.payments, clock: world.clock.now,
            logger: Logger(label: "janitor-test", factory: { _ in SwiftLogNoOpLogHandler() }), retention: store,
            outcomes: store)
    }

    @Test func eachKindIsDeletedOncePerIntervalHoweverOftenTheJanitorLooks() async {
        let world = DomainWorld()
        let store = CountingRetention()
        let janitor = janitor(world, store)
        for _ in 0..<5 { await janitor.runOnce() }
        #expect(store.all == [1, 1, 1, 1, 1, 1], "the first look deletes every kind, the next four none")
        world.clock.advance(59)
        await janitor.runOnce()
        #expect(store.all == [1, 1, 1, 1, 1, 1], "59 s later")
        world.clock.advance(1)
        await janitor.runOnce()
        await janitor.runOnce()
        #expect(store.all == [2, 2, 2, 2, 2, 2], "once more after the interval")
    }

    @Test func aFullBatchIsFollowedByAnotherOnTheNextLook() async {
        let world = DomainWorld()
        // Three full batches of keys, then a short one; the other kinds have nothing.
        let backlog = Backlog(batches: [Self.batch, Self.batch, Self.batch, 3])
        let store = CountingRetention { $0 == RetentionKind.idempotencyKeys.rawValue ? backlog.next() : 0 }
        let janitor = janitor(world, store)
        for _ in 0..<6 { await janitor.runOnce() }
        #expect(store.calls(RetentionKind.idempotencyKeys.rawValue) == 4, "until a batch came back short")
        #expect(store.calls(RetentionKind.auditEntries.rawValue) == 1)
        world.clock.advance(60)
        await janitor.runOnce()
        #expect(store.calls(RetentionKind.idempotencyKeys.rawValue) == 5)
    }

    @Test func aFailedDeleteWaitsForTheIntervalToo() async {
        let world = DomainWorld()
        let store = CountingRetention { _ in throw DatabaseGone() }
        let janitor = janitor(world, store)
        for _ in 0..<3 { await janitor.runOnce() }
        #expect(store.all == [1, 1, 1, 1, 1, 1])
        world.clock.advance(60)
        await janitor.runOnce()
        #expect(store.all == [2, 2, 2, 2, 2, 2])
    }

    @Test func aClockThatWentBackMakesEveryKindDue() async {
        let world = DomainWorld()
        let store = CountingRetention()
        let janitor = janitor(world, store)
        await janitor.runOnce()
        world.clock.advance(-3600)
        await janitor.runOnce()
        #expect(store.all == [2, 2, 2, 2, 2, 2])
    }

    /// Rows deleted by successive deletes of one kind, then none.
    final class Backlog: @unchecked Sendable {
        private let lock = NSLock()
        private var batches: [Int]

        init(batches: [Int]) { self.batches = batches }

        func next() -> Int { lock.withLock { batches.isEmpty ? 0 : batches.removeFirst() } }
    }
}
