import Foundation
import HTTPTypes
import ProviderKit
import Testing

/// Errors that point: every error body quotes the request's id, names the one field at fault as `param`,
/// and a decline carries our reason and the provider's code as their own members.
@Suite struct ErrorDetailRouterTests {
    /// The error member of a reply.
    static func error(_ reply: Reply) -> [String: Any] {
        reply.json["error"] as? [String: Any] ?? [:]
    }

    @Test func bodyErrorsNameTheirFieldAndQuoteTheRequestId() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            let long = String(repeating: "v", count: 501)
            let manyKeys = Dictionary(uniqueKeysWithValues: (0...50).map { ("k\($0)", "v") })
            let cases: [(body: [String: Any], code: String, param: String)] = [
                (RouterWorld.payment().merging(["amount": "12"]) { $1 }, "invalid_amount", "amount"),
                (RouterWorld.payment().merging(["amount": 12.5]) { $1 }, "invalid_amount", "amount"),
                (RouterWorld.payment().filter { $0.key != "currency" }, "missing_field", "currency"),
                (RouterWorld.payment().merging(["currency": "euro"]) { $1 }, "invalid_currency", "currency"),
                (RouterWorld.payment().merging(["return_url": "ftp://x"]) { $1 }, "invalid_return_url", "return_url"),
                (RouterWorld.payment().merging(["metadata": manyKeys]) { $1 }, "invalid_metadata", "metadata"),
                (
                    RouterWorld.payment().merging(["metadata": ["order_no": long]]) { $1 }, "invalid_metadata",
                    "metadata.order_no"
                ),
                (
                    RouterWorld.payment().merging(["metadata": ["order_no": 17]]) { $1 }, "invalid_metadata",
                    "metadata.order_no"
                ),
                (
                    RouterWorld.payment().merging(["metadata": [String(repeating: "k", count: 41): "v"]]) { $1 },
                    "invalid_metadata", "metadata." + String(repeating: "k", count: 40) + "…"
                ),
                (
                    RouterWorld.payment().merging(["description": String(repeating: "d", count: 1001)]) { $1 },
                    "invalid_description", "description"
                ),
            ]
            for (index, item) in cases.enumerated() {
                let requestID = "req-\(index)"
                let reply = try await client.send(
                    .post, "/v1/payments", token: m.apiKey, item.body, headers: ["X-Request-Id": requestID])
                let error = Self.error(reply)
                #expect(reply.status == .badRequest, "\(item.code): \(reply.text)")
                #expect(error["code"] as? String == item.code, "\(reply.text)")
                #expect(error["param"] as? String == item.param, "\(reply.text)")
                #expect(error["request_id"] as? String == requestID, "\(reply.text)")
            }
            #expect(world.gateway.calls.isEmpty)
        }
    }

    @Test func aNestedFieldIsNamedByItsJSONPath() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            let rules: [[String: Any]] = [["name": "a", "accounts": [m.accountId]], ["name": 7]]
            let reply = try await client.send(.put, "/v1/routing", token: m.apiKey, ["rules": rules])
            let error = Self.error(reply)
            #expect(reply.status == .badRequest, "\(reply.text)")
            #expect(error["param"] as? String == "rules[1].name", "\(reply.text)")
        }
    }

    @Test func queryErrorsNameTheirParameter() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            let cases: [(query: String, code: String, param: String)] = [
                ("limit=0", "invalid_limit", "limit"),
                ("metadata[]=x", "invalid_query", "metadata[]"),
                ("metadata=x", "invalid_query", "metadata"),
                ("metadata[a]=1&metadata[a]=2", "invalid_query", "metadata[a]"),
            ]
            for item in cases {
                let reply = try await client.send(.get, "/v1/payments?\(item.query)", token: m.apiKey)
                let error = Self.error(reply)
                #expect(reply.status == .badRequest, "\(item.query): \(reply.text)")
                #expect(error["code"] as? String == item.code, "\(item.query): \(reply.text)")
                #expect(error["param"] as? String == item.param, "\(item.query): \(reply.text)")
                #expect((error["request_id"] as? String)?.isEmpty == false)
            }
        }
    }

    @Test func aDeclinedPaymentShowsOurReasonAndTheProvidersCode() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            world.gateway.script(.authorize, Outcome(kind: .declined, code: "51", message: "not enough money"))
            let declined = try await client.send(.post, "/v1/payments", token: m.apiKey, RouterWorld.payment())
            #expect(declined.status == .created, "\(declined.text)")
            let failure = try #require(declined.json["failure"] as? [String: Any])
            #expect(failure["code"] as? String == "51")
            #expect(failure["decline_code"] as? String == "insufficient_funds")
            #expect(failure["provider_code"] as? String == "51")
            let attempt = try #require((declined.json["attempts"] as? [[String: Any]])?.last)
            #expect(attempt["decline_code"] as? String == "insufficient_funds")
            #expect(attempt["code"] as? String == "51")

            world.gateway.script(.authorize, Outcome(kind: .declined, code: "XY-9", message: "refused"))
            let other = try await client.send(
                .post, "/v1/payments", token: m.apiKey, RouterWorld.payment(reference: "order-2"))
            let otherFailure = try #require(other.json["failure"] as? [String: Any])
            #expect(otherFailure["decline_code"] as? String == "generic_decline")
            #expect(otherFailure["provider_code"] as? String == "XY-9")
        }
    }

    @Test func aDeclinedCaptureIsAnErrorWithOurReasonAndTheProvidersCode() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            let id = try await world.authorizedPayment(client, m)
            world.gateway.script(.capture, Outcome(kind: .declined, code: "expired_card", message: "card expired"))
            let capture = try await client.send(
                .post, "/v1/payments/\(id)/capture", token: m.apiKey, [:], headers: ["X-Request-Id": "cap-1"])
            let error = Self.error(capture)
            #expect(capture.status.code == 402, "\(capture.text)")
            #expect(error["code"] as? String == "provider_declined")
            #expect(error["message"] as? String == "expired_card: card expired")
            #expect(error["decline_code"] as? String == "expired_card")
            #expect(error["provider_code"] as? String == "expired_card")
            #expect(error["request_id"] as? String == "cap-1")
        }
    }
}
