import Foundation
import SwitchyardCore
import SwitchyardTestSupport
import Testing

/// `GET …/routing/stats` counts the definite answers payments got, per account and per country, and
/// provider accounts keep the fee models they are given.
@Suite(.serialized)
struct RoutingStatsEndToEndTests {
    /// The C example plugin answers synchronously: `authorized` for a 2xx from its endpoint, `declined` for a
    /// 4xx, so every attempt's answer is known when the payment is created.
    @Test func paymentsAnswersAreListedForTheTenantAndTheOperator() async throws {
        let plugin = try FixturePlugins.build("c_echo.c", in: "Plugins/Examples/c-echo")
        try await TestStack.with(extraPlugins: [(name: "libCEchoPlugin.so", path: plugin)]) { stack in
            try await WebhookReceiver.with { receiver in
                let m = try await stack.merchant(
                    name: "Stats Shop",
                    account: [
                        "plugin": "c-echo", "base_url": receiver.url, "environment": "sandbox", "name": "echo",
                        "credentials": ["api_key": "c-echo-key-0123456789"],
                    ],
                    match: ["currencies": ["EUR"], "methods": ["card"]])
                receiver.answer([200, 402, 200])
                for (n, (country, status)) in [("FR", "authorized"), ("FR", "failed"), ("DE", "authorized")]
                    .enumerated()
                {
                    let reply = try await stack.send(
                        .POST, "/v1/payments", token: m.apiKey,
                        json: [
                            "amount": 1500, "currency": "EUR", "country": country, "method": "card",
                            "reference": "stats-\(n)",
                        ])
                    let id = try #require(reply.json["id"] as? String, "\(String(decoding: reply.body, as: UTF8.self))")
                    _ = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == status }
                }
                let listed = try await stack.send(.GET, "/v1/routing/stats", token: m.apiKey)
                #expect(listed.status == 200, "\(String(decoding: listed.body, as: UTF8.self))")
                let window = listed.json["window"] as? [String: Any]
                #expect(window?["attempts"] as? Int == 50)
                #expect(window?["seconds"] as? Int == 3_600)
                let data = listed.json["data"] as? [[String: Any]] ?? []
                #expect(data.map { $0["country"] as? String } == [nil, "DE", "FR"], "\(data)")
                #expect(data.map { $0["approved"] as? Int } == [2, 1, 1])
                #expect(data.map { $0["declined"] as? Int } == [1, 0, 1])
                #expect(data.map { $0["samples"] as? Int } == [3, 1, 2])
                for entry in data {
                    #expect(entry["account_id"] as? String == m.accountId)
                    #expect(entry["account_name"] as? String == "echo")
                    #expect(entry["method"] as? String == "card")
                    #expect(entry["currency"] as? String == "EUR")
                    let rate = try #require(entry["rate"] as? Double)
                    let lower = try #require(entry["lower_bound"] as? Double)
                    let upper = try #require(entry["upper_bound"] as? Double)
                    #expect(lower <= rate && rate <= upper)
                    #expect(entry["newest_at"] as? String != nil)
                }
                #expect(abs((data.first?["rate"] as? Double ?? 0) - 2.0 / 3) < 1e-9)
                #expect(data.first?.keys.contains("country") == true, "country is written as null")
                let asOperator = try await stack.send(
                    .GET, "/admin/v1/tenants/\(m.tenantId)/routing/stats", token: stack.operatorToken)
                #expect(asOperator.status == 200)
                #expect((asOperator.json["data"] as? [[String: Any]])?.count == 3)
                // Another tenant's listing is empty.
                let other = try await stack.antomMerchant(name: "Other")
                let theirs = try await stack.send(.GET, "/v1/routing/stats", token: other.apiKey)
                #expect((theirs.json["data"] as? [[String: Any]])?.isEmpty == true)
            }
        }
    }

    @Test func feesRoundTripAndBadFeesAreRefused() async throws {
        try await TestStack.with { stack in
            let m = try await stack.antomMerchant()
            let path = "/admin/v1/tenants/\(m.tenantId)/provider-accounts"
            var body = try await stack.antomAccountBody(clientId: "fees-shop")
            body["fees"] = ["EUR": ["fixed": 25, "basis_points": 180]]
            let created = try await stack.send(.POST, path, token: stack.operatorToken, json: body)
            #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
            let id = try #require(created.json["id"] as? String)
            let fees = created.json["fees"] as? [String: [String: Int]]
            #expect(fees == ["EUR": ["fixed": 25, "basis_points": 180]])
            let read = try await stack.send(.GET, "\(path)/\(id)", token: stack.operatorToken)
            #expect(read.json["fees"] as? [String: [String: Int]] == fees)

            let updated = try await stack.send(
                .PATCH, "\(path)/\(id)", token: stack.operatorToken,
                json: ["fees": ["EUR": ["fixed": 0, "basis_points": 150], "JPY": ["fixed": 30, "basis_points": 0]]])
            #expect(updated.status == 200, "\(String(decoding: updated.body, as: UTF8.self))")
            let reread = try await stack.send(.GET, "\(path)/\(id)", token: stack.operatorToken)
            #expect(
                reread.json["fees"] as? [String: [String: Int]] == [
                    "EUR": ["fixed": 0, "basis_points": 150], "JPY": ["fixed": 30, "basis_points": 0],
                ])
            // An account created without fees has none.
            let plain = try await stack.send(.GET, "\(path)/\(m.accountId)", token: stack.operatorToken)
            #expect(plain.json["fees"] as? [String: Any] != nil)
            #expect((plain.json["fees"] as? [String: Any])?.isEmpty == true)

            let bad: [(fees: Any, code: String)] = [
                (["XXX": ["fixed": 1, "basis_points": 1]], "invalid_currency"),
                (["eur": ["fixed": 1, "basis_points": 1]], "invalid_currency"),
                (["EUR": ["fixed": -1, "basis_points": 1]], "invalid_field"),
                (["EUR": ["fixed": 1, "basis_points": 10_001]], "invalid_field"),
                (["EUR": ["fixed": 1_000_000_001, "basis_points": 0]], "invalid_field"),
                (["EUR": ["fixed": 1]], "missing_field"),
            ]
            for (fees, code) in bad {
                let patch = try await stack.send(
                    .PATCH, "\(path)/\(id)", token: stack.operatorToken, json: ["fees": fees])
                #expect(patch.status == 400, "\(fees): \(String(decoding: patch.body, as: UTF8.self))")
                #expect(patch.errorCode == code, "\(fees)")
                var refused = body
                refused["fees"] = fees
                let create = try await stack.send(.POST, path, token: stack.operatorToken, json: refused)
                #expect(create.status == 400, "\(fees)")
                #expect(create.errorCode == code, "\(fees)")
            }
            let many = Dictionary(
                uniqueKeysWithValues: [
                    "USD", "EUR", "GBP", "JPY", "CHF", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF",
                    "RON", "BGN", "TRY", "AUD", "NZD", "CAD", "MXN", "BRL", "ARS", "CLP", "COP", "PEN", "UYU", "ZAR",
                    "EGP", "MAD", "NGN", "KES", "INR", "PKR", "BDT", "LKR", "THB", "VND", "IDR", "MYR", "SGD", "PHP",
                    "HKD", "TWD", "KRW", "CNY", "AED", "SAR", "QAR", "KWD", "BHD", "OMR", "JOD", "ILS",
                ].map { ($0, ["fixed": 1, "basis_points": 1]) })
            #expect(many.count == 51)
            let tooMany = try await stack.send(
                .PATCH, "\(path)/\(id)", token: stack.operatorToken, json: ["fees": many])
            #expect(tooMany.status == 400)
            #expect(tooMany.errorCode == "invalid_field")
            // Nothing refused was stored.
            #expect(
                try await stack.send(.GET, "\(path)/\(id)", token: stack.operatorToken).json["fees"]
                    as? [String: [String: Int]] == [
                        "EUR": ["fixed": 0, "basis_points": 150], "JPY": ["fixed": 30, "basis_points": 0],
                    ])
        }
    }
}
