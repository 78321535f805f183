import Foundation
import Testing

/// The operator's tenant, key, account and routing routes round trip through the admin services, and
/// what they write is what payments are routed by and what a simulation explains.
@Suite struct AdminRouterTests {
    @Test func tenantKeyAccountAndRoutingRoundTrip() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client, name: "Round Trip")
            let token = RouterWorld.operatorToken
            let tenant = try await client.send(.get, "/admin/v1/tenants/\(m.tenantId)", token: token)
            #expect(tenant.status == .ok && tenant.json["name"] as? String == "Round Trip")
            let keys = try await client.send(.get, "/admin/v1/tenants/\(m.tenantId)/api-keys", token: token)
            let key = try #require((keys.json["data"] as? [[String: Any]])?.first)
            #expect(Set(key["scopes"] as? [String] ?? []) == ["payments", "admin"])
            #expect(key["secret"] == nil)
            let account = try await client.send(
                .get, "/admin/v1/tenants/\(m.tenantId)/provider-accounts/\(m.accountId)", token: token)
            #expect(account.status == .ok)
            #expect(account.json["plugin"] as? String == RouterWorld.pluginId)
            #expect(account.json["base_url"] as? String == "https://provider.invalid")
            let routing = try await client.send(.get, "/admin/v1/tenants/\(m.tenantId)/routing", token: token)
            #expect(routing.json["version"] as? Int == 1)
            let rule = try #require((routing.json["rules"] as? [[String: Any]])?.first)
            #expect(rule["name"] as? String == "everything")
            #expect((rule["accounts"] as? [String])?.map { $0.lowercased() } == [m.accountId])
            // The tenant reads the same routing with its admin-scoped key.
            let own = try await client.send(.get, "/v1/routing", token: m.apiKey)
            #expect(own.status == .ok && own.json["version"] as? Int == 1)

            let unknownPlugin = try await client.send(
                .post, "/admin/v1/tenants/\(m.tenantId)/provider-accounts", token: token,
                ["plugin": "nope", "base_url": "https://provider.invalid"])
            #expect(unknownPlugin.status == .unprocessableContent && unknownPlugin.errorCode == "unknown_plugin")
            let missingTenant = try await client.send(
                .get, "/admin/v1/tenants/\(UUID().uuidString.lowercased())", token: token)
            #expect(missingTenant.status == .notFound && missingTenant.errorCode == "not_found")
        }
    }

    @Test func simulationExplainsTheTenantsRouting() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            let body: [String: Any] = ["amount": 500, "currency": "EUR", "country": "FR", "method": "card"]
            for (path, token) in [
                ("/v1/routing/simulate", m.apiKey),
                ("/admin/v1/tenants/\(m.tenantId)/routing/simulate", RouterWorld.operatorToken),
            ] {
                let simulated = try await client.send(.post, path, token: token, body)
                #expect(simulated.status == .ok, "\(path): \(simulated.text)")
                let chosen = try #require(simulated.json["chosen"] as? [String: Any])
                #expect(chosen["account_id"] as? String == m.accountId)
                #expect((simulated.json["matched_rule"] as? [String: Any])?["name"] as? String == "everything")
                #expect(simulated.json["routing_version"] as? Int == 1)
            }
            #expect(world.gateway.calls.isEmpty)
            let invalid = try await client.send(
                .post, "/v1/routing/simulate", token: m.apiKey,
                ["amount": -1, "currency": "EUR", "country": "FR", "method": "card"])
            #expect(invalid.status == .badRequest && invalid.errorCode == "invalid_amount")
        }
    }
}
