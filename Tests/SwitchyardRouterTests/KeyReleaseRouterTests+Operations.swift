import Foundation
import HTTPTypes
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// A refund or a capture whose provider answer was stored by a write that lost its connection (before or
/// after its COMMIT) answers a retryable `503 database_unavailable`; its key is released as soon as the
/// database answers again, and the retry with the same key answers the one refund, or the payment, without
/// calling the provider again.
extension KeyReleaseRouterTests {
    /// Posts `path` with `key` while the next transition loses its connection at `moment`; requires the
    /// retryable answer and the key's release waiting for the database, then brings the database back.
    static func lostTransition(
        _ world: RouterWorld, _ client: Client, _ m: Merchant, _ path: String, body: [String: Any],
        key: [String: String], at moment: InMemoryOutage.Moment
    ) async throws {
        world.payments.outage.dropNextTransition(moment)
        let first = try await client.send(.post, path, token: m.apiKey, body, headers: key)
        #expect(first.status == .serviceUnavailable, "\(first.text)")
        #expect(first.errorCode == "database_unavailable")
        #expect(first.headers[.retryAfter] != nil)
        #expect(world.payments.outage.isDown)
        #expect(world.dependencies.keyReleases.pending.count == 1, "the claim waits for the database")
        world.payments.outage.set(down: false)
        #expect(await world.dependencies.keyReleases.drain() == 1)
        #expect(world.dependencies.keyReleases.pending.isEmpty)
    }

    /// Runs `body` with a merchant and one of its payments: succeeded, or authorised for a manual capture.
    static func withPayment(
        authorized: Bool, _ body: @escaping @Sendable (RouterWorld, Client, Merchant, String) async throws -> Void
    ) async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            let id =
                authorized
                ? try await world.authorizedPayment(client, m)
                : try await IdempotentReplayRouterTests.paid(world, client, m)
            try await body(world, client, m, id)
        }
    }

    @Test(arguments: [InMemoryOutage.Moment.beforeCommit, .afterCommit])
    func aRefundWhoseAnswerWasLostIsAnsweredWithTheOneRefund(at moment: InMemoryOutage.Moment) async throws {
        try await Self.withPayment(authorized: false) { world, client, m, id in
            let path = "/v1/payments/\(id)/refunds"
            let key = ["Idempotency-Key": "refund-1"]
            world.gateway.script(.refund, Outcome(kind: .succeeded, providerPaymentId: "psp-r"))
            try await Self.lostTransition(world, client, m, path, body: ["amount": 100], key: key, at: moment)

            world.gateway.script(.sync, Outcome(kind: .succeeded, providerPaymentId: "psp-1"))
            let retry = try await client.send(.post, path, token: m.apiKey, ["amount": 100], headers: key)
            #expect(retry.status == .created, "\(retry.text)")
            let payment = try await client.send(.get, "/v1/payments/\(id)", token: m.apiKey)
            let refunds = payment.json["refunds"] as? [[String: Any]] ?? []
            #expect(refunds.count == 1, "\(payment.text)")
            #expect(retry.json["id"] as? String == refunds.first?["id"] as? String)
            if moment == .afterCommit { #expect(retry.json["status"] as? String == "succeeded") }
            #expect(world.gateway.calls(.refund).count == 1)
            let replay = try await client.send(.post, path, token: m.apiKey, ["amount": 100], headers: key)
            #expect(replay.json["id"] as? String == retry.json["id"] as? String)
        }
    }

    @Test(arguments: [InMemoryOutage.Moment.beforeCommit, .afterCommit])
    func aCaptureWhoseAnswerWasLostIsAnsweredWithThePaymentNotRepeated(at moment: InMemoryOutage.Moment)
        async throws
    {
        try await Self.withPayment(authorized: true) { world, client, m, id in
            let path = "/v1/payments/\(id)/capture"
            let key = ["Idempotency-Key": "capture-1"]
            world.gateway.script(.capture, Outcome(kind: .succeeded, providerPaymentId: "psp-1"))
            try await Self.lostTransition(world, client, m, path, body: [:], key: key, at: moment)

            // No 409 for the rest of the lease, and no second capture: the retry takes the key over and
            // answers the payment as it is now (synced with its provider).
            world.gateway.script(.sync, Outcome(kind: .succeeded, providerPaymentId: "psp-1"))
            let retry = try await client.send(.post, path, token: m.apiKey, [:], headers: key)
            #expect(retry.status == .ok, "\(retry.text)")
            #expect(retry.json["id"] as? String == id)
            if moment == .afterCommit { #expect(retry.json["status"] as? String == "succeeded") }
            #expect(world.gateway.calls(.capture).count == 1)
            let replay = try await client.send(.post, path, token: m.apiKey, [:], headers: key)
            #expect(replay.status == .ok, "\(replay.text)")
            #expect(replay.json["id"] as? String == id)
            #expect(world.gateway.calls(.capture).count == 1)
        }
    }

    @Test func aCaptureTheProviderCouldNotTakeIsRunAgainUnderItsKey() async throws {
        try await Self.withPayment(authorized: true) { world, client, m, id in
            let path = "/v1/payments/\(id)/capture"
            let key = ["Idempotency-Key": "capture-1"]
            world.gateway.script(.capture, .notSent("provider down"))
            let first = try await client.send(.post, path, token: m.apiKey, [:], headers: key)
            #expect(first.status.code >= 500, "\(first.text)")
            #expect(world.dependencies.keyReleases.pending.isEmpty)
            // Nothing was captured and the request knew it: the key is forgotten and the retry captures.
            world.gateway.script(.capture, Outcome(kind: .succeeded, providerPaymentId: "psp-1"))
            let retry = try await client.send(.post, path, token: m.apiKey, [:], headers: key)
            #expect(retry.status == .ok, "\(retry.text)")
            #expect(retry.json["status"] as? String == "succeeded")
            #expect(world.gateway.calls(.capture).count == 2)
        }
    }
}
