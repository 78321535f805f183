import Foundation
import SwitchyardCore
import TestWaiting
import Testing

/// The operator console's page and the operator endpoints it relies on: payment search across tenants,
/// webhook deliveries by status and their replay.
@Suite(.serialized)
struct OperatorConsoleTests {
    func header(_ reply: TestStack.Reply, _ name: String) -> String? {
        reply.headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    @Test func theConsoleIsServedWithItsTypesAndAStrictPolicy() async throws {
        try await TestStack.with { stack in
            for (path, type) in [
                ("/console", "text/html"), ("/console/app.js", "text/javascript"), ("/console/app.css", "text/css"),
            ] {
                let reply = try await stack.send(.GET, path)
                #expect(reply.status == 200, "\(path)")
                #expect(header(reply, "Content-Type")?.hasPrefix(type) == true, "\(path)")
                let policy = header(reply, "Content-Security-Policy") ?? ""
                for directive in [
                    "default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'",
                ] {
                    #expect(policy.contains(directive), "\(path): \(policy)")
                }
                #expect(!policy.contains("unsafe-inline") && !policy.contains("http"), "\(path): \(policy)")
                #expect(header(reply, "X-Content-Type-Options") == "nosniff")
                #expect(header(reply, "Cache-Control") == "no-store")
            }
            let page = String(decoding: try await stack.send(.GET, "/console").body, as: UTF8.self)
            #expect(page.contains(#"<script src="/console/app.js" defer></script>"#))
            #expect(page.components(separatedBy: "<script").count == 2, "no inline script")
            let script = String(decoding: try await stack.send(.GET, "/console/app.js").body, as: UTF8.self)
            #expect(script.contains("sessionStorage.setItem(TOKEN_KEY"))
            #expect(!script.contains("localStorage"), "the token never outlives the tab")
            #expect(!script.contains("innerHTML"), "text from the API is never parsed as HTML")
            #expect(script.contains(#"api("GET", "/admin/v1/me")"#), "the console asks who is signed in")
            #expect(!script.contains("console.log"), "nothing, a token least of all, is logged")
            #expect(script.contains(#"querySelectorAll("[data-perm]")"#), "controls are gated by permission")
            for permission in ["policy.manage", "plugins.manage", "routing.manage", "keys.manage", "webhooks.replay"] {
                #expect(script.contains("\"\(permission)\""), "\(permission) gates its controls")
            }
        }
    }

    @Test func theOperatorFindsPaymentsByIdOrReferenceAcrossTenants() async throws {
        try await TestStack.with { stack in
            let a = try await stack.merchant(name: "Shop A")
            let b = try await stack.merchant(name: "Shop B")
            let body: [String: Any] = [
                "amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": "order-77",
            ]
            let paidA = try await stack.createPayment(a, body)
            let paidB = try await stack.createPayment(b, body)
            let idA = try #require(paidA["id"] as? String)

            let byReference = try await stack.send(
                .GET, "/admin/v1/payments?reference=order-77", token: stack.operatorToken)
            #expect(byReference.status == 200)
            let hits = byReference.json["data"] as? [[String: Any]] ?? []
            #expect(Set(hits.compactMap { $0["tenant_id"] as? String }) == [a.tenantId, b.tenantId])
            #expect(
                Set(hits.compactMap { ($0["payment"] as? [String: Any])?["id"] as? String })
                    == [idA, paidB["id"] as? String])

            let byId = try await stack.send(.GET, "/admin/v1/payments?id=\(idA)", token: stack.operatorToken)
            let hit = try #require((byId.json["data"] as? [[String: Any]])?.first)
            #expect((byId.json["data"] as? [Any])?.count == 1)
            #expect(hit["tenant_name"] as? String == "Shop A")
            let payment = try #require(hit["payment"] as? [String: Any])
            let attempts = payment["attempts"] as? [[String: Any]] ?? []
            #expect(attempts.first?["plugin"] as? String == "citcon")
            #expect(attempts.first?["provider_account"] as? String == a.accountId)
            let routing = try #require(payment["routing"] as? [String: Any])
            #expect((routing["candidates"] as? [String])?.map { $0.lowercased() } == [a.accountId])

            let none = try await stack.send(.GET, "/admin/v1/payments?id=pay_nothing", token: stack.operatorToken)
            #expect(none.status == 200 && (none.json["data"] as? [Any])?.isEmpty == true)
            for query in ["", "?id=&reference=", "?id=\(idA)&reference=order-77"] {
                let refused = try await stack.send(.GET, "/admin/v1/payments\(query)", token: stack.operatorToken)
                #expect(refused.status == 400 && refused.errorCode == "invalid_query", "\(query)")
            }
            let long = String(repeating: "x", count: 300)
            let tooLong = try await stack.send(.GET, "/admin/v1/payments?reference=\(long)", token: stack.operatorToken)
            #expect(tooLong.status == 400 && tooLong.errorCode == "invalid_query")
            #expect(try await stack.send(.GET, "/admin/v1/payments?id=\(idA)", token: a.apiKey).status == 401)
            #expect(try await stack.send(.GET, "/admin/v1/payments?id=\(idA)").status == 401)
        }
    }

