import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

/// The probability with which each routing strategy puts each account first, against how often it does.
struct RoutingPropensityTests {
    let ids = [UUID(), UUID(), UUID()]
    let payment = PaymentDescription(amount: 10_000, currency: "EUR", country: "FR", method: "card")

    var accounts: [UUID: RoutingCandidate] {
        let manifest = PluginManifest(
            id: "p", version: "1", provider: "p", abiVersion: 1, flows: [.authorize], methods: ["card"],
            countries: [], currencies: [], honoursIdempotencyKey: true, usesAccessToken: false, credentials: [])
        var result: [UUID: RoutingCandidate] = [:]
        for (index, id) in ids.enumerated() {
            var account = ProviderAccount(
                id: id, tenantId: UUID(), name: "acct\(index)", pluginId: "p", environment: "sandbox",
                baseURL: "http://127.0.0.1:1", credentials: [:], secretFields: [], enabled: true, createdAt: Date())
            account.fees = ["EUR": FeeModel(fixed: Int64(30 - 10 * index), basisPoints: 0)]
            result[id] = RoutingCandidate(account: account, manifest: manifest)
        }
        return result
    }

    func rule(_ strategy: RoutingStrategy, weights: [Int]? = nil, loss: Double? = nil) -> RoutingRule {
        RoutingRule(
            id: UUID(), name: "r", match: .init(), accounts: ids, weights: weights, strategy: strategy,
            maxRateLoss: loss)
    }

    func decide(_ rule: RoutingRule, key: String, stats: [AuthorizationStats] = [], share: Double = 0.3)
        -> RoutingDecision?
    {
        var policy = PlatformPolicy.AdaptiveRouting()
        policy.explorationShare = share
        return PaymentRouter.explain(
            payment, routingKey: key, rules: [rule], accounts: accounts,
            adaptive: PaymentRouter.AdaptiveInput(stats: stats, policy: policy)
        ).decision
    }

    /// How often each account goes first over `count` routing keys, as shares.
    func frequencies(_ rule: RoutingRule, stats: [AuthorizationStats] = [], count: Int = 20_000) -> [UUID: Double] {
        var hits: [UUID: Double] = [:]
        for i in 0..<count {
            if let first = decide(rule, key: "tenant|order-\(i)|10000|EUR", stats: stats)?.candidates.first {
                hits[first, default: 0] += 1 / Double(count)
            }
        }
        return hits
    }

    func stats(_ rates: [(Int, Int)]) -> [AuthorizationStats] {
        zip(ids, rates).map {
            AuthorizationStats(accountId: $0, method: "card", currency: "EUR", approved: $1.0, declined: $1.1)
        }
    }

    func expectMatches(_ decision: RoutingDecision?, _ observed: [UUID: Double], tolerance: Double = 0.015) {
        let propensities = decision?.propensities ?? []
        #expect(abs(propensities.reduce(0) { $0 + $1.probability } - 1) < 1e-9)
        for id in ids {
            #expect(abs((decision?.propensity(of: id) ?? -1) - (observed[id] ?? 0)) < tolerance)
        }
    }

    @Test func anOrderedRuleChoosesItsFirstAccountWithCertainty() {
        let decision = decide(rule(.ordered), key: "k")
        #expect(decision?.propensities == [.init(accountId: ids[0], probability: 1)])
    }

    @Test func aWeightedRuleChoosesByWeightShare() {
        let weighted = rule(.weighted, weights: [6, 3, 1])
        let decision = decide(weighted, key: "k")
        #expect(decision?.propensities.map(\.probability) == [0.6, 0.3, 0.1])
        expectMatches(decision, frequencies(weighted))
    }

    @Test func anAdaptiveRuleMixesTheGreedyChoiceWithExplorationOfEveryOtherAccount() {
        let known = stats([(950, 50), (800, 200), (700, 300)])
        let decision = decide(rule(.adaptive), key: "k", stats: known)
        expectMatches(decision, [ids[0]: 0.7, ids[1]: 0.15, ids[2]: 0.15], tolerance: 1e-9)
        let observed = frequencies(rule(.adaptive), stats: known)
        expectMatches(decision, observed)
        // Both other accounts are explored, not only the least known.
        #expect((observed[ids[1]] ?? 0) > 0.1)
        #expect((observed[ids[2]] ?? 0) > 0.1)
    }

    @Test func theCostStepMovesTheGreedyShareToTheCheaperAccount() {
        let close = stats([(950, 50), (948, 52), (500, 500)])
        let decision = decide(rule(.adaptive, loss: 1), key: "k", stats: close)
        // The cheaper account is the greedy choice; exploration watches the best and the worst.
        expectMatches(decision, [ids[0]: 0.15, ids[1]: 0.7, ids[2]: 0.15], tolerance: 1e-9)
        expectMatches(decision, frequencies(rule(.adaptive, loss: 1), stats: close))
    }

    @Test func anAdaptiveRuleWithoutEnoughDataKeepsItsOrderWithCertainty() {
        let decision = decide(rule(.adaptive), key: "k", stats: stats([(1, 0), (1, 0), (1, 0)]))
        #expect(decision?.propensities == [.init(accountId: ids[0], probability: 1)])
    }

    @Test func propensitiesRoundTripAndOldDecisionsDecodeWithoutThem() throws {
        let decision = try #require(decide(rule(.weighted, weights: [1, 1, 0]), key: "k"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = try encoder.encode(decision)
        #expect(try JSONDecoder().decode(RoutingDecision.self, from: encoded) == decision)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains("\"account_id\":\"\(ids[0].uuidString.lowercased())\",\"probability\":0.5"))
        let old = #"{"ruleId":null,"candidates":[],"skipped":[],"weighted":false}"#
        #expect(try JSONDecoder().decode(RoutingDecision.self, from: Data(old.utf8)).propensities.isEmpty)
    }
}
