import Foundation
import Testing

/// Who may call what: the operator token for `/admin/v1`, a tenant's API key with the right scope for
/// `/v1`; every refusal in the error envelope with its stable code.
@Suite struct AuthenticationRouterTests {
    @Test func operatorRoutesTakeOnlyTheOperatorToken() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            let none = try await client.send(.get, "/admin/v1/tenants")
            #expect(none.status == .unauthorized && none.errorCode == "unauthorized")
            let wrong = try await client.send(.get, "/admin/v1/tenants", token: RouterWorld.operatorToken + "x")
            #expect(wrong.status == .unauthorized && wrong.errorCode == "unauthorized")
            let tenantKey = try await client.send(.get, "/admin/v1/tenants", token: m.apiKey)
            #expect(tenantKey.status == .unauthorized && tenantKey.errorCode == "unauthorized")
            let ok = try await client.send(.get, "/admin/v1/tenants", token: RouterWorld.operatorToken)
            #expect(ok.status == .ok)
            #expect((ok.json["data"] as? [[String: Any]])?.map { $0["id"] as? String } == [m.tenantId])
        }
    }

    @Test func merchantRoutesTakeAUsableKeyWithTheirScope() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client, scopes: ["payments"])
            let none = try await client.send(.get, "/v1/payments")
            #expect(none.status == .unauthorized && none.errorCode == "unauthorized")
            let unknown = try await client.send(
                .get, "/v1/payments", token: "sk_test_" + String(repeating: "a", count: 40))
            #expect(unknown.status == .unauthorized && unknown.errorCode == "invalid_api_key")
            let asOperator = try await client.send(.get, "/v1/payments", token: RouterWorld.operatorToken)
            #expect(asOperator.status == .unauthorized)
            let listed = try await client.send(.get, "/v1/payments", token: m.apiKey)
            #expect(listed.status == .ok)
            // The key has no admin scope: the tenant's own routing is out of reach.
            let routing = try await client.send(.get, "/v1/routing", token: m.apiKey)
            #expect(routing.status == .forbidden && routing.errorCode == "insufficient_scope")
        }
    }

    @Test func aRevokedKeyIsRefused() async throws {
        let world = RouterWorld()
        try await world.test { client in
            let m = try await world.merchant(client)
            let keys = try await client.send(
                .get, "/admin/v1/tenants/\(m.tenantId)/api-keys", token: RouterWorld.operatorToken)
            let keyId = try #require((keys.json["data"] as? [[String: Any]])?.first?["id"] as? String)
            let revoked = try await client.send(
                .delete, "/admin/v1/tenants/\(m.tenantId)/api-keys/\(keyId)", token: RouterWorld.operatorToken)
            #expect(revoked.status.code < 300, "\(revoked.text)")
            let refused = try await client.send(.get, "/v1/payments", token: m.apiKey)
            #expect(refused.status == .unauthorized && refused.errorCode == "invalid_api_key")
        }
    }
}
