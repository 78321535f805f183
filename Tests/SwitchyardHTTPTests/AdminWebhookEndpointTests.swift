import Foundation
import Testing

/// An admin manages a tenant's webhook endpoints; a support operator may only send a test event.
@Suite(.serialized)
struct AdminWebhookEndpointTests {
    @Test func anAdminManagesATenantsEndpointsAndSupportMaySendATestEvent() async throws {
        try await TestStack.with(policy: WebhookTests.trustLoopback) { stack in
            let m = try await stack.merchant()
            let admin = try await OperatorAccessTests.add(stack, "Ada Admin", "admin")
            let support = try await OperatorAccessTests.add(stack, "Sam Support", "support")
            try await WebhookReceiver.with { receiver in
                let base = "/admin/v1/tenants/\(m.tenantId)/webhook-endpoints"
                let body: [String: Any] = ["url": receiver.url, "event_types": ["payment.*"]]
                let refused = try await stack.send(.POST, base, token: support.token, json: body)
                #expect(refused.status == 403 && refused.errorCode == "missing_permission")
                let created = try await stack.send(.POST, base, token: admin.token, json: body)
                #expect(created.status == 201, "\(created.json)")
                let id = try #require(created.json["id"] as? String)
                #expect((created.json["secret"] as? String)?.hasPrefix("whsec_") == true)

                let listed = try await stack.send(.GET, base, token: support.token)
                #expect((listed.json["data"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])

                let ping = try await stack.send(.POST, base + "/\(id)/test", token: support.token)
                #expect(ping.status == 202)
                _ = try await receiver.wait { $0.contains { $0.type == "ping" } }

                let rotated = try await stack.send(.POST, base + "/\(id)/rotate-secret", token: admin.token, json: [:])
                #expect(rotated.status == 200 && rotated.json["secret"] as? String != created.json["secret"] as? String)
                let disabled = try await stack.send(.DELETE, base + "/\(id)", token: admin.token)
                #expect(disabled.status == 200)
                #expect(try await stack.send(.DELETE, base + "/we_nothing", token: admin.token).status == 404)

                let audit = try await stack.send(.GET, "/admin/v1/audit?operator=\(admin.id)", token: admin.token)
                let actors = ((audit.json["data"] as? [[String: Any]]) ?? []).compactMap { $0["actor"] as? String }
                #expect(!actors.isEmpty && actors.allSatisfy { $0 == "operator:Ada Admin" })
            }
        }
    }
}
