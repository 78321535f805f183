import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

struct RouterWeightsTests {
    let tenant: UUID = UUID()
    let a: ProviderAccount
    let b: ProviderAccount
    let candidates: [UUID: RoutingCandidate]

    init() {
        let tenant = self.tenant
        func account(_ plugin: String) -> ProviderAccount {
            ProviderAccount(
                id: UUID(), tenantId: tenant, name: plugin, pluginId: plugin, environment: "sandbox",
                baseURL: "http://127.0.0.1:1", credentials: [:], secretFields: [], enabled: true, createdAt: Date())
        }
        a = account("one")
        b = account("two")
        let manifest = PluginManifest(
            id: "p", version: "1", provider: "p", abiVersion: 1, flows: [.authorize], methods: ["gcash"],
            countries: [], currencies: [], honoursIdempotencyKey: true, usesAccessToken: false, credentials: [])
        candidates = [
            a.id: RoutingCandidate(account: a, manifest: manifest),
            b.id: RoutingCandidate(account: b, manifest: manifest),
        ]
    }

    var payment: PaymentDescription {
        PaymentDescription(amount: 1000, currency: "PHP", country: "PH", method: "gcash")
    }

    func rules(weights: [Int]? = [70, 30]) -> [RoutingRule] {
        [RoutingRule(id: UUID(), name: "split", match: .init(), accounts: [a.id, b.id], weights: weights)]
    }

    @Test func seventyThirtySplitOverAThousandPaymentsLandsWithinFivePercent() throws {
        var first = [UUID: Int]()
        for n in 0..<1000 {
            let key = PaymentRouter.routingKey(tenant: tenant, reference: "order-\(n)", amount: 1000, currency: "PHP")
            let decision = try PaymentRouter.route(payment, routingKey: key, rules: rules(), accounts: candidates)
            #expect(decision.weighted)
            #expect(Set(decision.candidates) == [a.id, b.id])
            first[decision.candidates[0], default: 0] += 1
        }
        let share = Double(first[a.id, default: 0]) / 1000
        #expect(abs(share - 0.7) <= 0.05, "share of the 70 % account was \(share)")
    }

    @Test func theSameRequestRoutesTheSameWay() throws {
        let key = PaymentRouter.routingKey(tenant: tenant, reference: "order-42", amount: 1000, currency: "PHP")
        let orders = try (0..<20).map { _ in
            try PaymentRouter.route(payment, routingKey: key, rules: rules(), accounts: candidates).candidates
        }
        #expect(Set(orders.map { $0.map(\.uuidString).joined() }).count == 1)
    }

    @Test func absurdStoredWeightsDoNotOverflowTheDraw() {
        // Three weights of Int.max used to overflow the UInt64 total and trap.
        let ids = [UUID(), UUID(), UUID()]
        let order = PaymentRouter.weightedOrder(ids.map { (id: $0, weight: Int.max) }, key: "k")
        #expect(Set(order) == Set(ids))
        #expect(order.count == 3)
    }

    @Test func aZeroWeightIsOnlyAFallback() throws {
        for n in 0..<200 {
            let decision = try PaymentRouter.route(
                payment, routingKey: "k\(n)", rules: rules(weights: [0, 5]), accounts: candidates)
            #expect(decision.candidates == [b.id, a.id])
        }
    }

    @Test func unhealthyAccountsAreSkippedAndAllUnhealthyIsUnavailable() throws {
        var sick = candidates
        sick[a.id]?.unhealthy = "circuit open"
        let decision = try PaymentRouter.route(payment, routingKey: "k", rules: rules(weights: nil), accounts: sick)
        #expect(decision.candidates == [b.id])
        #expect(decision.skipped == [.init(accountId: a.id, reason: "circuit open")])
        sick[b.id]?.unhealthy = "circuit open"
        #expect {
            try PaymentRouter.route(payment, routingKey: "k", rules: rules(weights: nil), accounts: sick)
        } throws: { ($0 as? CoreError)?.code == .providersUnavailable }
    }

    @Test func aConfigurationGapIsNoRouteNamingTheRule() {
        let card = PaymentDescription(amount: 1000, currency: "PHP", country: "PH", method: "card")
        let explanation = PaymentRouter.explain(card, rules: rules(), accounts: candidates)
        #expect(explanation.failure?.code == .noRoute)
        #expect(explanation.failure?.message.contains("'split'") == true)
        #expect(explanation.skipped.map(\.reason) == Array(repeating: "plugin does not support method card", count: 2))
    }

    @Test func explainSaysWhyEarlierRulesDidNotMatch() {
        let rules = [
            RoutingRule(id: UUID(), name: "euro", match: .init(currencies: ["EUR"]), accounts: [a.id]),
            RoutingRule(id: UUID(), name: "big", match: .init(currencies: ["PHP"], minAmount: 5000), accounts: [a.id]),
            RoutingRule(id: UUID(), name: "rest", match: .init(), accounts: [b.id]),
        ]
        let explanation = PaymentRouter.explain(payment, rules: rules, accounts: candidates)
        #expect(explanation.rules.map(\.matched) == [false, false, true])
        #expect(explanation.rules[0].reason == "currency PHP is not one of EUR")
        #expect(explanation.rules[1].reason == "amount 1000 is below 5000")
        #expect(explanation.decision?.candidates == [b.id])
        #expect(explanation.otherAccounts.map(\.accountId) == [a.id])
    }
}
