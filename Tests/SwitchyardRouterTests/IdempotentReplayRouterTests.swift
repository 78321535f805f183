import Foundation
import HTTPTypes
import ProviderKit
import SwitchyardCore
import Testing

/// What a replay under an `Idempotency-Key` answers on the routes other than a payment create: the stored
/// outcome rendered again from the current record, or the stored error, marked `Idempotent-Replayed`.
@Suite struct IdempotentReplayRouterTests {
    static func replayed(_ reply: Reply) -> Bool {
        reply.headers[HTTPField.Name("Idempotent-Replayed")!] == "true"
    }

    /// A succeeded payment of `RouterWorld.payment()`.
    static func paid(_ world: RouterWorld, _ client: Client, _ m: Merchant) async throws -> String {
        world.gateway.script(.authorize, Outcome(kind: .succeeded, providerPaymentId: "psp-1"))
        let created = try await client.send(.post, "/v1/payments", token: m.apiKey, RouterWorld.payment())
        #expect(created.status == .created, "\(created.text)")
        return try #require(created.json["id"] as? String)
    }

    @Test func aRefundReplayShowsTheRefundAsItIsNow() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            let id = try await Self.paid(world, client, m)
            world.gateway.script(.refund, .unknown("timeout"))
            let key = ["Idempotency-Key": "refund-1"]
            let first = try await client.send(
                .post, "/v1/payments/\(id)/refunds", token: m.apiKey, ["amount": 400], headers: key)
            #expect(first.status == .created, "\(first.text)")
            #expect(first.json["status"] as? String == "unknown")
            #expect(!Self.replayed(first))
            let refundId = try #require(first.json["id"] as? String)
            // The provider's notification settles the refund after the first answer.
            let tenant = try #require(UUID(uuidString: m.tenantId))
            _ = try await world.payments.transitionRefund(tenant: tenant, refundId: refundId) { $0.status = .succeeded }

            let replay = try await client.send(
                .post, "/v1/payments/\(id)/refunds", token: m.apiKey, ["amount": 400], headers: key)
            #expect(replay.status == .created, "\(replay.text)")
            #expect(Self.replayed(replay))
            #expect(replay.json["id"] as? String == refundId)
            #expect(replay.json["status"] as? String == "succeeded")
            #expect(world.gateway.calls(.refund).count == 1)
        }
    }

    @Test func aRefusedRefundReplaysItsErrorWithoutAskingAgain() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            let id = try await Self.paid(world, client, m)
            let key = ["Idempotency-Key": "refund-too-much"]
            let first = try await client.send(
                .post, "/v1/payments/\(id)/refunds", token: m.apiKey, ["amount": 5_000], headers: key)
            #expect(first.errorCode == "refund_exceeds_captured", "\(first.text)")
            let replay = try await client.send(
                .post, "/v1/payments/\(id)/refunds", token: m.apiKey, ["amount": 5_000], headers: key)
            #expect(replay.status == first.status)
            #expect(replay.errorCode == "refund_exceeds_captured")
            #expect(
                (replay.json["error"] as? [String: Any])?["message"] as? String
                    == (first.json["error"] as? [String: Any])?["message"] as? String)
            #expect(Self.replayed(replay))
            #expect(world.gateway.calls(.refund).isEmpty)
        }
    }

    @Test func aCancelReplayShowsThePaymentAsItIsNowWithoutCancellingAgain() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            let id = try await world.authorizedPayment(client, m)
            world.gateway.script(.void, Outcome(kind: .succeeded))
            let key = ["Idempotency-Key": "cancel-1"]
            let first = try await client.send(.post, "/v1/payments/\(id)/cancel", token: m.apiKey, [:], headers: key)
            #expect(first.status == .ok, "\(first.text)")
            let replay = try await client.send(.post, "/v1/payments/\(id)/cancel", token: m.apiKey, [:], headers: key)
            #expect(replay.status == .ok)
            #expect(Self.replayed(replay))
            #expect(replay.json["id"] as? String == id)
            #expect(replay.json["status"] as? String == first.json["status"] as? String)
            #expect(world.gateway.calls(.void).count == 1)
        }
    }
}
