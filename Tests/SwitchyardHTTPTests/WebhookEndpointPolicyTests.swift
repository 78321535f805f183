import Foundation
import SwitchyardCluster
import SwitchyardCore
import SwitchyardStore
import SwitchyardTestSupport
import TestWaiting
import Testing

/// What a tenant may do with webhook endpoints through the API: which addresses they may reach, how
/// many endpoints and replays it may have, and how little the delivery log says about the network.
@Suite(.serialized)
struct WebhookEndpointPolicyTests {
    @Test func endpointsThatReachThePlatformsOwnNetworkAreRefused() async throws {
        // The operator trusts `localhost` (by name) only; http is allowed as in the test stack.
        try await TestStack.with(policy: { $0.webhooks.allowHosts = ["localhost"] }) { stack in
            let m = try await stack.worldlineMerchant()
            func register(_ url: String) async throws -> (Int, String?) {
                let reply = try await stack.send(
                    .POST, "/v1/webhook-endpoints", token: m.apiKey, json: ["url": url, "event_types": ["*"]])
                return (reply.status, reply.errorCode)
            }
            for url in [
                "http://127.0.0.1:8080/hook", "http://2130706433/", "http://0x7f.1/", "http://127.1/",
                "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://[64:ff9b::7f00:1]/",
                "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://192.168.1.1/",
                "http://172.16.0.1/", "http://100.64.0.1/", "http://0.0.0.0/", "http://[fe80::1]/",
                "http://[fd00::1]/", "http://224.0.0.1/", "http://api.localhost/",
            ] {
                #expect(try await register(url) == (400, "endpoint_address_forbidden"), "\(url)")
            }
            #expect(try await register("http://[fe80::1%25eth0]/").1 == "invalid_webhook_url")
            #expect(try await register("https://shop.example/hook").0 == 201, "a public name is accepted")
            #expect(try await register("http://localhost:9/hook").0 == 201, "the operator trusts localhost")
        }
    }

    @Test func deliveryRechecksTheAddressAndTenantsSeeCoarseClassesOnly() async throws {
        try await TestStack.with(policy: { $0.webhooks.allowHosts = ["localhost"] }) { stack in
            try await WebhookReceiver.with { receiver in
                let m = try await stack.worldlineMerchant()
                let tenant = try #require(UUID(uuidString: m.tenantId))
                // Stored as if registered when loopback was allowed: deliveries must not reach it now.
                let (loopback, _) = try await stack.runtime.store.webhooks.createWebhookEndpoint(
                    tenant: tenant, url: receiver.url, description: nil, eventTypes: ["payment.requires_action"],
                    actor: "test", maxEnabled: 16)
                // A trusted host with nothing listening: the connection fails.
                let closed = PostgresCluster.freePort()
                let trusted = try await stack.send(
                    .POST, "/v1/webhook-endpoints", token: m.apiKey,
                    json: ["url": "http://localhost:\(closed)/hook", "event_types": ["payment.requires_action"]])
                #expect(trusted.status == 201)
                let trustedId = try #require(trusted.json["id"] as? String)

                _ = try await WorldlineEndToEndTests().payment(stack, m)
                var deliveries: [[String: Any]] = []
                try await Poll.holds("two attempted deliveries", within: .seconds(10), every: .milliseconds(100)) {
                    let listed = try await stack.send(.GET, "/v1/webhook-deliveries", token: m.apiKey)
                    deliveries = listed.json["data"] as? [[String: Any]] ?? []
                    return deliveries.filter { ($0["attempts"] as? [Any])?.isEmpty == false }.count == 2
                }
                #expect(receiver.deliveries.isEmpty, "nothing reached the loopback receiver")
                let byEndpoint = Dictionary(
                    deliveries.map { ($0["endpoint"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
                let forbidden = try #require(byEndpoint[loopback.id])
                let failed = try #require(byEndpoint[trustedId])
                #expect(forbidden["last_error"] as? String == "address_forbidden")
                #expect(failed["last_error"] as? String == "connection_failed")
                for delivery in [forbidden, failed] {
                    let attempt = try #require((delivery["attempts"] as? [[String: Any]])?.first)
                    #expect(attempt["status_code"] == nil)
                    #expect(attempt["latency_ms"] == nil, "no timing without an answer")
                    #expect(attempt["worker"] == nil)
                }
                let text = String(decoding: try JSONSerialization.data(withJSONObject: deliveries), as: UTF8.self)
                for leak in ["refused", "timed out", "127.0.0.1", "::1", stack.runtime.webhooks.worker] {
                    #expect(!text.contains(leak), "the delivery log does not say \(leak)")
                }
            }
        }
    }

    @Test func endpointsAndReplaysHaveQuotas() async throws {
        try await TestStack.with(policy: {
            $0.webhooks.allowHosts = ["127.0.0.1"]
            $0.webhooks.maxEndpointsPerTenant = 2
            $0.webhooks.replayLimit = 2
        }) { stack in
            try await WebhookReceiver.with { receiver in
                let m = try await stack.worldlineMerchant()
                func register() async throws -> TestStack.Reply {
                    try await stack.send(
                        .POST, "/v1/webhook-endpoints", token: m.apiKey,
                        json: ["url": receiver.url, "event_types": ["payment.requires_action"]])
                }
                let first = try await register()
                #expect(first.status == 201)
                #expect(try await register().status == 201)
                let third = try await register()
                #expect(third.status == 409)
                #expect(third.errorCode == "endpoint_quota_exceeded")
                // Another tenant has its own quota.
                let other = try await stack.worldlineMerchant(name: "Other")
                let elsewhere = try await stack.send(
                    .POST, "/v1/webhook-endpoints", token: other.apiKey,
                    json: ["url": receiver.url, "event_types": ["*"]])
                #expect(elsewhere.status == 201)
                // A disabled endpoint frees its place.
                let firstId = try #require(first.json["id"] as? String)
                #expect(
                    try await stack.send(.DELETE, "/v1/webhook-endpoints/\(firstId)", token: m.apiKey).status == 200)
                #expect(try await register().status == 201)

                _ = try await WorldlineEndToEndTests().payment(stack, m)
                let delivered = try await receiver.wait { $0.count >= 2 }
                let eventId = delivered[0].eventId
                // Each replay to both endpoints is two deliveries: the second replay would pass the limit.
                let replay = try await stack.send(.POST, "/v1/events/\(eventId)/replay", token: m.apiKey)
                #expect(replay.status == 202)
                let refused = try await stack.send(.POST, "/v1/events/\(eventId)/replay", token: m.apiKey)
                #expect(refused.status == 429)
                #expect(refused.errorCode == "replay_quota_exceeded")
                let retryAfter = refused.headers.first { $0.0.lowercased() == "retry-after" }.flatMap { Int($0.1) }
                #expect(
                    retryAfter.map { $0 >= 1 && $0 <= 3600 } == true, "Retry-After: \(String(describing: retryAfter))")
                // The other tenant's replays are not counted against this one.
                let otherPayment = try await WorldlineEndToEndTests().payment(stack, other)
                _ = otherPayment
                let otherEvents = try await stack.send(.GET, "/v1/events", token: other.apiKey)
                let otherEvent = try #require((otherEvents.json["data"] as? [[String: Any]])?.first?["id"] as? String)
                #expect(
                    try await stack.send(.POST, "/v1/events/\(otherEvent)/replay", token: other.apiKey).status == 202)
            }
        }
    }
}
