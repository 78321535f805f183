import Foundation
import Logging
import SwitchyardCore
import SwitchyardDomainTestSupport
import TestWaiting
import Testing

/// The claims of requests that ended during a database outage are released once it answers again, by a
/// worker that backs off while it stays away; a release the owner no longer needs changes nothing.
struct PendingKeyReleasesTests {
    static let logger = Logger(label: "releases-test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func theWorkerBacksOffDuringTheOutageAndReleasesOnceTheDatabaseAnswers() async throws {
        let payments = InMemoryPaymentRepository()
        let tenant = UUID()
        #expect(
            try await payments.claimIdempotent(tenant: tenant, key: "k", requestHash: "h", owner: "gone", lease: 60)
                == .proceed)
        let releases = PendingKeyReleases(claims: payments, logger: Self.logger)
        payments.outage.set(down: true)
        await releases.release(.init(tenant: tenant, key: "k", owner: "gone"))
        #expect(releases.pending.count == 1)

        let pauses = LockedPauses()
        let worker = Task {
            await releases.run { pause in
                if pauses.append(pause) == 3 { payments.outage.set(down: false) }
            }
        }
        try await Poll.until("the queued claim is released") { releases.pending.isEmpty }
        #expect(
            try await payments.claimIdempotent(tenant: tenant, key: "k", requestHash: "h", owner: "retry", lease: 60)
                == .proceed, "the key is free: no 409 for the rest of the lease")

        // The queue is empty: the worker waits for the next claim instead of looking again after a pause, and
        // one queued now is released at once.
        _ = try await payments.claimIdempotent(tenant: tenant, key: "k2", requestHash: "h", owner: "gone", lease: 60)
        releases.enqueue(.init(tenant: tenant, key: "k2", owner: "gone"))
        try await Poll.until("the claim queued later is released") { releases.pending.isEmpty }
        #expect(pauses.all == [200, 400, 800], "pauses only while the database was away")
        #expect(
            try await payments.claimIdempotent(tenant: tenant, key: "k2", requestHash: "h", owner: "retry", lease: 60)
                == .proceed)
        worker.cancel()
        await worker.value
    }

    @Test func aReleaseOfAKeyAnsweredOrTakenOverChangesNothing() async throws {
        let payments = InMemoryPaymentRepository()
        let tenant = UUID()
        _ = try await payments.claimIdempotent(tenant: tenant, key: "k", requestHash: "h", owner: "first", lease: 60)
        #expect(
            try await payments.finishIdempotent(
                tenant: tenant, key: "k", owner: "first", outcome: .createdPayment("pay_1")))
        let releases = PendingKeyReleases(claims: payments, logger: Self.logger)
        releases.enqueue(.init(tenant: tenant, key: "k", owner: "first"))
        #expect(await releases.drain() == 1)
        #expect(
            try await payments.claimIdempotent(tenant: tenant, key: "k", requestHash: "h", owner: "retry", lease: 60)
                == .replay(.createdPayment("pay_1")))
    }
}

/// The pauses a worker asked for, in order.
final class LockedPauses: @unchecked Sendable {
    private let lock = NSLock()
    private var pauses: [Int] = []

    /// Records `pause`; returns how many were recorded.
    func append(_ pause: Int) -> Int {
        lock.withLock {
            pauses.append(pause)
            return pauses.count
        }
    }

    var all: [Int] { lock.withLock { pauses } }
}
