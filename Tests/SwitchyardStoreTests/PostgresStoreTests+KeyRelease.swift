import Foundation
import SwitchyardCore
import Testing

@testable import SwitchyardStore

/// Keys no request will answer any more are freed without waiting for their lease: those of an earlier
/// incarnation of a restarted replica at its start, those of an incarnation that stopped heart-beating by
/// another replica's janitor, and those past their lease by the janitor (answered with what they name).
extension PostgresStoreTests {
    /// Claims `key` for `owner` for `lease` seconds, linking `resource` when given.
    func claimKey(
        _ store: PostgresStore, _ tenant: UUID, _ key: String, owner: String, linking resource: String? = nil,
        lease: TimeInterval = 60
    ) async throws {
        #expect(
            try await store.idempotencyKeys.claimIdempotent(
                tenant: tenant, key: key, requestHash: "h", owner: owner, lease: lease)
                == .proceed)
        if let resource {
            #expect(
                try await store.idempotencyKeys.linkIdempotent(
                    tenant: tenant, key: key, owner: owner, resourceId: resource))
        }
    }

    /// What a retry of `key` is told.
    func retryKey(_ store: PostgresStore, _ tenant: UUID, _ key: String) async throws -> IdempotencyClaim {
        try await store.idempotencyKeys.claimIdempotent(
            tenant: tenant, key: key, requestHash: "h", owner: "retry-\(UUID())", lease: 60)
    }

    @Test func aRestartedReplicaReleasesWhatItsEarlierIncarnationHeld() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        let now = Date()
        let (first, none) = try await store.instances.startIncarnation(replica: "host:8080", now: now)
        #expect(first.incarnation == 1 && none == 0)
        let other = try await store.instances.startIncarnation(replica: "host:8081", now: now).instance
        try await claimKey(store, tenant, "POST /v1/payments a", owner: first.newOwner())
        try await claimKey(store, tenant, "POST /v1/payments b", owner: first.newOwner(), linking: "pay_b")
        try await claimKey(store, tenant, "POST /v1/payments c", owner: other.newOwner())
        // Operations on a payment link nothing, but may have reached the provider before the server died.
        let capture = "POST /v1/payments/pay_b/capture d"
        let cancel = "live POST /v1/payments/pay_b/cancel e"
        try await claimKey(store, tenant, capture, owner: first.newOwner())
        try await claimKey(store, tenant, cancel, owner: first.newOwner())
        try await claimKey(store, tenant, "POST /v1/payments/pay_b/refunds f", owner: first.newOwner())

        let (second, released) = try await store.instances.startIncarnation(
            replica: "host:8080", now: now.addingTimeInterval(1))
        #expect(second.incarnation == 2)
        #expect(released == 5)
        #expect(try await retryKey(store, tenant, "POST /v1/payments a") == .proceed)
        #expect(try await retryKey(store, tenant, "POST /v1/payments b") == .resume(resourceId: "pay_b"))
        // Taken over at once, answering the payment as it is now; never run afresh.
        #expect(try await retryKey(store, tenant, capture) == .resume(resourceId: nil))
        #expect(try await retryKey(store, tenant, cancel) == .resume(resourceId: nil))
        #expect(try await retryKey(store, tenant, "POST /v1/payments/pay_b/refunds f") == .proceed)
        guard case .held = try await retryKey(store, tenant, "POST /v1/payments c") else {
            Issue.record("another replica's key is kept")
            return
        }
        #expect(try await !store.instances.heartbeat(first, now: now.addingTimeInterval(2)), "a newer incarnation runs")
        #expect(try await store.instances.heartbeat(second, now: now.addingTimeInterval(2)))
    }

    @Test func theKeysOfASilentInstanceAreReleasedOnceByAnotherReplica() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        let now = Date()
        let dead = try await store.instances.startIncarnation(replica: "r1", now: now).instance
        let alive = try await store.instances.startIncarnation(replica: "r2", now: now).instance
        try await claimKey(store, tenant, "POST /v1/payments a", owner: dead.newOwner(), linking: "pay_a")
        try await claimKey(store, tenant, "POST /v1/payments b", owner: alive.newOwner())
        let later = now.addingTimeInterval(20)
        try await store.instances.heartbeat(alive, now: later)
        let silentSince = later.addingTimeInterval(-PlatformPolicy.Idempotency().silenceLimit)
        #expect(
            try await store.instances.releaseKeysOfSilentInstances(
                silentSince: silentSince, except: dead, now: later, limit: 10)
                == 0, "an instance never releases its own keys")
        #expect(
            try await store.instances.releaseKeysOfSilentInstances(
                silentSince: silentSince, except: alive, now: later, limit: 10)
                == 1)
        #expect(try await retryKey(store, tenant, "POST /v1/payments a") == .resume(resourceId: "pay_a"))
        guard case .held = try await retryKey(store, tenant, "POST /v1/payments b") else {
            Issue.record("a live instance keeps its keys")
            return
        }
        try await claimKey(store, tenant, "POST /v1/payments c", owner: dead.newOwner())
        #expect(
            try await store.instances.releaseKeysOfSilentInstances(
                silentSince: silentSince, except: alive, now: later, limit: 10)
                == 0, "each silence is released once")
    }

    @Test func keysPastTheirLeaseAreAnsweredWithWhatTheyNameOrReleased() async throws {
        let store = try await makeStore()
        let tenant = try await store.tenants.createTenant(name: "T", actor: "test").id
        try await claimKey(store, tenant, "POST /v1/payments created", owner: "a", linking: "pay_1", lease: 1)
        try await claimKey(store, tenant, "POST /v1/payments/pay_2/capture k", owner: "b", lease: 1)
        try await claimKey(store, tenant, "POST /v1/payments nothing", owner: "c", lease: 1)
        try await claimKey(store, tenant, "POST /v1/payments running", owner: "d", lease: 600)
        let later = Date().addingTimeInterval(5)
        #expect(
            try await store.idempotencyKeys.settleExpiredKeys(now: later, limit: 2)
                == ExpiredKeySettlement(completed: 2))
        #expect(
            try await store.idempotencyKeys.settleExpiredKeys(now: later, limit: 10)
                == ExpiredKeySettlement(released: 1))
        #expect(try await store.idempotencyKeys.settleExpiredKeys(now: later, limit: 10) == ExpiredKeySettlement())
        #expect(
            try await retryKey(store, tenant, "POST /v1/payments created")
                == .replay(.resource(IdempotentResource(kind: .payment, id: "pay_1", created: true))))
        #expect(
            try await retryKey(store, tenant, "POST /v1/payments/pay_2/capture k")
                == .replay(.resource(IdempotentResource(kind: .payment, id: "pay_2", created: false))))
        #expect(try await retryKey(store, tenant, "POST /v1/payments nothing") == .proceed)
        guard case .held = try await retryKey(store, tenant, "POST /v1/payments running") else {
            Issue.record("a key within its lease is kept")
            return
        }
    }

    @Test func theExpiredKeysAreFoundThroughTheirIndex() async throws {
        let store = try await makeStore()
        let plan = try await store.pool.withConnection { c in
            _ = try await c.query("SET enable_seqscan = off")
            let plan = try await c.query(
                "EXPLAIN " + PostgresIdempotencyKeys.expiredKeys, [.timestamp(Date()), .int(100)]
            ).rows
                .map { $0.optionalString("QUERY PLAN") ?? "" }.joined(separator: "\n")
            _ = try await c.query("RESET enable_seqscan")
            return plan
        }
        #expect(plan.contains("idempotency_keys_in_progress"), "\(plan)")
    }
}
