import Foundation
import Hummingbird
import NIOHTTP1
import SwitchyardHTTP
import TestWaiting
import Testing

@Suite(.serialized) struct AdminAPITests {
    @Test func secretsAreWriteOnlyKeysShownOnceAndChangesAudited() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            let accounts = try await stack.send(
                .GET, "/admin/v1/tenants/\(m.tenantId)/provider-accounts", token: stack.operatorToken)
            let text = String(decoding: accounts.body, as: UTF8.self)
            #expect(!text.contains(TestStack.citconMerchant.privateKey))
            #expect(!text.contains(TestStack.citconMerchant.ipnSecret))
            let keys = try await stack.send(
                .GET, "/admin/v1/tenants/\(m.tenantId)/api-keys", token: stack.operatorToken)
            #expect(!String(decoding: keys.body, as: UTF8.self).contains(m.apiKey))
            let listed = try #require(keys.json["data"] as? [[String: Any]])
            #expect(listed.first?["prefix"] as? String == String(m.apiKey.prefix(16)))
            #expect(listed.first?["livemode"] as? Bool == false)
            let audit = try await stack.send(.GET, "/admin/v1/audit?tenant=\(m.tenantId)", token: stack.operatorToken)
            let actions = (audit.json["data"] as? [[String: Any]])?.compactMap { $0["action"] as? String } ?? []
            #expect(
                Set(actions).isSuperset(of: [
                    "tenant.create", "api_key.create", "provider_account.create", "routing.replace",
                ]))
            #expect(!String(decoding: audit.body, as: UTF8.self).contains(TestStack.citconMerchant.privateKey))

            // Disable the account: the route has no usable candidate left.
            let disabled = try await stack.send(
                .PATCH, "/admin/v1/tenants/\(m.tenantId)/provider-accounts/\(m.accountId)", token: stack.operatorToken,
                json: ["enabled": false])
            #expect(disabled.status == 200)
            let refused = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey,
                json: ["amount": 100, "currency": "USD", "country": "US", "method": "alipay", "reference": "r"])
            #expect(refused.status == 422)
            #expect(refused.errorCode == "no_route")
        }
    }

    /// Every admin route under `/tenants/{tenant}` reads the tenant the same way: a malformed id and an id that is
    /// no tenant's both answer `404 not_found`, never a 5xx or another tenant's data.
    @Test func aTenantPathThatNamesNoTenantIs404OnEveryKindOfAdminRoute() async throws {
        try await TestStack.with { stack in
            _ = try await stack.merchant()
            for tenant in ["not-a-uuid", UUID().uuidString.lowercased()] {
                let base = "/admin/v1/tenants/\(tenant)"
                let requests: [(HTTPMethod, String)] = [
                    (.GET, base), (.GET, base + "/provider-accounts"), (.GET, base + "/disputes"),
                    (.GET, base + "/webhook-endpoints"), (.GET, base + "/routing"),
                    (.POST, base + "/payments/pay_x/sync"), (.POST, base + "/events/evt_x/replay"),
                    (.GET, base + "/policy"),
                ]
                for (method, path) in requests {
                    let answer = try await stack.send(method, path, token: stack.operatorToken, json: [:])
                    #expect(
                        answer.status == 404,
                        "\(method.rawValue) \(path): \(String(decoding: answer.body, as: UTF8.self))")
                    #expect(answer.errorCode == "not_found", "\(method.rawValue) \(path)")
                }
            }
        }
    }

    @Test func revokedKeysAndTheWrongCredentialAreRefused() async throws {
        try await TestStack.with { stack in
            let m = try await stack.merchant()
            #expect(try await stack.send(.GET, "/admin/v1/tenants", token: m.apiKey).status == 401)
            #expect(try await stack.send(.GET, "/admin/v1/tenants").status == 401)
            let keys = try await stack.send(
                .GET, "/admin/v1/tenants/\(m.tenantId)/api-keys", token: stack.operatorToken)
            let keyId = try #require((keys.json["data"] as? [[String: Any]])?.first?["id"] as? String)
            #expect(
                try await stack.send(
                    .DELETE, "/admin/v1/tenants/\(m.tenantId)/api-keys/\(keyId)", token: stack.operatorToken
                ).status == 204)
            let after = try await stack.send(.GET, "/v1/payments", token: m.apiKey)
            #expect(after.status == 401)
            #expect(after.errorCode == "invalid_api_key")
            let unknownTenant = try await stack.send(
                .GET, "/admin/v1/tenants/\(UUID().uuidString)", token: stack.operatorToken)
            #expect(unknownTenant.status == 404)
            let badPlugin = try await stack.send(
                .POST, "/admin/v1/tenants/\(m.tenantId)/provider-accounts", token: stack.operatorToken,
                json: ["plugin": "nope", "base_url": "http://127.0.0.1:1"])
            #expect(badPlugin.status == 422)
            #expect(badPlugin.errorCode == "unknown_plugin")
        }
    }

    @Test func healthReadinessAndTheOpenAPIDocumentMatchTheRoutes() async throws {
        try await TestStack.with { stack in
            #expect(try await stack.send(.GET, "/health").status == 200)
            #expect(try await stack.send(.GET, "/ready").status == 200)
            let document = try await stack.send(.GET, "/openapi.json").json
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            var documented: Set<String> = []
            for (path, methods) in paths {
                for method in methods.keys { documented.insert("\(method.uppercased()) \(path)") }
            }
            let router = SwitchyardServer.router(stack.runtime.dependencies)
            let served = Set(
                router.routes.map { route in
                    let path = route.path.description.split(separator: "/").map { part in
                        part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
                    }
                    return "\(route.method.rawValue) /" + path.joined(separator: "/")
                })
            #expect(served == documented)
        }
    }

    @Test func aPluginCopiedInWhileServingIsLoadedAndTheServerKeepsAnswering() async throws {
        try await TestStack.with(installPlugins: false) { stack in
            let before = try await stack.send(.GET, "/admin/v1/plugins", token: stack.operatorToken).json
            #expect((before["loaded"] as? [Any])?.isEmpty == true)
            #expect(try await stack.send(.GET, "/ready").status == 503)
            let source = try TestStack.citconPluginPath()
            let temporary = stack.pluginsDirectory + "/.incoming"
            try FileManager.default.copyItem(atPath: source, toPath: temporary)
            try FileManager.default.moveItem(atPath: temporary, toPath: stack.pluginsDirectory + "/libCitconPlugin.so")
            var loaded = false
            try await Poll.until("the plugin loaded", within: .seconds(10), every: .milliseconds(100)) {
                #expect(try await stack.send(.GET, "/health").status == 200)
                let plugins = try await stack.send(.GET, "/admin/v1/plugins", token: stack.operatorToken).json
                loaded = (plugins["loaded"] as? [[String: Any]])?.contains { $0["id"] as? String == "citcon" } == true
                return loaded
            }
            #expect(loaded)
            #expect(try await stack.send(.GET, "/ready").status == 200)
            let m = try await stack.merchant()
            let created = try await stack.send(
                .POST, "/v1/payments", token: m.apiKey,
                json: ["amount": 100, "currency": "USD", "country": "US", "method": "alipay", "reference": "hot"])
            #expect(created.json["status"] as? String == "requires_action")
        }
    }
}
