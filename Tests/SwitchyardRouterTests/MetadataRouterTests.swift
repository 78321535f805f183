import Foundation
import ProviderKit
import Testing

/// A merchant's `metadata` and `description` on payments and refunds: stored as given, returned, found by
/// exact `metadata[key]=value` filters, and answered unchanged by a replay.
@Suite struct MetadataRouterTests {
    @Test func aPaymentKeepsItsMetadataAndIsFoundByIt() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            world.gateway.script(.authorize, Outcome(kind: .succeeded, providerPaymentId: "psp-1"))
            world.gateway.script(.authorize, Outcome(kind: .succeeded, providerPaymentId: "psp-2"))
            let first = try await client.send(
                .post, "/v1/payments", token: m.apiKey,
                RouterWorld.payment(reference: "order-1").merging([
                    "metadata": ["order_no": "A-17", "channel": "web"], "description": "two mugs",
                ]) { $1 })
            #expect(first.status == .created, "\(first.text)")
            #expect(first.json["metadata"] as? [String: String] == ["order_no": "A-17", "channel": "web"])
            #expect(first.json["description"] as? String == "two mugs")
            let second = try await client.send(
                .post, "/v1/payments", token: m.apiKey,
                RouterWorld.payment(reference: "order-2").merging(["metadata": ["order_no": "A-18", "channel": "web"]])
                { $1 })
            let id = try #require(first.json["id"] as? String)
            let secondId = try #require(second.json["id"] as? String)

            let read = try await client.send(.get, "/v1/payments/\(id)", token: m.apiKey)
            #expect(read.json["metadata"] as? [String: String] == ["order_no": "A-17", "channel": "web"])
            #expect(read.json["description"] as? String == "two mugs")

            func listed(_ query: String) async throws -> [String] {
                let reply = try await client.send(.get, "/v1/payments?\(query)", token: m.apiKey)
                #expect(reply.status == .ok, "\(reply.text)")
                return (reply.json["data"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            }
            #expect(try await listed("metadata[order_no]=A-17") == [id])
            #expect(try await listed("metadata%5Border_no%5D=A-18") == [secondId])
            #expect(Set(try await listed("metadata[channel]=web")) == [secondId, id])
            #expect(try await listed("metadata[channel]=web&metadata[order_no]=A-18") == [secondId])
            #expect(try await listed("metadata[channel]=shop") == [])
            #expect(try await listed("metadata[order_no]=A-1") == [])
        }
    }

    @Test func aPaymentWithoutMetadataShowsAnEmptyObject() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            world.gateway.script(.authorize, Outcome(kind: .succeeded, providerPaymentId: "psp-1"))
            let created = try await client.send(.post, "/v1/payments", token: m.apiKey, RouterWorld.payment())
            #expect(created.json["metadata"] as? [String: String] == [:])
            #expect(created.json["description"] == nil)
        }
    }

    @Test func aRefundKeepsItsMetadataAndAReplayAnswersItUnchanged() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            world.gateway.script(.authorize, Outcome(kind: .succeeded, providerPaymentId: "psp-1"))
            let payment = RouterWorld.payment().merging(["metadata": ["order_no": "A-17"], "description": "mugs"]) {
                $1
            }
            let created = try await client.send(
                .post, "/v1/payments", token: m.apiKey, payment, headers: ["Idempotency-Key": "create-1"])
            let id = try #require(created.json["id"] as? String)
            let replay = try await client.send(
                .post, "/v1/payments", token: m.apiKey, payment, headers: ["Idempotency-Key": "create-1"])
            #expect(replay.status == .created)
            #expect(replay.json["id"] as? String == id)
            #expect(replay.json["metadata"] as? [String: String] == ["order_no": "A-17"])
            #expect(replay.json["description"] as? String == "mugs")
            #expect(world.gateway.calls(.authorize).count == 1)

            world.gateway.script(.refund, Outcome(kind: .succeeded, providerPaymentId: "rf-1"))
            let body: [String: Any] = [
                "amount": 100, "metadata": ["return_no": "R-9"], "description": "one mug came back",
            ]
            let key = ["Idempotency-Key": "refund-1"]
            let refund = try await client.send(.post, "/v1/payments/\(id)/refunds", token: m.apiKey, body, headers: key)
            #expect(refund.status == .created, "\(refund.text)")
            #expect(refund.json["metadata"] as? [String: String] == ["return_no": "R-9"])
            #expect(refund.json["description"] as? String == "one mug came back")
            let again = try await client.send(.post, "/v1/payments/\(id)/refunds", token: m.apiKey, body, headers: key)
            #expect(again.status == .created)
            #expect(again.json["metadata"] as? [String: String] == ["return_no": "R-9"])
            #expect(again.json["description"] as? String == "one mug came back")
            #expect(world.gateway.calls(.refund).count == 1)

            let read = try await client.send(.get, "/v1/payments/\(id)", token: m.apiKey)
            #expect(read.json["metadata"] as? [String: String] == ["order_no": "A-17"])
            let refunds = try #require(read.json["refunds"] as? [[String: Any]])
            #expect(refunds.first?["metadata"] as? [String: String] == ["return_no": "R-9"])

            let bad = try await client.send(
                .post, "/v1/payments/\(id)/refunds", token: m.apiKey, ["metadata": ["return_no": ["R", "9"]]])
            #expect(bad.status == .badRequest)
            #expect((bad.json["error"] as? [String: Any])?["param"] as? String == "metadata.return_no")
        }
    }
}
