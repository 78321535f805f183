import Foundation
import HTTPTypes
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// A keyed payment create whose last write loses its database connection (before or after its COMMIT)
/// answers a retryable `503 database_unavailable`; its claim is released as soon as the database answers
/// again (not held for the lease), and a retry with the same key answers the one payment, the provider
/// called once.
@Suite struct KeyReleaseRouterTests {
    static let key = ["Idempotency-Key": "order-1-key"]

    /// The payments of `RouterWorld.payment()`'s reference, as the merchant lists them.
    static func payments(_ client: Client, _ m: Merchant) async throws -> [[String: Any]] {
        let list = try await client.send(.get, "/v1/payments?reference=order-1", token: m.apiKey)
        return list.json["data"] as? [[String: Any]] ?? []
    }

    /// The first request: the provider accepts the payment, then the connection drops at `moment` of the
    /// write answering the key, and the database stays down.
    static func lostAnswer(_ world: RouterWorld, _ client: Client, _ m: Merchant, at moment: InMemoryOutage.Moment)
        async throws
    {
        world.gateway.script(.authorize, Outcome(kind: .succeeded, providerPaymentId: "psp-1"))
        world.payments.outage.dropNextAnswer(moment)
        let first = try await client.send(
            .post, "/v1/payments", token: m.apiKey, RouterWorld.payment(), headers: key)
        #expect(first.status == .serviceUnavailable, "\(first.text)")
        #expect(first.errorCode == "database_unavailable")
        #expect(first.headers[.retryAfter] != nil)
        #expect(world.payments.outage.isDown)
        #expect(world.dependencies.keyReleases.pending.count == 1, "the claim waits for the database")
    }

    @Test func aCommitLostBeforeItLandedIsResumedOnceTheClaimIsReleased() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            try await Self.lostAnswer(world, client, m, at: .beforeCommit)
            // While the database is down a retry is told to come back, and its own claim waits too.
            let during = try await client.send(
                .post, "/v1/payments", token: m.apiKey, RouterWorld.payment(), headers: Self.key)
            #expect(during.errorCode == "database_unavailable", "\(during.text)")

            world.payments.outage.set(down: false)
            #expect(await world.dependencies.keyReleases.drain() == 2)
            #expect(world.dependencies.keyReleases.pending.isEmpty)
            // No 409 for the rest of the lease: the retry takes the key over and resumes the payment.
            world.gateway.script(.sync, Outcome(kind: .succeeded, providerPaymentId: "psp-1"))
            let retry = try await client.send(
                .post, "/v1/payments", token: m.apiKey, RouterWorld.payment(), headers: Self.key)
            #expect(retry.status == .created, "\(retry.text)")
            let listed = try await Self.payments(client, m)
            #expect(listed.count == 1)
            #expect(retry.json["id"] as? String == listed.first?["id"] as? String)
            #expect(retry.json["status"] as? String == "succeeded")
            #expect(world.gateway.calls(.authorize).count == 1)
            let replay = try await client.send(
                .post, "/v1/payments", token: m.apiKey, RouterWorld.payment(), headers: Self.key)
            #expect(replay.json["id"] as? String == retry.json["id"] as? String)
        }
    }

    @Test func aCommitLostAfterItLandedIsReplayedAndItsReleaseChangesNothing() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            try await Self.lostAnswer(world, client, m, at: .afterCommit)
            world.payments.outage.set(down: false)
            #expect(await world.dependencies.keyReleases.drain() == 1)
            let retry = try await client.send(
                .post, "/v1/payments", token: m.apiKey, RouterWorld.payment(), headers: Self.key)
            #expect(retry.status == .created, "\(retry.text)")
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let listed = try await Self.payments(client, m)
            #expect(listed.count == 1)
            #expect(retry.json["id"] as? String == listed.first?["id"] as? String)
            #expect(world.gateway.calls(.authorize).count == 1)
        }
    }

    @Test func aClaimMadeWhileTheDatabaseIsDownIsReleasedOnceItAnswers() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            let id = try await IdempotentReplayRouterTests.paid(world, client, m)
            let path = "/v1/payments/\(id)/refunds"
            let key = ["Idempotency-Key": "refund-1"]
            world.payments.outage.set(down: true)
            let refund = try await client.send(.post, path, token: m.apiKey, ["amount": 100], headers: key)
            #expect(refund.errorCode == "database_unavailable", "\(refund.text)")
            #expect(world.dependencies.keyReleases.pending.count == 1, "its COMMIT may have landed unseen")
            world.payments.outage.set(down: false)
            #expect(await world.dependencies.keyReleases.drain() == 1)
            world.gateway.script(.refund, Outcome(kind: .succeeded, providerPaymentId: "psp-r"))
            let retry = try await client.send(.post, path, token: m.apiKey, ["amount": 100], headers: key)
            #expect(retry.status == .created, "\(retry.text)")
            #expect(world.gateway.calls(.refund).count == 1)
        }
    }
}
