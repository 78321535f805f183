import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

struct RoutingStrategyTests {
    let account = UUID()
    let other = UUID()

    func rule(
        strategy: RoutingStrategy? = nil, weights: [Int]? = nil, loss: Double? = nil
    ) -> RoutingRule {
        RoutingRule(
            id: UUID(), name: "r", match: .init(), accounts: [account, other], weights: weights, strategy: strategy,
            maxRateLoss: loss)
    }

    func codes(_ rule: RoutingRule, limit: Double = 10) -> [String] {
        RoutingValidator.strategyProblems(rule, maxRateLossLimit: limit).map(\.code)
    }

    @Test func rulesStoredBeforeStrategiesDecode() throws {
        let id = UUID()
        let old = """
            [{"id":"\(id)","name":"split","match":{"countries":[],"currencies":[],"methods":[]},
              "accounts":["\(account)","\(other)"],"weights":[70,30]},
             {"id":"\(id)","name":"plain","match":{"countries":[],"currencies":[],"methods":[]},
              "accounts":["\(account)"]}]
            """
        let rules = try JSONDecoder().decode([RoutingRule].self, from: Data(old.utf8))
        #expect(rules.map(\.strategy) == [.weighted, .ordered])
        #expect(rules.map(\.maxRateLoss) == [nil, nil])
    }

    @Test func strategyAndRateLossRoundTrip() throws {
        let adaptive = rule(strategy: .adaptive, loss: 0.5)
        let decoded = try JSONDecoder().decode(RoutingRule.self, from: JSONEncoder().encode(adaptive))
        #expect(decoded == adaptive)
        #expect(rule().strategy == .ordered)
        #expect(rule(weights: [1, 1]).strategy == .weighted)
    }

    @Test func oldDecisionsDecodeWithoutStrategyOrRanking() throws {
        let json = """
            {"ruleId":"\(UUID())","ruleName":"r","candidates":["\(account)"],"skipped":[],"weighted":false}
            """
        let decision = try JSONDecoder().decode(RoutingDecision.self, from: Data(json.utf8))
        #expect(decision.strategy == nil)
        #expect(decision.ranking.isEmpty)
    }

    @Test func rankEntriesEncodeEveryKeyInSnakeCase() throws {
        let rank = RoutingDecision.Rank(accountId: account, position: 1, reason: "rule order")
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(rank)) as? [String: Any]
        #expect(
            Set(object?.keys.map { $0 } ?? []) == [
                "account_id", "position", "estimated_rate", "samples", "lower_bound", "upper_bound", "fee", "reason",
            ])
        #expect(object?["estimated_rate"] is NSNull)
    }

    @Test func weightsOnlyWithWeighted() {
        #expect(codes(rule(strategy: .weighted, weights: [1, 1])).isEmpty)
        #expect(codes(rule(strategy: .adaptive, weights: [1, 1])) == ["invalid_weights"])
        #expect(codes(rule(strategy: .ordered, weights: [1, 1])) == ["invalid_weights"])
        #expect(codes(rule(strategy: .weighted)) == ["invalid_weights"])
    }

    @Test func maxRateLossOnlyWithAdaptiveAndWithinTheLimit() {
        #expect(codes(rule(strategy: .adaptive, loss: 0.5)).isEmpty)
        #expect(codes(rule(strategy: .adaptive, loss: 0)).isEmpty)
        #expect(codes(rule(strategy: .ordered, loss: 0.5)) == ["invalid_max_rate_loss"])
        #expect(codes(rule(strategy: .adaptive, loss: -0.1)) == ["invalid_max_rate_loss"])
        #expect(codes(rule(strategy: .adaptive, loss: 2), limit: 1) == ["invalid_max_rate_loss"])
        #expect(codes(rule(strategy: .adaptive, loss: .nan)) == ["invalid_max_rate_loss"])
        #expect(codes(rule(strategy: .adaptive, loss: .infinity)) == ["invalid_max_rate_loss"])
    }

    @Test func theValidatorReportsEachBadFieldOfTheRule() {
        let bad = RoutingRule(
            id: UUID(), name: "bad", match: .init(), accounts: [account], weights: [1], strategy: .ordered,
            maxRateLoss: 1)
        let issues = RoutingValidator.validate([bad], accounts: [:], maxRateLossLimit: 10)
        #expect(issues.map(\.code).contains("invalid_weights"))
        #expect(issues.map(\.code).contains("invalid_max_rate_loss"))
        #expect(issues.allSatisfy { $0.message.hasPrefix("rule 0 ('bad')") })
    }

    @Test func tenantExplorationShareIsValidatedAndClampedWithinThePlatformBounds() {
        let platform = PlatformPolicy()
        var tenant = TenantPolicy()
        tenant.adaptiveRouting = .init(explorationShare: 0.02)
        #expect(tenant.loosening(platform).isEmpty)
        #expect(tenant.applied(to: platform).adaptiveRouting.explorationShare == 0.02)
        tenant.adaptiveRouting = .init(explorationShare: 0.5)
        #expect(tenant.loosening(platform).count == 1)
        #expect(
            tenant.applied(to: platform).adaptiveRouting.explorationShare
                == platform.adaptiveRouting.maxExplorationShare)
        tenant.adaptiveRouting = .init(explorationShare: 0)
        #expect(tenant.loosening(platform).count == 1)
        #expect(
            tenant.applied(to: platform).adaptiveRouting.explorationShare
                == platform.adaptiveRouting.minExplorationShare)
        #expect(TenantPolicy().applied(to: platform).adaptiveRouting == platform.adaptiveRouting)
    }

    @Test func tenantPolicyDecodesTheAdaptiveRoutingSection() throws {
        let policy = try JSONDecoder().decode(
            TenantPolicy.self, from: Data(#"{"adaptive_routing": {"exploration_share": 0.03}}"#.utf8))
        #expect(policy.adaptiveRouting?.explorationShare == 0.03)
    }
}
