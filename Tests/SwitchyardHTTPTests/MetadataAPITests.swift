import Foundation
import Testing

/// Metadata and errors that point through the running server and PostgreSQL: metadata stored, returned,
/// searched and carried in events; a provider's decline shown as our reason and its own code.
@Suite(.serialized)
struct MetadataAPITests {
    let flows = CitconEndToEndTests()

    /// A Citcon payment (`…402` declines at the confirm step) with `extra` fields.
    func payment(_ stack: TestStack, _ m: TestStack.Merchant, amount: Int, _ extra: [String: Any]) async throws
        -> [String: Any]
    {
        try await stack.createPayment(
            m,
            [
                "amount": amount, "currency": "USD", "country": "US", "method": "alipay",
                "reference": "order-\(UUID().uuidString.prefix(8))",
            ].merging(extra) { $1 })
    }

    @Test func metadataIsStoredSearchedAndCarriedInEvents() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let first = try await payment(
                stack, m, amount: 1234, ["metadata": ["order_no": "A-17", "channel": "web"], "description": "mugs"])
            let second = try await payment(
                stack, m, amount: 1234, ["metadata": ["order_no": "A-18", "channel": "web"]])
            _ = try await payment(stack, m, amount: 1234, [:])
            let id = try #require(first["id"] as? String)
            let secondId = try #require(second["id"] as? String)
            #expect(first["metadata"] as? [String: String] == ["order_no": "A-17", "channel": "web"])

            let read = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey)
            #expect(read.json["metadata"] as? [String: String] == ["order_no": "A-17", "channel": "web"])
            #expect(read.json["description"] as? String == "mugs")

            func listed(_ query: String) async throws -> [String] {
                let reply = try await stack.send(.GET, "/v1/payments?\(query)", token: m.apiKey)
                #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
                return (reply.json["data"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            }
            #expect(try await listed("metadata%5Border_no%5D=A-17") == [id])
            #expect(Set(try await listed("metadata%5Bchannel%5D=web")) == [secondId, id])
            #expect(try await listed("metadata%5Bchannel%5D=web&metadata%5Border_no%5D=A-18") == [secondId])
            #expect(try await listed("metadata%5Bchannel%5D=web&limit=1").count == 1)
            #expect(try await listed("metadata%5Bchannel%5D=shop").isEmpty)

            // The app confirms: the status change is announced with the payment's metadata.
            _ = try await stack.sandbox.citcon.confirm(chargeToken: try flows.chargeToken(first), method: "alipay")
            _ = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "succeeded" }
            let events = try await stack.send(.GET, "/v1/events?object=\(id)", token: m.apiKey)
            let objects = (events.json["data"] as? [[String: Any]] ?? []).compactMap {
                ($0["data"] as? [String: Any])?["object"] as? [String: Any]
            }
            #expect(objects.count >= 2, "\(String(decoding: events.body, as: UTF8.self))")
            for object in objects {
                #expect(object["metadata"] as? [String: String] == ["order_no": "A-17", "channel": "web"])
                #expect(object["description"] as? String == "mugs")
            }

            let refund = try await stack.send(
                .POST, "/v1/payments/\(id)/refunds", token: m.apiKey,
                json: ["amount": 200, "metadata": ["return_no": "R-9"], "description": "one mug"])
            #expect(refund.status == 201, "\(String(decoding: refund.body, as: UTF8.self))")
            let after = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey)
            let refunds = try #require(after.json["refunds"] as? [[String: Any]])
            #expect(refunds.first?["metadata"] as? [String: String] == ["return_no": "R-9"])
            #expect(refunds.first?["description"] as? String == "one mug")
            #expect(after.json["metadata"] as? [String: String] == ["order_no": "A-17", "channel": "web"])
        }
    }

    @Test func aDeclineShowsOurReasonAndTheProvidersCode() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let created = try await payment(stack, m, amount: 1402, ["metadata": ["order_no": "D-1"]])
            let id = try #require(created["id"] as? String)
            _ = try await stack.sandbox.citcon.confirm(chargeToken: try flows.chargeToken(created), method: "alipay")
            let failed = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "failed" }
            let failure = try #require(failed["failure"] as? [String: Any])
            let providerCode = try #require(failure["provider_code"] as? String)
            #expect(providerCode == failure["code"] as? String)
            #expect((failure["decline_code"] as? String).map { !$0.isEmpty } == true)
            let attempt = try #require((failed["attempts"] as? [[String: Any]])?.last)
            #expect(attempt["outcome"] as? String == "declined")
            #expect(attempt["decline_code"] is String)
            #expect(failed["metadata"] as? [String: String] == ["order_no": "D-1"])
        }
    }

    @Test func errorsQuoteTheRequestIdAndNameTheirField() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let reply = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey,
                json: [
                    "amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": "r",
                    "metadata": ["order_no": String(repeating: "x", count: 501)],
                ],
                headers: ["X-Request-Id": "metadata-too-long"])
            #expect(reply.status == 400)
            let error = try #require(reply.json["error"] as? [String: Any])
            #expect(error["code"] as? String == "invalid_metadata")
            #expect(error["param"] as? String == "metadata.order_no")
            #expect(error["request_id"] as? String == "metadata-too-long")
        }
    }
}
