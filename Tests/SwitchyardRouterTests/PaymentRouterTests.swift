import Foundation
import ProviderKit
import Testing

/// The merchant's payment routes: a create routed by the tenant's rules, a decline answered as data,
/// tenant isolation and `Idempotency-Key` replay and reuse.
@Suite struct PaymentRouterTests {
    @Test func aCreatedPaymentCarriesItsRouting() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            world.gateway.script(.authorize, Outcome(kind: .succeeded, providerPaymentId: "psp-1"))
            let created = try await client.send(.post, "/v1/payments", token: m.apiKey, RouterWorld.payment())
            #expect(created.status == .created, "\(created.text)")
            #expect(created.json["status"] as? String == "succeeded")
            #expect(created.json["amount"] as? Int == 1_234)
            let routing = try #require(created.json["routing"] as? [String: Any])
            #expect((routing["candidates"] as? [String])?.map { $0.lowercased() } == [m.accountId])
            let attempts = try #require(created.json["attempts"] as? [[String: Any]])
            #expect(attempts.first?["provider_account"] as? String == m.accountId)
            #expect(attempts.first?["provider_payment_id"] as? String == "psp-1")

            let id = try #require(created.json["id"] as? String)
            let read = try await client.send(.get, "/v1/payments/\(id)", token: m.apiKey)
            #expect(read.status == .ok && read.json["status"] as? String == "succeeded")
            let listed = try await client.send(.get, "/v1/payments", token: m.apiKey)
            #expect((listed.json["data"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
        }
    }

    @Test func aDeclineIsRenderedAsData() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            world.gateway.script(
                .authorize, Outcome(kind: .declined, code: "insufficient_funds", message: "not enough money"))
            let declined = try await client.send(.post, "/v1/payments", token: m.apiKey, RouterWorld.payment())
            #expect(declined.status == .created, "\(declined.text)")
            #expect(declined.json["error"] == nil)
            #expect(declined.json["status"] as? String == "failed")
            let failure = try #require(declined.json["failure"] as? [String: Any])
            #expect(failure["code"] as? String == "insufficient_funds")
        }
    }

    @Test func anotherTenantsPaymentIsNotFound() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let a = try await world.merchant(client, name: "Shop A")
            let b = try await world.merchant(client, name: "Shop B")
            world.gateway.script(.authorize, Outcome(kind: .succeeded, providerPaymentId: "psp-a"))
            let created = try await client.send(.post, "/v1/payments", token: a.apiKey, RouterWorld.payment())
            let id = try #require(created.json["id"] as? String)
            let foreign = try await client.send(.get, "/v1/payments/\(id)", token: b.apiKey)
            #expect(foreign.status == .notFound && foreign.errorCode == "not_found")
            let refund = try await client.send(.post, "/v1/payments/\(id)/refunds", token: b.apiKey, [:])
            #expect(refund.status == .notFound && refund.errorCode == "not_found")
            let listed = try await client.send(.get, "/v1/payments", token: b.apiKey)
            #expect((listed.json["data"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func anIdempotencyKeyReplaysTheSameBodyAndRefusesAnother() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            world.gateway.script(.authorize, Outcome(kind: .succeeded, providerPaymentId: "psp-1"))
            let key = ["Idempotency-Key": "order-1-create"]
            let first = try await client.send(
                .post, "/v1/payments", token: m.apiKey, RouterWorld.payment(), headers: key)
            #expect(first.status == .created, "\(first.text)")
            let replay = try await client.send(
                .post, "/v1/payments", token: m.apiKey, RouterWorld.payment(), headers: key)
            #expect(replay.status == .created)
            #expect(replay.json["id"] as? String == first.json["id"] as? String)
            #expect(world.gateway.calls(.authorize).count == 1)
            let other = try await client.send(
                .post, "/v1/payments", token: m.apiKey, RouterWorld.payment(amount: 999), headers: key)
            #expect(other.status == .conflict && other.errorCode == "idempotency_key_reused")
            let bad = try await client.send(
                .post, "/v1/payments", token: m.apiKey, RouterWorld.payment(), headers: ["Idempotency-Key": ""])
            #expect(bad.status == .badRequest && bad.errorCode == "invalid_idempotency_key")
            #expect(world.gateway.calls(.authorize).count == 1)
        }
    }
}
