import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

/// `PaymentRouter.explain` with adaptive rules: ranking, breakers and fees in the decision.
struct AdaptiveRouterTests {
    let a: ProviderAccount
    let b: ProviderAccount
    let c: ProviderAccount
    let manifest = PluginManifest(
        id: "p", version: "1", provider: "p", abiVersion: 1, flows: [.authorize], methods: ["card"],
        countries: [], currencies: [], honoursIdempotencyKey: true, usesAccessToken: false, credentials: [])
    let payment = PaymentDescription(amount: 10_000, currency: "EUR", country: "FR", method: "card")

    init() {
        func account(_ name: String) -> ProviderAccount {
            ProviderAccount(
                id: UUID(), tenantId: UUID(), name: name, pluginId: "p", environment: "sandbox",
                baseURL: "http://127.0.0.1:1", credentials: [:], secretFields: [], enabled: true, createdAt: Date())
        }
        a = account("a")
        b = account("b")
        c = account("c")
    }

    func candidates(openBreakerAt broken: UUID? = nil) -> [UUID: RoutingCandidate] {
        var fees = b
        fees.fees = ["EUR": FeeModel(fixed: 25, basisPoints: 100)]
        return [
            a.id: RoutingCandidate(account: a, manifest: manifest),
            b.id: RoutingCandidate(account: fees, manifest: manifest),
            c.id: RoutingCandidate(account: c, manifest: manifest, unhealthy: broken == c.id ? "circuit open" : nil),
        ]
    }

    func stats(_ id: UUID, _ approved: Int, _ declined: Int) -> AuthorizationStats {
        AuthorizationStats(accountId: id, method: "card", currency: "EUR", approved: approved, declined: declined)
    }

    var noExploration: PlatformPolicy.AdaptiveRouting {
        var policy = PlatformPolicy.AdaptiveRouting()
        policy.explorationShare = 0
        return policy
    }

    @Test func anAdaptiveRuleOrdersByRankAndShowsTheBreaker() throws {
        let rule = RoutingRule(
            id: UUID(), name: "adaptive", match: .init(), accounts: [a.id, b.id, c.id], strategy: .adaptive)
        let explanation = PaymentRouter.explain(
            payment, routingKey: "k", rules: [rule], accounts: candidates(openBreakerAt: c.id),
            adaptive: .init(
                stats: [stats(a.id, 60, 40), stats(b.id, 90, 10), stats(c.id, 99, 1)], policy: noExploration))
        let decision = try explanation.decided()
        #expect(decision.strategy == .adaptive)
        #expect(decision.candidates == [b.id, a.id])
        #expect(decision.ranking.map(\.accountId) == [b.id, a.id, c.id])
        #expect(decision.ranking.map(\.position) == [1, 2, nil])
        #expect(decision.ranking.map(\.fee) == [125, nil, nil])
        #expect(decision.ranking.last?.reason == "breaker open: circuit open")
        #expect(decision.skipped.map(\.accountId) == [c.id])
    }

    @Test func orderedAndWeightedDecisionsCarryTheirStrategyAndRanking() throws {
        let ordered = RoutingRule(id: UUID(), name: "o", match: .init(), accounts: [a.id, b.id])
        let decision = try PaymentRouter.route(payment, rules: [ordered], accounts: candidates())
        #expect(decision.strategy == .ordered)
        #expect(decision.ranking.map(\.reason) == ["rule order", "rule order"])
        let weighted = RoutingRule(id: UUID(), name: "w", match: .init(), accounts: [a.id, b.id], weights: [1, 1])
        let drawn = try PaymentRouter.route(payment, routingKey: "x", rules: [weighted], accounts: candidates())
        #expect(drawn.strategy == .weighted && drawn.weighted)
        #expect(drawn.ranking.first?.reason == "weighted draw")
        #expect(drawn.ranking.map(\.accountId) == drawn.candidates)
    }

    @Test func matchingFindsTheFirstMatchingRule() {
        let euros = RoutingRule(id: UUID(), name: "eur", match: .init(currencies: ["EUR"]), accounts: [a.id])
        let usd = RoutingRule(id: UUID(), name: "usd", match: .init(currencies: ["USD"]), accounts: [a.id])
        let found = PaymentRouter.matching(payment, rules: [usd, euros])
        #expect(found.rule?.name == "eur")
        #expect(found.checks.map(\.matched) == [false, true])
    }
}