    @Test func theOperatorListsDeadLettersAcrossTenantsAndReplaysThem() async throws {
        try await TestStack.with(policy: {
            $0.webhooks.retryScheduleMs = [100, 100]
            WebhookTests.trustLoopback(&$0)
        }) { stack in
            try await WebhookReceiver.with { receiver in
                let m = try await stack.worldlineMerchant()
                let other = try await stack.merchant(name: "Quiet Shop")
                _ = try await WebhookTests().register(stack, m, receiver.url, types: ["payment.requires_action"])
                receiver.answer([], then: 500)
                _ = try await WorldlineEndToEndTests().payment(stack, m)
                try await receiver.wait { $0.count >= 3 }
                var dead: [[String: Any]] = []
                try await Poll.until("a dead delivery", within: .seconds(5)) {
                    let listed = try await stack.send(
                        .GET, "/admin/v1/webhook-deliveries?status=dead", token: stack.operatorToken)
                    #expect(listed.status == 200)
                    dead = listed.json["data"] as? [[String: Any]] ?? []
                    return !dead.isEmpty
                }
                let hit = try #require(dead.first)
                #expect(hit["tenant_id"] as? String == m.tenantId)
                let letter = try #require(hit["delivery"] as? [String: Any])
                #expect(letter["status"] as? String == "dead")
                #expect(letter["attempt_count"] as? Int == 3)
                let quiet = try await stack.send(
                    .GET, "/admin/v1/webhook-deliveries?status=dead&tenant=\(other.tenantId)",
                    token: stack.operatorToken)
                #expect((quiet.json["data"] as? [Any])?.isEmpty == true, "only the tenant asked for")

                receiver.answer([], then: 204)
                let eventId = try #require(letter["event"] as? String)
                let replay = try await stack.send(
                    .POST, "/admin/v1/tenants/\(m.tenantId)/events/\(eventId)/replay", token: stack.operatorToken,
                    json: ["endpoint": letter["endpoint"] as? String ?? ""])
                #expect(replay.status == 202, "\(String(decoding: replay.body, as: UTF8.self))")
                let replayed = try #require((replay.json["data"] as? [[String: Any]])?.first)
                #expect(replayed["replay_of"] as? String == letter["id"] as? String)
                let received = try await receiver.wait { $0.count >= 4 }
                #expect(received[3].eventId == eventId && received[3].status == 204)
                let audit = try await stack.send(
                    .GET, "/admin/v1/audit?tenant=\(m.tenantId)", token: stack.operatorToken)
                let actions = (audit.json["data"] as? [[String: Any]] ?? []).filter {
                    $0["action"] as? String == "webhook_event.replay"
                }
                #expect(actions.first?["actor"] as? String == "operator:bootstrap", "the break-glass token is named")

                let wrongTenant = try await stack.send(
                    .POST, "/admin/v1/tenants/\(other.tenantId)/events/\(eventId)/replay", token: stack.operatorToken)
                #expect(wrongTenant.status == 404, "another tenant's event is not found")
                let unknownTenant = try await stack.send(
                    .POST, "/admin/v1/tenants/\(UUID().uuidString)/events/\(eventId)/replay", token: stack.operatorToken
                )
                #expect(unknownTenant.status == 404)
                let badStatus = try await stack.send(
                    .GET, "/admin/v1/webhook-deliveries?status=lost", token: stack.operatorToken)
                #expect(badStatus.status == 400 && badStatus.errorCode == "invalid_status")
                let badTenant = try await stack.send(
                    .GET, "/admin/v1/webhook-deliveries?tenant=nope", token: stack.operatorToken)
                #expect(badTenant.status == 400 && badTenant.errorCode == "invalid_tenant")
                let badLimit = try await stack.send(
                    .GET, "/admin/v1/webhook-deliveries?limit=0", token: stack.operatorToken)
                #expect(badLimit.status == 400 && badLimit.errorCode == "invalid_limit")
                #expect(try await stack.send(.GET, "/admin/v1/webhook-deliveries", token: m.apiKey).status == 401)
                #expect(
                    try await stack.send(
                        .POST, "/admin/v1/tenants/\(m.tenantId)/events/\(eventId)/replay", token: m.apiKey
                    )
                    .status == 401)
            }
        }
    }
}
