import Foundation
import Testing

/// Test and live mode end to end: a tenant with a sandbox and a production Antom account (both at the test
/// sandbox: only the environment label matters) under one rule; a test key pays only through the sandbox
/// account, a live key only through the production one, and neither sees the other's objects.
@Suite(.serialized)
struct LivemodeTests {
    struct Shop {
        var merchant: TestStack.Merchant
        var liveKey: String
        var sandbox: String
        var production: String
    }

    /// The tenant, its test key (as ``TestStack/merchant(name:account:match:)`` makes it), a live key, and
    /// the rule PHP wallets → [sandbox, production].
    static func shop(_ stack: TestStack) async throws -> Shop {
        let merchant = try await stack.merchant(
            name: "Modes", account: try await stack.antomAccountBody(clientId: TestStack.antomInstantClients[0]),
            match: ["currencies": ["PHP"]])
        var live = try await stack.antomAccountBody(clientId: TestStack.antomInstantClients[1])
        live["environment"] = "production"
        let production = try await stack.addAccount(tenantId: merchant.tenantId, live)
        let rule: [String: Any] = [
            "name": "pesos", "match": ["currencies": ["PHP"]], "accounts": [merchant.accountId, production],
        ]
        let routing = try await stack.send(
            .PUT, "/admin/v1/tenants/\(merchant.tenantId)/routing", token: stack.operatorToken,
            json: ["rules": [rule]])
        try #require(routing.status == 200, "\(String(decoding: routing.body, as: UTF8.self))")
        let key = try await stack.send(
            .POST, "/admin/v1/tenants/\(merchant.tenantId)/api-keys", token: stack.operatorToken,
            json: ["name": "live", "scopes": ["payments", "admin"], "livemode": true])
        try #require(key.status == 201, "\(String(decoding: key.body, as: UTF8.self))")
        #expect(key.json["livemode"] as? Bool == true)
        #expect((key.json["prefix"] as? String)?.hasPrefix("sk_live_") == true)
        let liveKey = try #require(key.json["secret"] as? String)
        return Shop(merchant: merchant, liveKey: liveKey, sandbox: merchant.accountId, production: production)
    }

    static func pay(_ stack: TestStack, key: String, reference: String) async throws -> TestStack.Reply {
        try await stack.send(
            .POST, "/v1/payments", token: key,
            json: ["amount": 1000, "currency": "PHP", "country": "PH", "method": "gcash", "reference": reference])
    }

    static func accounts(_ payment: [String: Any]) -> [String?] {
        (payment["attempts"] as? [[String: Any]] ?? []).map { $0["provider_account"] as? String }
    }

