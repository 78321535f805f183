import Foundation
import SwitchyardCore
import Testing

/// `POST /v1/payment-options` against a demo-like tenant (Worldline Direct for euro cards, Citcon for US
/// wallets, Antom for Asian wallets): what is offered with its capabilities and app needs, why the rest
/// is not (no rule, currency, open breaker), agreement with the routing simulation, and bad input.
@Suite(.serialized) struct PaymentOptionsTests {
    /// The demo-like tenant: its key and the ids of its Citcon and Antom accounts.
    struct Shop {
        var merchant: TestStack.Merchant
        var citcon: String
        var antom: String
    }

    static func shop(_ stack: TestStack) async throws -> Shop {
        let m = try await stack.worldlineMerchant(name: "Options")
        let citcon = try await stack.addAccount(
            tenantId: m.tenantId,
            [
                "plugin": "citcon", "base_url": stack.sandboxURL + "/citcon", "environment": "sandbox",
                "credentials": [
                    "private_key": TestStack.citconMerchant.privateKey,
                    "ipn_secret": TestStack.citconMerchant.ipnSecret,
                ],
            ])
        let antom = try await stack.addAccount(tenantId: m.tenantId, try await stack.antomAccountBody())
        let routing = try await stack.send(
            .PUT, "/v1/routing", token: m.apiKey,
            json: [
                "rules": [
                    [
                        "name": "cards", "match": ["currencies": ["EUR"], "methods": ["card"]],
                        "accounts": [m.accountId],
                    ],
                    [
                        "name": "us wallets",
                        "match": ["countries": ["US"], "currencies": ["USD"], "methods": ["alipay", "wechatpay"]],
                        "accounts": [citcon],
                    ],
                    ["name": "asian wallets", "match": ["methods": ["gcash", "dana"]], "accounts": [antom]],
                ]
            ])
        try #require(routing.status == 200, "\(String(decoding: routing.body, as: UTF8.self))")
        return Shop(merchant: m, citcon: citcon, antom: antom)
    }

    /// The offered and unavailable methods of an answer, by method.
    static func options(_ reply: TestStack.Reply)
        -> (offered: [String: [String: Any]], unavailable: [String: [String: Any]])
    {
        var offered: [String: [String: Any]] = [:]
        for option in reply.json["options"] as? [[String: Any]] ?? [] {
            offered[option["method"] as? String ?? ""] = option
        }
        var unavailable: [String: [String: Any]] = [:]
        for entry in reply.json["unavailable"] as? [[String: Any]] ?? [] {
            unavailable[entry["method"] as? String ?? ""] = entry
        }
        return (offered, unavailable)
    }

