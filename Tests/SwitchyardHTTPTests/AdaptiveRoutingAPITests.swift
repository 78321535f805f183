import Foundation
import SwitchyardCore
import Testing

/// Adaptive rules over the API: stored with their strategy, validated, and explained in simulate and
/// in a payment's routing.
@Suite(.serialized)
struct AdaptiveRoutingAPITests {
    @Test func anAdaptiveRuleWithoutStatisticsKeepsTheRuleOrderAndSaysSo() async throws {
        try await TestStack.with { stack in
            let pair = try await FailoverEndToEndTests.pair(stack)
            let key = pair.merchant.apiKey
            let rule: [String: Any] = [
                "name": "pesos", "match": ["currencies": ["PHP"], "methods": ["gcash"]],
                "accounts": [pair.a, pair.b], "strategy": "adaptive", "max_rate_loss": 0.5,
            ]
            let saved = try await stack.send(.PUT, "/v1/routing", token: key, json: ["rules": [rule]])
            try #require(saved.status == 200, "\(String(decoding: saved.body, as: UTF8.self))")
            let read = try await stack.send(.GET, "/v1/routing", token: key)
            let stored = (read.json["rules"] as? [[String: Any]])?.first
            #expect(stored?["strategy"] as? String == "adaptive")
            #expect(stored?["max_rate_loss"] as? Double == 0.5)

            let simulated = try await stack.send(
                .POST, "/v1/routing/simulate", token: key,
                json: ["amount": 1500, "currency": "PHP", "country": "PH", "method": "gcash", "reference": "o-1"])
            #expect(simulated.status == 200)
            #expect(simulated.json["strategy"] as? String == "adaptive")
            #expect((simulated.json["chosen"] as? [String: Any])?["account_id"] as? String == pair.a)
            let ranking = simulated.json["ranking"] as? [[String: Any]] ?? []
            #expect(ranking.map { $0["account_id"] as? String } == [pair.a, pair.b])
            #expect(ranking.map { $0["position"] as? Int } == [1, 2])
            #expect(
                ranking.map { $0["reason"] as? String }
                    == Array(repeating: "not enough data (0 of 20): rule order", count: 2))
            #expect(ranking.first?["estimated_rate"] is NSNull)
            #expect(ranking.first?["samples"] as? Int == 0)

            let payment = try await FailoverEndToEndTests.pay(stack, pair, reference: "adaptive-1")
            let routing = payment["routing"] as? [String: Any]
            #expect(routing?["strategy"] as? String == "adaptive")
            #expect((routing?["ranking"] as? [[String: Any]])?.first?["account_id"] as? String == pair.a)
        }
    }

    @Test func badStrategyCombinationsAreRefusedPerField() async throws {
        try await TestStack.with { stack in
            let pair = try await FailoverEndToEndTests.pair(stack)
            let refused = try await stack.send(
                .PUT, "/v1/routing", token: pair.merchant.apiKey,
                json: [
                    "rules": [
                        [
                            "name": "pesos", "match": ["currencies": ["PHP"]], "accounts": [pair.a, pair.b],
                            "strategy": "ordered", "weights": [1, 1], "max_rate_loss": 0.5,
                        ] as [String: Any]
                    ]
                ])
            #expect(refused.status == 422)
            #expect(refused.errorCode == "invalid_routing")
            let issues = ((refused.json["error"] as? [String: Any])?["issues"] as? [[String: Any]] ?? [])
                .compactMap { $0["code"] as? String }
            #expect(Set(issues) == ["invalid_weights", "invalid_max_rate_loss"])
            let tooLoose = try await stack.send(
                .PUT, "/v1/routing", token: pair.merchant.apiKey,
                json: [
                    "rules": [
                        [
                            "name": "pesos", "match": ["currencies": ["PHP"]], "accounts": [pair.a],
                            "strategy": "adaptive", "max_rate_loss": 50,
                        ] as [String: Any]
                    ]
                ])
            #expect(tooLoose.status == 422)
            let unknown = try await stack.send(
                .PUT, "/v1/routing", token: pair.merchant.apiKey,
                json: ["rules": [["name": "x", "accounts": [pair.a], "strategy": "fastest"] as [String: Any]]])
            #expect(unknown.status == 400)
        }
    }
}