    static func ids(_ list: TestStack.Reply) -> Set<String> {
        Set((list.json["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
    }

    @Test func eachKeyPaysOnlyThroughTheAccountsOfItsModeAndSeesOnlyItsMode() async throws {
        try await TestStack.with { stack in
            let shop = try await Self.shop(stack)
            let testKey = shop.merchant.apiKey
            #expect(testKey.hasPrefix("sk_test_"))
            #expect(shop.liveKey.hasPrefix("sk_live_"))
            let keys = try await stack.send(
                .GET, "/admin/v1/tenants/\(shop.merchant.tenantId)/api-keys", token: stack.operatorToken)
            let modes = (keys.json["data"] as? [[String: Any]] ?? []).map { $0["livemode"] as? Bool }
            #expect(modes.count == 2)
            #expect(Set(modes.compactMap { $0 }) == [false, true])

            let test = try await Self.pay(stack, key: testKey, reference: "test-1")
            #expect(test.status == 201, "\(String(decoding: test.body, as: UTF8.self))")
            #expect(test.json["livemode"] as? Bool == false)
            #expect(Self.accounts(test.json) == [shop.sandbox])
            let live = try await Self.pay(stack, key: shop.liveKey, reference: "live-1")
            #expect(live.status == 201, "\(String(decoding: live.body, as: UTF8.self))")
            #expect(live.json["livemode"] as? Bool == true)
            #expect(Self.accounts(live.json) == [shop.production])
            let testId = try #require(test.json["id"] as? String)
            let liveId = try #require(live.json["id"] as? String)
            _ = try await stack.waitForPayment(liveId, key: shop.liveKey) { $0["status"] as? String == "succeeded" }

            // Lists never mix the modes; the other mode's payment is not found, for reads and actions alike.
            #expect(Self.ids(try await stack.send(.GET, "/v1/payments", token: testKey)) == [testId])
            #expect(Self.ids(try await stack.send(.GET, "/v1/payments", token: shop.liveKey)) == [liveId])
            #expect(try await stack.send(.GET, "/v1/payments/\(liveId)", token: testKey).status == 404)
            #expect(try await stack.send(.GET, "/v1/payments/\(testId)", token: shop.liveKey).status == 404)
            let crossed = try await stack.send(
                .POST, "/v1/payments/\(liveId)/refunds", token: testKey, json: ["amount": 100])
            #expect(crossed.status == 404)
            let actions: [(String, [String: Any])] = [
                ("capture", ["amount": 100]), ("complete", ["payment_data": ["x": "y"]]), ("cancel", [:]),
            ]
            for (action, body) in actions {
                let other = try await stack.send(.POST, "/v1/payments/\(liveId)/\(action)", token: testKey, json: body)
                #expect(other.status == 404, "\(action): \(String(decoding: other.body, as: UTF8.self))")
            }
            let cursor = try await stack.send(.GET, "/v1/payments?starting_after=\(liveId)", token: testKey)
            #expect(cursor.status == 400)
            let refund = try await stack.send(
                .POST, "/v1/payments/\(liveId)/refunds", token: shop.liveKey, json: ["amount": 100])
            #expect(refund.status == 201, "\(String(decoding: refund.body, as: UTF8.self))")
            #expect(refund.json["livemode"] as? Bool == true)

            // Events carry their object's mode and are listed to keys of that mode only.
            let testEvents = try await stack.send(.GET, "/v1/events", token: testKey)
            let liveEvents = try await stack.send(.GET, "/v1/events", token: shop.liveKey)
            let testObjects = (testEvents.json["data"] as? [[String: Any]] ?? []).map {
                (($0["data"] as? [String: Any])?["object"] as? [String: Any])?["id"] as? String
            }
            #expect(!testObjects.isEmpty)
            #expect(testObjects.allSatisfy { $0 == testId })
            let liveData = liveEvents.json["data"] as? [[String: Any]] ?? []
            #expect(liveData.contains { $0["type"] as? String == "payment.succeeded" })
            #expect(liveData.allSatisfy { $0["livemode"] as? Bool == true })
            #expect((testEvents.json["data"] as? [[String: Any]] ?? []).allSatisfy { $0["livemode"] as? Bool == false })
            let liveEvent = try #require(liveData.first?["id"] as? String)
            #expect(try await stack.send(.GET, "/v1/events/\(liveEvent)", token: testKey).status == 404)
            #expect(try await stack.send(.GET, "/v1/events/\(liveEvent)", token: shop.liveKey).status == 200)
        }
    }

    @Test func paymentOptionsOfferOnlyTheAccountsOfTheKeysMode() async throws {
        try await TestStack.with { stack in
            let shop = try await Self.shop(stack)
            let query: [String: Any] = ["country": "PH", "currency": "PHP", "amount": 1000]
            for (key, account) in [(shop.merchant.apiKey, shop.sandbox), (shop.liveKey, shop.production)] {
                let reply = try await stack.send(.POST, "/v1/payment-options", token: key, json: query)
                #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
                let options = reply.json["options"] as? [[String: Any]] ?? []
                #expect(!options.isEmpty)
                let offered = Set(options.compactMap { ($0["account"] as? [String: Any])?["id"] as? String })
                #expect(offered == [account])
                #expect(options.allSatisfy { $0["fallbacks"] as? Int == 0 })
            }
        }
    }

    @Test func aSimulationRoutesAmongTheAccountsOfTheKeysModeAndTheOperatorsAmongAll() async throws {
        try await TestStack.with { stack in
            let shop = try await Self.shop(stack)
            let body: [String: Any] = [
                "amount": 1000, "currency": "PHP", "country": "PH", "method": "gcash", "reference": "sim-1",
            ]
            func simulated(_ path: String, _ token: String) async throws -> [String] {
                let reply = try await stack.send(.POST, path, token: token, json: body)
                #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
                let chosen = (reply.json["chosen"] as? [String: Any])?["account_id"] as? String
                let fallbacks = (reply.json["fallbacks"] as? [[String: Any]] ?? []).compactMap {
                    $0["account_id"] as? String
                }
                return ([chosen].compactMap { $0 } + fallbacks).map { $0.lowercased() }
            }
            #expect(try await simulated("/v1/routing/simulate", shop.merchant.apiKey) == [shop.sandbox.lowercased()])
            #expect(try await simulated("/v1/routing/simulate", shop.liveKey) == [shop.production.lowercased()])
            let both = try await simulated(
                "/admin/v1/tenants/\(shop.merchant.tenantId)/routing/simulate", stack.operatorToken)
            #expect(both == [shop.sandbox.lowercased(), shop.production.lowercased()])
        }
    }

    @Test func aKeyWhoseModeHasNoAccountIsRefusedAndUnknownEnvironmentsToo() async throws {
        try await TestStack.with { stack in
            let merchant = try await stack.merchant(
                name: "Sandbox only", account: try await stack.antomAccountBody(), match: ["currencies": ["PHP"]])
            let key = try await stack.send(
                .POST, "/admin/v1/tenants/\(merchant.tenantId)/api-keys", token: stack.operatorToken,
                json: ["name": "live", "livemode": true])
            let liveKey = try #require(key.json["secret"] as? String)
            let refused = try await Self.pay(stack, key: liveKey, reference: "live-none")
            #expect(refused.status == 422)
            #expect(refused.errorCode == "no_account_for_mode")
            let message = ((refused.json["error"] as? [String: Any])?["message"] as? String) ?? ""
            #expect(message.contains("live key") && message.contains("test accounts"), "\(message)")
            #expect(try await Self.pay(stack, key: merchant.apiKey, reference: "test-ok").status == 201)
            // Nothing was stored for the refused payment.
            #expect(Self.ids(try await stack.send(.GET, "/v1/payments", token: liveKey)).isEmpty)

            var staging = try await stack.antomAccountBody()
            staging["environment"] = "staging"
            let created = try await stack.send(
                .POST, "/admin/v1/tenants/\(merchant.tenantId)/provider-accounts", token: stack.operatorToken,
                json: staging)
            #expect(created.status == 400)
            #expect(created.errorCode == "invalid_environment")
        }
    }

    @Test func aProductionAccountWithTheProvidersPublicTestMerchantIsRefusedByName() async throws {
        try await TestStack.with { stack in
            let merchant = try await stack.sipsMerchant()
            let simu = TestStack.sipsMerchant
            var live: [String: Any] = [
                "plugin": "worldline-sips", "base_url": stack.sandboxURL + "/sips", "environment": "production",
                "credentials": ["merchant_id": "211000000000001", "secret_key": simu.secretKey],
            ]
            let accounts = "/admin/v1/tenants/\(merchant.tenantId)/provider-accounts"
            let refused = try await stack.send(.POST, accounts, token: stack.operatorToken, json: live)
            #expect(refused.status == 422)
            #expect(refused.errorCode == "credential_is_public_test_value")
            #expect((refused.json["error"] as? [String: Any])?["param"] as? String == "credentials.secret_key")
            #expect(!String(decoding: refused.body, as: UTF8.self).contains(simu.secretKey))

            // The sandbox account of the same merchant may not become live either; its own key can.
            let moved = try await stack.send(
                .PATCH, accounts + "/\(merchant.accountId)", token: stack.operatorToken,
                json: ["environment": "production"])
            #expect(moved.status == 422)
            #expect(moved.errorCode == "credential_is_public_test_value")
            live["credentials"] = ["merchant_id": "211000000000001", "secret_key": "the merchant's own key"]
            #expect(try await stack.send(.POST, accounts, token: stack.operatorToken, json: live).status == 201)
            let listed = try await stack.send(.GET, accounts, token: stack.operatorToken)
            let environments = ((listed.json["data"] as? [[String: Any]]) ?? []).compactMap {
                $0["environment"] as? String
            }
            #expect(environments.sorted() == ["production", "sandbox"])
        }
    }

    @Test func anEndpointReceivesOnlyTheEventsOfTheModeOfItsKey() async throws {
        try await TestStack.with(policy: WebhookTests.trustLoopback) { stack in
            let shop = try await Self.shop(stack)
            let registered = try await stack.send(
                .POST, "/v1/webhook-endpoints", token: shop.liveKey,
                json: ["url": "http://127.0.0.1:9/hook", "event_types": ["payment.*"]])
            #expect(registered.status == 201, "\(String(decoding: registered.body, as: UTF8.self))")
            #expect(registered.json["livemode"] as? Bool == true)
            let endpoint = try #require(registered.json["id"] as? String)
            let crossed = try await stack.send(.GET, "/v1/webhook-endpoints/\(endpoint)", token: shop.merchant.apiKey)
            #expect(crossed.status == 404)
            #expect(Self.ids(try await stack.send(.GET, "/v1/webhook-endpoints", token: shop.merchant.apiKey)).isEmpty)
            #expect(Self.ids(try await stack.send(.GET, "/v1/webhook-endpoints", token: shop.liveKey)) == [endpoint])

            let test = try await Self.pay(stack, key: shop.merchant.apiKey, reference: "test-hook")
            let testId = try #require(test.json["id"] as? String)
            let live = try await Self.pay(stack, key: shop.liveKey, reference: "live-hook")
            let liveId = try #require(live.json["id"] as? String)
            let deliveries = try await stack.send(.GET, "/v1/webhook-deliveries", token: shop.liveKey)
            let delivered = deliveries.json["data"] as? [[String: Any]] ?? []
            #expect(!delivered.isEmpty)
            var objects: Set<String> = []
            for delivery in delivered {
                let eventId = try #require(delivery["event"] as? String)
                let event = try await stack.send(.GET, "/v1/events/\(eventId)", token: shop.liveKey)
                let object = (event.json["data"] as? [String: Any])?["object"] as? [String: Any]
                objects.insert(object?["id"] as? String ?? "-")
            }
            #expect(objects == [liveId])
            #expect(!objects.contains(testId))
            let testDeliveries = try await stack.send(.GET, "/v1/webhook-deliveries", token: shop.merchant.apiKey)
            #expect((testDeliveries.json["data"] as? [[String: Any]] ?? []).isEmpty)
        }
    }
}
