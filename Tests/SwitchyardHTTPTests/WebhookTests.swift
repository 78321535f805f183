import Foundation
import ProviderSandbox
import SwitchyardCore
import TestWaiting
import Testing

/// Outbound merchant webhooks through the running server: endpoints, the outbox of payment, refund and
/// credential changes, signed deliveries, retries, the dead letter and replays.
@Suite(.serialized)
struct WebhookTests {
    /// Registers `url` for `types`; returns the endpoint's id and signing secret.
    func register(_ stack: TestStack, _ m: TestStack.Merchant, _ url: String, types: [String] = ["*"]) async throws
        -> (id: String, secret: String)
    {
        let created = try await stack.send(
            .POST, "/v1/webhook-endpoints", token: m.apiKey, json: ["url": url, "event_types": types])
        try #require(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let secret = try #require(created.json["secret"] as? String)
        return (try #require(created.json["id"] as? String), secret)
    }

    /// Test receivers listen on loopback: the operator trusts it.
    static let trustLoopback: @Sendable (inout PlatformPolicy) -> Void = { $0.webhooks.allowHosts = ["127.0.0.1"] }

    @Test func paymentAndRefundChangesAreDeliveredSignedInOrder() async throws {
        try await TestStack.with(policy: Self.trustLoopback) { stack in
            try await WebhookReceiver.with { receiver in
                let m = try await stack.worldlineMerchant()
                let endpoint = try await register(stack, m, receiver.url, types: ["payment.*", "refund.succeeded"])
                #expect(endpoint.secret.hasPrefix("whsec_"))
                let shown = try await stack.send(.GET, "/v1/webhook-endpoints/\(endpoint.id)", token: m.apiKey)
                #expect(shown.status == 200)
                #expect(shown.json["secret"] == nil, "the secret is shown once")
                #expect(!String(decoding: shown.body, as: UTF8.self).contains(endpoint.secret))

                let flows = WorldlineEndToEndTests()
                let created = try await flows.payment(stack, m, amount: 5000, capture: "manual")
                let id = try #require(created["id"] as? String)
                let completed = try await flows.complete(stack, m, created, card: WorldlineDirectTestCard.authorised)
                #expect(completed.json["status"] as? String == "authorized")
                #expect(
                    try await stack.send(.POST, "/v1/payments/\(id)/capture", token: m.apiKey, json: [:]).status == 200)
                let refund = try await stack.send(
                    .POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: ["amount": 1200])
                #expect(refund.json["status"] as? String == "succeeded")

                let wanted = ["payment.requires_action", "payment.authorized", "payment.succeeded", "refund.succeeded"]
                let received = try await receiver.wait { deliveries in
                    Set(wanted).isSubset(of: Set(deliveries.map(\.type)))
                }
                for delivery in received {
                    #expect(delivery.verifies(secret: endpoint.secret), "signature of \(delivery.type)")
                    #expect(!delivery.verifies(secret: endpoint.secret + "x"))
                    #expect(delivery.json["type"] as? String == delivery.type)
                }
                #expect(!received.map(\.type).contains("refund.pending"), "not subscribed")
                let succeeded = try #require(received.first { $0.type == "payment.succeeded" })
                let object = try #require((succeeded.json["data"] as? [String: Any])?["object"] as? [String: Any])
                #expect(object["id"] as? String == id)
                #expect(object["amount_captured"] as? Int == 5000)
                #expect(object["status"] as? String == "succeeded")
                let refunded = try #require(received.first { $0.type == "refund.succeeded" })
                let refundObject = (refunded.json["data"] as? [String: Any])?["object"] as? [String: Any]
                #expect(refundObject?["payment"] as? String == id)
                #expect(refundObject?["amount"] as? Int == 1200)
                // Deliveries run concurrently, so they may arrive out of order; the events list, newest
                // first, keeps the order the changes happened in.
                let events = try await stack.send(.GET, "/v1/events?object=\(id)", token: m.apiKey)
                let types = (events.json["data"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
                #expect(
                    types.reversed() == [
                        "payment.processing", "payment.requires_action", "payment.authorized", "payment.succeeded",
                    ], "\(types)")
                // refund.pending is recorded although no endpoint subscribes to it.
                let all = try await stack.send(.GET, "/v1/events?type=refund.pending", token: m.apiKey)
                #expect((all.json["data"] as? [[String: Any]])?.count == 1)

                // Each delivery lists its attempt: status code and latency; which worker sent it is internal.
                let eventId = succeeded.eventId
                let deliveries = try await stack.send(.GET, "/v1/events/\(eventId)/deliveries", token: m.apiKey)
                let delivery = try #require((deliveries.json["data"] as? [[String: Any]])?.first)
                #expect(delivery["status"] as? String == "succeeded")
                let attempt = try #require((delivery["attempts"] as? [[String: Any]])?.first)
                #expect(attempt["status_code"] as? Int == 200)
                #expect(attempt["latency_ms"] is Int)
                #expect(attempt["worker"] == nil)
                #expect(!String(decoding: deliveries.body, as: UTF8.self).contains(stack.runtime.webhooks.worker))
            }
        }
    }

    @Test func aFailingEndpointIsRetriedThenSucceeds() async throws {
        try await TestStack.with(policy: {
            $0.webhooks.retryScheduleMs = [200, 200, 200]
            Self.trustLoopback(&$0)
        }) { stack in
            try await WebhookReceiver.with { receiver in
                let m = try await stack.worldlineMerchant()
                let endpoint = try await register(stack, m, receiver.url, types: ["payment.requires_action"])
                receiver.answer([500, 503])
                let created = try await WorldlineEndToEndTests().payment(stack, m)
                let received = try await receiver.wait { $0.count >= 3 }
                #expect(received.map(\.status) == [500, 503, 200])
                #expect(Set(received.map(\.eventId)).count == 1, "the same event each time")
                #expect(received.map { $0.headers["switchyard-attempt"] } == ["1", "2", "3"])
                #expect(received.allSatisfy { $0.verifies(secret: endpoint.secret) })
                let object = (received[0].json["data"] as? [String: Any])?["object"] as? [String: Any]
                #expect(object?["id"] as? String == created["id"] as? String)

                let eventId = received[0].eventId
                var delivery: [String: Any] = [:]
                try await Poll.holds("the delivery recorded", within: .seconds(2)) {
                    let listed = try await stack.send(.GET, "/v1/events/\(eventId)/deliveries", token: m.apiKey)
                    delivery = (listed.json["data"] as? [[String: Any]])?.first ?? [:]
                    return delivery["status"] as? String == "succeeded"
                }
                #expect(delivery["status"] as? String == "succeeded")
                #expect(delivery["attempt_count"] as? Int == 3)
                let codes = (delivery["attempts"] as? [[String: Any]] ?? []).compactMap { $0["status_code"] as? Int }
                #expect(codes == [500, 503, 200])
            }
        }
    }

    @Test func aDeadLetteredEventIsReplayed() async throws {
        try await TestStack.with(policy: {
            $0.webhooks.retryScheduleMs = [100, 100]
            Self.trustLoopback(&$0)
        }) { stack in
            try await WebhookReceiver.with { receiver in
                let m = try await stack.worldlineMerchant()
                let endpoint = try await register(stack, m, receiver.url, types: ["payment.requires_action"])
                receiver.answer([], then: 500)
                _ = try await WorldlineEndToEndTests().payment(stack, m)
                try await receiver.wait { $0.count >= 3 }
                var dead: [[String: Any]] = []
                try await Poll.holds("a dead delivery", within: .seconds(2)) {
                    let listed = try await stack.send(.GET, "/v1/webhook-deliveries?status=dead", token: m.apiKey)
                    dead = listed.json["data"] as? [[String: Any]] ?? []
                    return !dead.isEmpty
                }
                let letter = try #require(dead.first)
                #expect(letter["attempt_count"] as? Int == 3)
                #expect(letter["last_status_code"] as? Int == 500)
                // Absence is the subject: a fourth attempt has no event before it arrives, so the receiver is
                // given four retry intervals to show one.
                try await Task.sleep(for: .milliseconds(400))
                #expect(receiver.deliveries.count == 3, "no attempt after the dead letter")

                receiver.answer([], then: 204)
                let eventId = try #require(letter["event"] as? String)
                let replay = try await stack.send(.POST, "/v1/events/\(eventId)/replay", token: m.apiKey)
                #expect(replay.status == 202, "\(String(decoding: replay.body, as: UTF8.self))")
                let replayed = try #require((replay.json["data"] as? [[String: Any]])?.first)
                #expect(replayed["replay_of"] as? String == letter["id"] as? String)
                let received = try await receiver.wait { $0.count >= 4 }
                #expect(received[3].eventId == eventId)
                #expect(received[3].status == 204)
                #expect(received[3].verifies(secret: endpoint.secret))
                #expect(received[3].body == received[0].body, "the same event body")

                let unknown = try await stack.send(.POST, "/v1/events/evt_nope/replay", token: m.apiKey)
                #expect(unknown.status == 404)
                // A disabled endpoint gets nothing more, and a replay to it is refused.
                #expect(
                    try await stack.send(.DELETE, "/v1/webhook-endpoints/\(endpoint.id)", token: m.apiKey).status == 200
                )
                let refused = try await stack.send(.POST, "/v1/events/\(eventId)/replay", token: m.apiKey)
                #expect(refused.status == 409)
                #expect(refused.errorCode == "no_webhook_endpoint")
            }
        }
    }

