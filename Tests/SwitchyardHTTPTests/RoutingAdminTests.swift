import Foundation
import SwitchyardCluster
import SwitchyardCore
import SwitchyardStore
import Testing

/// The routing configuration API: validation naming the offending rule, versions, the tenant's own
/// admin key, and simulate.
@Suite(.serialized)
struct RoutingAdminTests {
    @Test func simulateExplainsACoveredAndAnUncoveredPayment() async throws {
        try await TestStack.with { stack in
            let pair = try await FailoverEndToEndTests.pair(stack, weights: [70, 30])
            let tenant = pair.merchant.tenantId
            let covered = try await stack.send(
                .POST, "/admin/v1/tenants/\(tenant)/routing/simulate", token: stack.operatorToken,
                json: ["amount": 1500, "currency": "PHP", "country": "PH", "method": "gcash", "reference": "o-1"])
            #expect(covered.status == 200)
            let chosen = (covered.json["chosen"] as? [String: Any])?["account_id"] as? String
            let fallbacks = (covered.json["fallbacks"] as? [[String: Any]] ?? []).map { $0["account_id"] as? String }
            #expect(Set([chosen] + fallbacks) == Set([pair.a, pair.b]))
            #expect(covered.json["weighted"] as? Bool == true)
            #expect((covered.json["matched_rule"] as? [String: Any])?["name"] as? String == "pesos")
            #expect(covered.json["error"] == nil)
            let again = try await stack.send(
                .POST, "/v1/routing/simulate", token: pair.merchant.apiKey,
                json: ["amount": 1500, "currency": "PHP", "country": "PH", "method": "gcash", "reference": "o-1"])
            #expect((again.json["chosen"] as? [String: Any])?["account_id"] as? String == chosen, "deterministic")

            let uncovered = try await stack.send(
                .POST, "/v1/routing/simulate", token: pair.merchant.apiKey,
                json: ["amount": 1500, "currency": "USD", "country": "US", "method": "gcash"])
            #expect(uncovered.status == 200)
            #expect(uncovered.json["chosen"] == nil)
            #expect((uncovered.json["error"] as? [String: Any])?["code"] as? String == "no_route")
            let rules = uncovered.json["rules"] as? [[String: Any]] ?? []
            #expect(rules.first?["reason"] as? String == "currency USD is not one of PHP")
            let skipped = uncovered.json["skipped"] as? [[String: Any]] ?? []
            #expect(Set(skipped.map { $0["account_id"] as? String }) == Set([pair.a, pair.b]))

            let bad = try await stack.send(
                .POST, "/v1/routing/simulate", token: pair.merchant.apiKey,
                json: ["amount": -5, "currency": "PHP", "country": "PH", "method": "gcash"])
            #expect(bad.status == 400)
            #expect(bad.errorCode == "invalid_amount")
        }
    }

