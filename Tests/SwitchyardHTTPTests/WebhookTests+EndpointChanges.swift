import Foundation
import SwitchyardCore
import TestWaiting
import Testing

/// Endpoints changed after registration: updates and re-enabling, secret rotation with an overlap, and
/// test pings through the real delivery worker.
extension WebhookTests {
    /// The `v1=` entries of a delivery's signature header.
    static func signatures(_ delivery: WebhookReceiver.Delivery) -> [Substring] {
        (delivery.headers["switchyard-signature"] ?? "").split(separator: ",").filter { $0.hasPrefix("v1=") }
    }

    /// Sends a test ping to `endpoint` and waits for the receiver's `count`th delivery.
    func ping(_ stack: TestStack, _ m: TestStack.Merchant, _ receiver: WebhookReceiver, _ endpoint: String, count: Int)
        async throws -> WebhookReceiver.Delivery
    {
        let sent = try await stack.send(.POST, "/v1/webhook-endpoints/\(endpoint)/test", token: m.apiKey)
        try #require(sent.status == 202, "\(String(decoding: sent.body, as: UTF8.self))")
        #expect(sent.json["endpoint"] as? String == endpoint)
        return try #require(try await receiver.wait { $0.count >= count }.last)
    }

    @Test func aPingIsSignedAndDuringARotationBySecretsOldAndNew() async throws {
        try await TestStack.with(policy: Self.trustLoopback) { stack in
            try await WebhookReceiver.with { receiver in
                let m = try await stack.worldlineMerchant()
                let endpoint = try await register(stack, m, receiver.url, types: ["refund.failed"])
                let first = try await ping(stack, m, receiver, endpoint.id, count: 1)
                #expect(first.type == "ping")
                #expect(first.verifies(secret: endpoint.secret))
                #expect(Self.signatures(first).count == 1)
                let object = (first.json["data"] as? [String: Any])?["object"] as? [String: Any]
                #expect(object?["id"] as? String == endpoint.id && object?["url"] as? String == receiver.url)

                // Rotated with an overlap: deliveries carry both signatures, either secret verifies.
                let rotated = try await stack.send(
                    .POST, "/v1/webhook-endpoints/\(endpoint.id)/rotate-secret", token: m.apiKey,
                    json: ["expires_in_seconds": 3600])
                #expect(rotated.status == 200)
                let newSecret = try #require(rotated.json["secret"] as? String)
                #expect(newSecret != endpoint.secret && newSecret.hasPrefix("whsec_"))
                #expect(rotated.json["previous_secret_expires_at"] is String)
                let shown = try await stack.send(.GET, "/v1/webhook-endpoints/\(endpoint.id)", token: m.apiKey)
                #expect(shown.json["secret"] == nil && !String(decoding: shown.body, as: UTF8.self).contains(newSecret))
                let during = try await ping(stack, m, receiver, endpoint.id, count: 2)
                #expect(Self.signatures(during).count == 2)
                #expect(during.verifies(secret: newSecret))
                #expect(during.verifies(secret: endpoint.secret), "the old secret still verifies during the overlap")

                // Rotated again without an overlap: only the newest secret signs.
                let ended = try await stack.send(
                    .POST, "/v1/webhook-endpoints/\(endpoint.id)/rotate-secret", token: m.apiKey,
                    json: ["expires_in_seconds": 0])
                let newest = try #require(ended.json["secret"] as? String)
                let after = try await ping(stack, m, receiver, endpoint.id, count: 3)
                #expect(Self.signatures(after).count == 1)
                #expect(after.verifies(secret: newest))
                #expect(!after.verifies(secret: newSecret) && !after.verifies(secret: endpoint.secret))
                let tooLong = try await stack.send(
                    .POST, "/v1/webhook-endpoints/\(endpoint.id)/rotate-secret", token: m.apiKey,
                    json: ["expires_in_seconds": WebhookSecretRotation.maximumOverlapSeconds + 1])
                #expect(tooLong.status == 400 && tooLong.errorCode == "invalid_field")

                // Each ping is an event and a recorded delivery of that endpoint alone.
                var succeeded: [[String: Any]] = []
                try await Poll.until("three recorded deliveries", within: .seconds(5)) {
                    let listed = try await stack.send(
                        .GET, "/v1/webhook-deliveries?status=succeeded", token: m.apiKey)
                    succeeded = listed.json["data"] as? [[String: Any]] ?? []
                    return succeeded.count >= 3
                }
                #expect(succeeded.count == 3 && succeeded.allSatisfy { $0["endpoint"] as? String == endpoint.id })
                let pings = try await stack.send(.GET, "/v1/events?type=ping", token: m.apiKey)
                #expect((pings.json["data"] as? [[String: Any]])?.count == 3)
                let other = try await stack.worldlineMerchant(name: "Other")
                let foreign = try await stack.send(
                    .POST, "/v1/webhook-endpoints/\(endpoint.id)/test", token: other.apiKey)
                #expect(foreign.status == 404)
            }
        }
    }

    @Test func anEndpointIsUpdatedDisabledAndReEnabledUnderTheRegistrationRules() async throws {
        try await TestStack.with(policy: {
            Self.trustLoopback(&$0)
            $0.webhooks.maxEndpointsPerTenant = 1
        }) { stack in
            let m = try await stack.worldlineMerchant()
            let endpoint = try await register(stack, m, "http://127.0.0.1:9/a", types: ["payment.*"])
            func update(_ body: [String: Any], _ id: String? = nil) async throws -> TestStack.Reply {
                try await stack.send(.POST, "/v1/webhook-endpoints/\(id ?? endpoint.id)", token: m.apiKey, json: body)
            }
            let changed = try await update([
                "url": "http://127.0.0.1:9/b", "event_types": ["refund.*"], "description": "refunds",
            ])
            #expect(changed.status == 200)
            #expect(changed.json["url"] as? String == "http://127.0.0.1:9/b")
            #expect(changed.json["event_types"] as? [String] == ["refund.*"])
            #expect(changed.json["description"] as? String == "refunds")
            #expect(try await update(["url": "ftp://127.0.0.1/x"]).errorCode == "invalid_webhook_url")
            #expect(try await update(["url": "https://10.0.0.5/x"]).errorCode == "endpoint_address_forbidden")
            #expect(try await update(["event_types": ["payment.nope"]]).errorCode == "invalid_event_types")
            #expect(try await update([:]).errorCode == "invalid_request")
            #expect(try await update(["enabled": true], "we_missing").status == 404)

            #expect(try await update(["enabled": false]).json["enabled"] as? Bool == false)
            let refused = try await stack.send(.POST, "/v1/webhook-endpoints/\(endpoint.id)/test", token: m.apiKey)
            #expect(refused.status == 409 && refused.errorCode == "invalid_state")
            // The quota of one enabled endpoint is free again, then full when the first is re-enabled.
            let second = try await register(stack, m, "http://127.0.0.1:9/c")
            #expect(try await update(["enabled": true]).errorCode == "endpoint_quota_exceeded")
            #expect(try await update(["enabled": false], second.id).status == 200)
            #expect(try await update(["enabled": true]).json["enabled"] as? Bool == true)
            let audit = try await stack.send(
                .GET, "/admin/v1/audit?tenant=\(m.tenantId)", token: stack.operatorToken)
            let actions = (audit.json["data"] as? [[String: Any]] ?? []).compactMap { $0["action"] as? String }
            #expect(actions.filter { $0 == "webhook_endpoint.update" }.count == 4)
        }
    }
}