    @Test func endpointRegistrationIsValidated() async throws {
        try await TestStack.with(policy: { $0.webhooks.requireHTTPS = true }) { stack in
            let m = try await stack.worldlineMerchant()
            func code(_ json: [String: Any], token: String? = nil) async throws -> (Int, String?) {
                let reply = try await stack.send(.POST, "/v1/webhook-endpoints", token: token ?? m.apiKey, json: json)
                return (reply.status, reply.errorCode)
            }
            #expect(
                try await code(["url": "http://shop.example/hook", "event_types": ["*"]]) == (
                    400, "invalid_webhook_url"
                ))
            #expect(try await code(["url": "not a url", "event_types": ["*"]]) == (400, "invalid_webhook_url"))
            #expect(
                try await code(["url": "https://user:pw@shop.example/hook", "event_types": ["*"]])
                    == (400, "invalid_webhook_url"))
            #expect(
                try await code(["url": "https://shop.example/hook", "event_types": ["payment.exploded"]])
                    == (400, "invalid_event_types"))
            #expect(
                try await code(["url": "https://shop.example/hook", "event_types": []]) == (400, "invalid_event_types"))
            #expect(try await code(["url": "https://shop.example/hook"]).0 == 400)
            #expect(try await code(["url": "https://shop.example/hook", "event_types": ["refund.*"]]).0 == 201)
            #expect(
                try await code(["url": "https://shop.example/hook", "event_types": ["*"]], token: "sk_wrong").0 == 401)
            let key = try await stack.send(
                .POST, "/admin/v1/tenants/\(m.tenantId)/api-keys", token: stack.operatorToken,
                json: ["name": "p", "scopes": ["payments"]])
            let paymentsOnly = try #require(key.json["secret"] as? String)
            #expect(
                try await code(["url": "https://shop.example/hook", "event_types": ["*"]], token: paymentsOnly).0 == 403
            )
            #expect(try await stack.send(.GET, "/v1/events?limit=0", token: m.apiKey).errorCode == "invalid_limit")
            #expect(try await stack.send(.GET, "/v1/webhook-deliveries?status=lost", token: m.apiKey).status == 400)
            #expect(try await stack.send(.GET, "/v1/events/evt_missing", token: m.apiKey).status == 404)
            // Another tenant sees none of it.
            let other = try await stack.worldlineMerchant(name: "Other")
            let listed = try await stack.send(.GET, "/v1/webhook-endpoints", token: other.apiKey)
            #expect((listed.json["data"] as? [[String: Any]])?.isEmpty == true)
        }
    }
}