    @Test func offersWhatRoutesWithCapabilitiesAndExplainsTheRest() async throws {
        try await TestStack.with { stack in
            let shop = try await Self.shop(stack)
            let key = shop.merchant.apiKey
            let euros = try await stack.send(
                .POST, "/v1/payment-options", token: key,
                json: ["country": "FR", "currency": "EUR", "amount": 250_000])
            #expect(euros.status == 200, "\(String(decoding: euros.body, as: UTF8.self))")
            let (offered, unavailable) = Self.options(euros)
            #expect(Array(offered.keys) == ["card"])
            let card = try #require(offered["card"])
            let account = try #require(card["account"] as? [String: Any])
            #expect(account["id"] as? String == shop.merchant.accountId)
            #expect(account["plugin"] as? String == "worldline-direct")
            #expect(account["provider"] as? String == "Worldline Direct")
            #expect(account["credentials"] == nil)
            #expect(card["storable"] as? Bool == false)
            #expect(card["delayed_capture"] as? Bool == true)
            let app = try #require(card["app"] as? [String: Any])
            #expect(app["flow"] as? String == "encrypted_card")
            #expect(app["sdk"] as? String == "OnlinePaymentsKit")
            #expect(app["next_action"] as? String == "worldline_client_session")
            #expect(app["payment_data"] as? [String] == ["encrypted_customer_input"])
            #expect(!String(decoding: euros.body, as: UTF8.self).contains(TestStack.citconMerchant.privateKey))
            // Wallets: no rule for US wallets in euros; Antom's GCash takes pesos only.
            #expect(unavailable["alipay"]?["reason"] as? String == "no_rule")
            #expect(
                unavailable["alipay"]?["message"] as? String
                    == "no routing rule for alipay in EUR from FR for 2,500.00 EUR")
            #expect(unavailable["gcash"]?["reason"] as? String == "currency_not_supported")
            #expect(unavailable["gcash"]?["message"] as? String == "plugin does not support gcash in EUR")
            #expect(euros.json["routing_version"] as? Int != nil)

            // Every answer agrees with the routing simulation of the same payment.
            for method in Set(offered.keys).union(unavailable.keys) {
                let simulated = try await stack.send(
                    .POST, "/v1/routing/simulate", token: key,
                    json: ["country": "FR", "currency": "EUR", "amount": 250_000, "method": method])
                let routes = simulated.json["error"] == nil || simulated.json["error"] is NSNull
                #expect(routes == (offered[method] != nil), "\(method)")
            }

            let pesos = try await stack.send(
                .POST, "/v1/payment-options", token: key,
                json: ["country": "PH", "currency": "PHP", "amount": 100_000, "customer": "alice"])
            let wallets = Self.options(pesos)
            #expect(pesos.json["customer"] as? String == "alice")
            let gcash = try #require(wallets.offered["gcash"])
            #expect((gcash["account"] as? [String: Any])?["plugin"] as? String == "antom")
            #expect(gcash["storable"] as? Bool == true)
            #expect(gcash["delayed_capture"] as? Bool == false)
            #expect((gcash["app"] as? [String: Any])?["sdk"] as? String == "AMSEasyPay")
            #expect(wallets.unavailable["dana"]?["reason"] as? String == "currency_not_supported")
        }
    }

    @Test func anOpenBreakerTakesTheMethodOutWithItsReason() async throws {
        try await TestStack.with { stack in
            let shop = try await Self.shop(stack)
            let body: [String: Any] = ["country": "US", "currency": "USD", "amount": 1_000]
            let before = Self.options(
                try await stack.send(.POST, "/v1/payment-options", token: shop.merchant.apiKey, json: body))
            #expect(Set(before.offered.keys) == ["alipay", "wechatpay"])
            #expect((before.offered["alipay"]?["app"] as? [String: Any])?["sdk"] as? String == "CPaySDK")

            let service = stack.runtime.dependencies.service
            let settings = service.policy.platform.breaker.settings
            let citcon = try #require(UUID(uuidString: shop.citcon))
            for _ in 0..<settings.failureThreshold {
                await service.health.record(citcon, outcome: .notSent, settings: settings)
            }
            let after = Self.options(
                try await stack.send(.POST, "/v1/payment-options", token: shop.merchant.apiKey, json: body))
            #expect(after.offered.isEmpty)
            #expect(after.unavailable["alipay"]?["reason"] as? String == "breaker_open")
            #expect(after.unavailable["wechatpay"]?["reason"] as? String == "breaker_open")
            let created = try await stack.send(
                .POST, "/v1/payments", token: shop.merchant.apiKey,
                json: ["country": "US", "currency": "USD", "amount": 1_000, "method": "alipay", "reference": "o-1"])
            #expect(created.status == 503)
            #expect(created.errorCode == "providers_unavailable")
        }
    }

    @Test func badInputIsA400WithAStableCode() async throws {
        try await TestStack.with { stack in
            let shop = try await Self.shop(stack)
            let cases: [([String: Any], String)] = [
                (["country": "FR", "currency": "EUR", "amount": 0], "invalid_amount"),
                (["country": "FR", "currency": "EUR", "amount": 12.5], "invalid_amount"),
                (["country": "FR", "currency": "EUR", "amount": 1_000_000_000_000], "invalid_amount"),
                (["country": "FR", "currency": "eur", "amount": 100], "invalid_currency"),
                (["country": "FRA", "currency": "EUR", "amount": 100], "invalid_country"),
                (["country": "FR", "currency": "EUR", "amount": 100, "customer": ""], "invalid_customer"),
                (["currency": "EUR", "amount": 100], "missing_field"),
            ]
            for (body, code) in cases {
                let reply = try await stack.send(
                    .POST, "/v1/payment-options", token: shop.merchant.apiKey, json: body)
                #expect(reply.status == 400, "\(body)")
                #expect(reply.errorCode == code, "\(body): \(String(decoding: reply.body, as: UTF8.self))")
            }
            let broken = try await stack.send(
                .POST, "/v1/payment-options", token: shop.merchant.apiKey, raw: Data("{\"amount\":".utf8),
                headers: ["Content-Type": "application/json"])
            #expect(broken.status == 400)
            #expect(broken.errorCode == "invalid_json")
            let anonymous = try await stack.send(
                .POST, "/v1/payment-options", json: ["country": "FR", "currency": "EUR", "amount": 100])
            #expect(anonymous.status == 401)
        }
    }
}
