import Foundation
import ProviderSandbox
import SwitchyardCore
import SwitchyardStore
import Testing

@testable import SwitchyardHTTP

/// An `Idempotency-Key` whose request died before storing its response is held only for the lease; after
/// it, a retry with the same key and body takes the key over and resumes without creating twice.
@Suite(.serialized) struct IdempotencyLeaseTests {
    static let lease = 2.0

    static func body(_ reference: String) -> [String: Any] {
        ["amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": reference]
    }

    /// The stored key of a payment create under `key`, and the hash of `body` as the server computes it.
    static func createKey(_ key: String, _ body: [String: Any]) throws -> (scoped: String, hash: String) {
        let scoped = IdempotencyGate.scopedKey(method: .post, route: "/v1/payments", parameters: [:], key: key)
        return (scoped, JSONBody(try JSONSerialization.data(withJSONObject: body)).requestHash)
    }

    static func withLeaseStack(_ body: @Sendable (TestStack, TestClock) async throws -> Void) async throws {
        let clock = TestClock()
        try await TestStack.with(policy: { $0.idempotency.leaseMs = Int(lease * 1000) }, clock: clock) { stack in
            try await body(stack, clock)
        }
    }

    static func payments(_ stack: TestStack, _ m: TestStack.Merchant, reference: String) async throws -> [[String: Any]]
    {
        let list = try await stack.send(.GET, "/v1/payments?reference=\(reference)&expand[]=attempts", token: m.apiKey)
        return list.json["data"] as? [[String: Any]] ?? []
    }

    /// A payment create under `key` whose first request claimed the key as `owner` (and then died).
    struct ClaimedKey {
        var m: TestStack.Merchant
        var tenant: UUID
        var scoped: String
        var body: [String: Any]
        var claim: IdempotencyClaim
    }

    static func claimed(_ stack: TestStack, reference: String, key: String, owner: String) async throws
        -> ClaimedKey
    {
        let m = try await stack.merchant()
        let tenant = try #require(UUID(uuidString: m.tenantId))
        let body = Self.body(reference)
        let (scoped, hash) = try Self.createKey(key, body)
        let claim = try await stack.runtime.store.idempotencyKeys.claimIdempotent(
            tenant: tenant, key: scoped, requestHash: hash, owner: owner, lease: Self.lease)
        return ClaimedKey(m: m, tenant: tenant, scoped: scoped, body: body, claim: claim)
    }

    @Test func aRetryAfterTheLeaseResumesThePaymentTheCrashedRequestCreated() async throws {
        try await Self.withLeaseStack { stack, clock in
            // The first request: it claims the key and creates the payment, which is recorded on the key, then
            // dies before storing its answer.
            let store = stack.runtime.store
            let first = try await Self.claimed(stack, reference: "crashed", key: "crash-key", owner: "crashed-owner")
            let (m, tenant, scoped, body) = (first.m, first.tenant, first.scoped, first.body)
            #expect(first.claim == .proceed)
            let created = try await stack.runtime.service.create(
                tenant: tenant,
                try PaymentsController.newPayment(JSONBody(try JSONSerialization.data(withJSONObject: body))))
            let paymentId = created.payment.id
            #expect(
                try await store.idempotencyKeys.linkIdempotent(
                    tenant: tenant, key: scoped, owner: "crashed-owner", resourceId: paymentId))
            let chargeToken = try CitconEndToEndTests().chargeToken(
                try await stack.send(.GET, "/v1/payments/\(paymentId)", token: m.apiKey).json)

            clock.advance(by: Self.lease + 1)
            let retry = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey, json: body, headers: ["Idempotency-Key": "crash-key"])
            #expect(retry.status == 201, "\(String(decoding: retry.body, as: UTF8.self))")
            #expect(retry.json["id"] as? String == paymentId)
            let again = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey, json: body, headers: ["Idempotency-Key": "crash-key"])
            #expect(again.status == 201)
            #expect(again.json["id"] as? String == paymentId)

            let listed = try await Self.payments(stack, m, reference: "crashed")
            #expect(listed.count == 1)
            #expect((listed.first?["attempts"] as? [Any])?.count == 1)
            _ = try await stack.sandbox.citcon.confirm(chargeToken: chargeToken, method: "alipay")
            _ = try await stack.waitForPayment(paymentId, key: m.apiKey) { $0["status"] as? String == "succeeded" }
            let charges = await stack.sandbox.citcon.ledger(merchant: TestStack.citconMerchant.id).filter {
                $0.kind == .charge
            }
            #expect(charges.count == 1)
        }
    }

    @Test func aKeyWithinItsLeaseAnswersInProgressWithRetryAfter() async throws {
        try await Self.withLeaseStack { stack, _ in
            let first = try await Self.claimed(stack, reference: "running", key: "running-key", owner: "running")
            let (m, body) = (first.m, first.body)
            let reply = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey, json: body, headers: ["Idempotency-Key": "running-key"])
            #expect(reply.status == 409)
            #expect(reply.errorCode == "idempotency_in_progress")
            let retryAfter = reply.headers.first { $0.0.lowercased() == "retry-after" }.flatMap { Int($0.1) }
            #expect(retryAfter.map { (1...Int(Self.lease)).contains($0) } == true)
            #expect(try await Self.payments(stack, m, reference: "running").isEmpty)
            // Another body under the same key is still a reuse.
            let other = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey, json: Self.body("other"),
                headers: ["Idempotency-Key": "running-key"])
            #expect(other.errorCode == "idempotency_key_reused")
        }
    }

    @Test func aRetryAfterTheLeaseCreatesOnceWhenNothingWasCreated() async throws {
        try await Self.withLeaseStack { stack, clock in
            let first = try await Self.claimed(stack, reference: "never-created", key: "empty-key", owner: "crashed")
            let (m, body) = (first.m, first.body)
            clock.advance(by: Self.lease + 1)
            var ids: Set<String> = []
            for _ in 0..<3 {
                let reply = try await stack.send(
                    .POST, "/v1/payments", token: m.apiKey, json: body, headers: ["Idempotency-Key": "empty-key"])
                #expect(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
                if let id = reply.json["id"] as? String { ids.insert(id) }
            }
            #expect(ids.count == 1)
            #expect(try await Self.payments(stack, m, reference: "never-created").count == 1)
        }
    }

    @Test func aStaleOwnersLateFinishDoesNotOverwriteTheNewOwnersResponse() async throws {
        try await Self.withLeaseStack { stack, clock in
            let store = stack.runtime.store
            let first = try await Self.claimed(stack, reference: "stale", key: "stale-key", owner: "stale-owner")
            let (m, tenant, scoped, body) = (first.m, first.tenant, first.scoped, first.body)
            clock.advance(by: Self.lease + 1)
            let taken = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey, json: body, headers: ["Idempotency-Key": "stale-key"])
            #expect(taken.status == 201)
            let id = try #require(taken.json["id"] as? String)

            // The first request wakes up and tries to record and finish: both refused.
            #expect(
                try await !store.idempotencyKeys.linkIdempotent(
                    tenant: tenant, key: scoped, owner: "stale-owner", resourceId: "x"))
            #expect(
                try await !store.idempotencyKeys.finishIdempotent(
                    tenant: tenant, key: scoped, owner: "stale-owner",
                    outcome: .failure(CoreError(.internalError, "late"))))
            let replay = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey, json: body, headers: ["Idempotency-Key": "stale-key"])
            #expect(replay.status == 201)
            #expect(replay.json["id"] as? String == id)
            #expect(replay.headers.contains { $0.0.lowercased() == "idempotent-replayed" })
        }
    }
}