    @Test func writesAreValidatedVersionedAndScopedToTheTenant() async throws {
        try await TestStack.with { stack in
            let pair = try await FailoverEndToEndTests.pair(stack)
            let other = try await stack.antomMerchant(name: "Other")
            let key = pair.merchant.apiKey
            let current = try await stack.send(.GET, "/v1/routing", token: key)
            let version = try #require(current.json["version"] as? Int)
            #expect(version >= 1)

            let invalid = try await stack.send(
                .PUT, "/v1/routing", token: key,
                json: [
                    "rules": [
                        ["name": "cards", "match": ["methods": ["card"]], "accounts": [pair.a]],
                        ["name": "theirs", "match": ["methods": ["dana"]], "accounts": [other.accountId]],
                        ["name": "all gcash", "match": ["methods": ["gcash"]], "accounts": [pair.a]],
                        [
                            "name": "gcash pesos", "match": ["methods": ["gcash"], "currencies": ["PHP"]],
                            "accounts": [pair.b],
                        ],
                    ]
                ])
            #expect(invalid.status == 422)
            #expect(invalid.errorCode == "invalid_routing")
            let issues = (invalid.json["error"] as? [String: Any])?["issues"] as? [[String: Any]] ?? []
            #expect(issues.map { $0["code"] as? String } == ["unknown_account", "rule_unreachable"], "\(issues)")
            #expect(issues.map { $0["rule_name"] as? String } == ["theirs", "gcash pesos"])
            #expect(
                try await stack.send(.GET, "/v1/routing", token: key).json["version"] as? Int == version,
                "nothing stored")

            let body: [String: Any] = [
                "version": version,
                "rules": [["name": "gcash", "match": ["methods": ["gcash"]], "accounts": [pair.b, pair.a]]],
            ]
            let saved = try await stack.send(.PUT, "/v1/routing", token: key, json: body)
            #expect(saved.status == 200, "\(saved.json)")
            #expect(saved.json["version"] as? Int == version + 1)
            let stale = try await stack.send(.PUT, "/v1/routing", token: key, json: body)
            #expect(stale.status == 409)
            #expect(stale.errorCode == "routing_version_conflict")
            let versions = try await stack.send(.GET, "/v1/routing/versions", token: key)
            let list = versions.json["data"] as? [[String: Any]] ?? []
            #expect(list.map { $0["version"] as? Int } == Array((1...version + 1).reversed()))
            #expect((list.first?["actor"] as? String)?.hasPrefix("api_key:") == true)
            let audit = try await stack.send(
                .GET, "/admin/v1/audit?tenant=\(pair.merchant.tenantId)", token: stack.operatorToken)
            let actions = (audit.json["data"] as? [[String: Any]] ?? []).compactMap { $0["action"] as? String }
            #expect(actions.filter { $0 == "routing.replace" }.count == version + 1)

            let paymentsOnly = try await stack.send(
                .POST, "/admin/v1/tenants/\(pair.merchant.tenantId)/api-keys", token: stack.operatorToken,
                json: ["name": "p", "scopes": ["payments"]])
            let secret = try #require(paymentsOnly.json["secret"] as? String)
            let forbidden = try await stack.send(.GET, "/v1/routing", token: secret)
            #expect(forbidden.status == 403)
            #expect(forbidden.errorCode == "insufficient_scope")
        }
    }

    @Test func tenantPolicyOnlyTightensAndAReloadAppliesANewPolicy() async throws {
        let path = NSTemporaryDirectory() + "switchyard-policy-\(UUID().uuidString).json"
        try Data(#"{"plugins":{"mode":"development","allowed":"*"},"failover":{"attempt_limit":3}}"#.utf8).write(
            to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await TestStack.with(policyPath: path) { stack in
            let closed = "http://127.0.0.1:\(PostgresCluster.freePort())/antom"
            let pair = try await FailoverEndToEndTests.pair(stack, aBaseURL: closed)
            let policyURL = "/admin/v1/tenants/\(pair.merchant.tenantId)/policy"
            let looser = try await stack.send(.PUT, policyURL, token: stack.operatorToken, json: ["attempt_limit": 5])
            #expect(looser.status == 422)
            #expect(looser.errorCode == "policy_loosened")
            let tighter = try await stack.send(.PUT, policyURL, token: stack.operatorToken, json: ["attempt_limit": 2])
            #expect(tighter.status == 200)
            let effective = (tighter.json["effective"] as? [String: Any])?["failover"] as? [String: Any]
            #expect(effective?["attempt_limit"] as? Int == 2)

            let before = try await FailoverEndToEndTests.pay(stack, pair, reference: "before")
            #expect(FailoverEndToEndTests.attempts(before).count == 2, "A refused, B tried")

            try Data(#"{"plugins":{"mode":"development","allowed":"*"},"failover":{"attempt_limit":1}}"#.utf8).write(
                to: URL(fileURLWithPath: path))
            let reloaded = try await stack.send(.POST, "/admin/v1/policy/reload", token: stack.operatorToken)
            #expect(reloaded.status == 200)
            #expect((reloaded.json["failover"] as? [String: Any])?["attempt_limit"] as? Int == 1)
            let after = try await FailoverEndToEndTests.pay(stack, pair, reference: "after")
            #expect(FailoverEndToEndTests.attempts(after).count == 1, "one attempt only now")
            #expect(after["status"] as? String == "failed")

            try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
            let broken = try await stack.send(.POST, "/admin/v1/policy/reload", token: stack.operatorToken)
            #expect(broken.status == 400)
            #expect(broken.errorCode == "invalid_policy")

            // A misspelt key is refused, naming it, and the policy in effect stays the one loaded before.
            try Data(
                #"{"plugins":{"mode":"development","allowed":"*"},"failover":{"attempt_limit":3,"time_budgt_ms":1}}"#
                    .utf8
            ).write(to: URL(fileURLWithPath: path))
            let typo = try await stack.send(.POST, "/admin/v1/policy/reload", token: stack.operatorToken)
            #expect(typo.status == 400)
            #expect(typo.errorCode == "invalid_policy")
            let message = (typo.json["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(
                message.contains("failover.time_budgt_ms: unknown key, did you mean time_budget_ms?"), "\(message)")
            let kept = try await FailoverEndToEndTests.pay(stack, pair, reference: "kept")
            #expect(
                FailoverEndToEndTests.attempts(kept).count == 1, "the refused file's attempt_limit 3 is not applied")
        }
    }
}
