import Foundation
import Testing

@testable import SwitchyardCore

struct AdaptiveRankerTests {
    let a = UUID()
    let b = UUID()
    let c = UUID()
    let payment = PaymentDescription(amount: 10_000, currency: "EUR", country: "FR", method: "card")

    func settings(share: Double = 0, minSamples: Int = 20, loss: Double? = nil) -> AdaptiveRanker.Settings {
        AdaptiveRanker.Settings(
            explorationShare: share, minSamples: minSamples, countryMinSamples: 100, confidenceZ: 1.96,
            maxRateLoss: loss)
    }

    func row(_ id: UUID, _ approved: Int, _ declined: Int, country: String? = nil, newest: Date? = nil)
        -> AuthorizationStats
    {
        AuthorizationStats(
            accountId: id, method: "card", currency: "EUR", country: country, approved: approved, declined: declined,
            newest: newest)
    }

    func rank(
        _ ids: [UUID], _ stats: [AuthorizationStats]?, fees: [UUID: FeeModel] = [:],
        settings: AdaptiveRanker.Settings? = nil,
        key: String = "key"
    ) -> [RoutingDecision.Rank] {
        AdaptiveRanker.rank(
            ids.map { AdaptiveRanker.Candidate(accountId: $0, fee: fees[$0]) }, stats: stats, payment: payment,
            settings: settings ?? self.settings(), routingKey: key)
    }

    /// A key that does (or does not) draw exploration at `share`.
    func key(exploring: Bool, share: Double) -> String {
        (0...).lazy.map { "order-\($0)" }.first { AdaptiveRanker.explores($0, share: share) == exploring }!
    }

    @Test func estimatorUsesTheWilsonIntervalOfTheMatchingRow() {
        let estimate = AdaptiveRanker.estimate(
            a,
            stats: [
                row(a, 80, 20), row(b, 1, 0),
                AuthorizationStats(accountId: a, method: "card", currency: "USD", approved: 1, declined: 99),
            ],
            payment: payment, countryMinSamples: 100, z: 1.96)
        let interval = row(a, 80, 20).wilsonInterval(z: 1.96)!
        #expect(estimate.samples == 100)
        #expect(estimate.rate == 0.8)
        #expect(estimate.lower == interval.lower)
        #expect(estimate.upper == interval.upper)
    }

    @Test func countryRowIsUsedOnlyWithEnoughSamples() {
        let few = [row(a, 50, 50), row(a, 99, 0, country: "FR")]
        #expect(AdaptiveRanker.estimate(a, stats: few, payment: payment, countryMinSamples: 100, z: 1.96).rate == 0.5)
        let enough = [row(a, 50, 50), row(a, 90, 10, country: "FR"), row(a, 10, 90, country: "DE")]
        #expect(
            AdaptiveRanker.estimate(a, stats: enough, payment: payment, countryMinSamples: 100, z: 1.96).rate == 0.9)
    }

    @Test func withoutEnoughDataTheRuleOrderStands() {
        let ranking = rank([a, b, c], [row(a, 3, 1), row(c, 19, 0)], settings: settings(share: 1))
        #expect(ranking.map(\.accountId) == [a, b, c])
        #expect(ranking.map(\.position) == [1, 2, 3])
        #expect(ranking[0].reason == "not enough data (4 of 20): rule order")
        #expect(ranking[1].reason == "not enough data (0 of 20): rule order")
        #expect(ranking[1].estimatedRate == nil && ranking[1].lowerBound == nil)
    }

    @Test func unavailableStatisticsKeepTheRuleOrder() {
        let ranking = rank([b, a], nil)
        #expect(ranking.map(\.accountId) == [b, a])
        #expect(ranking.allSatisfy { $0.reason == "statistics unavailable: rule order" })
    }

    @Test func ranksByLowerBoundSoFewSamplesRankCautiously() {
        // b's rate is higher (21 of 21) than a's (950 of 1000) but with far fewer answers its lower
        // bound (≈ 0.85) is below a's (≈ 0.94).
        let ranking = rank([b, a, c], [row(a, 950, 50), row(b, 21, 0), row(c, 5, 0)])
        #expect(ranking.map(\.accountId) == [a, b, c])
        #expect(ranking[0].reason == "highest lower bound")
        #expect(ranking[1].reason.hasPrefix("lower bound"))
        #expect(ranking[2].reason == "not enough data (5 of 20)")
        #expect((ranking[0].lowerBound ?? 0) > (ranking[1].lowerBound ?? 1))
        #expect((ranking[1].estimatedRate ?? 0) > (ranking[0].estimatedRate ?? 1))
    }

    @Test func tiesFollowTheRuleOrder() {
        let stats = [row(a, 40, 10), row(b, 40, 10)]
        #expect(rank([a, b], stats).map(\.accountId) == [a, b])
        #expect(rank([b, a], stats).map(\.accountId) == [b, a])
    }

    @Test func explorationShareIsMeasuredOverTenThousandKeysAndRepeatable() {
        for share in [0.02, 0.05, 0.2] {
            let hits = (0..<10_000).filter { AdaptiveRanker.explores("tenant|order-\($0)|1000|EUR", share: share) }
            #expect(abs(Double(hits.count) / 10_000 - share) <= 0.01, "share \(share): \(hits.count) hits")
        }
        #expect(!(0..<1_000).contains { AdaptiveRanker.explores("k\($0)", share: 0) })
        let keys = (0..<500).map { "order-\($0)" }
        #expect(
            keys.map { AdaptiveRanker.explores($0, share: 0.3) } == keys.map { AdaptiveRanker.explores($0, share: 0.3) }
        )
    }

    @Test func explorationIsIndependentOfTheWeightedDraw() {
        // Over keys whose weighted 50/50 draw picks the first account, exploration still hits its share.
        let candidates = [(id: a, weight: 1), (id: b, weight: 1)]
        let keys = (0..<10_000).map { "order-\($0)" }.filter {
            PaymentRouter.weightedOrder(candidates, key: $0).first == a
        }
        let hits = keys.filter { AdaptiveRanker.explores($0, share: 0.1) }.count
        #expect(abs(Double(hits) / Double(keys.count) - 0.1) <= 0.015)
    }

    @Test func anExplorationDrawPutsOneOfTheOtherAccountsFirstRepeatably() {
        let stats = [row(a, 950, 50), row(b, 30, 10), row(c, 30, 10)]
        let exploring = key(exploring: true, share: 0.05)
        let ranking = rank([a, b, c], stats, settings: settings(share: 0.05), key: exploring)
        #expect([b, c].contains(ranking[0].accountId))
        #expect(ranking[0].reason == "exploration draw")
        #expect(ranking.map(\.position) == [1, 2, 3])
        #expect(Set(ranking.map(\.accountId)) == [a, b, c])
        let again = rank([a, b, c], stats, settings: settings(share: 0.05), key: exploring)
        #expect(again == ranking)
        let ranked = rank([a, b, c], stats, settings: settings(share: 0.05), key: key(exploring: false, share: 0.05))
        #expect(ranked.first?.accountId == a)
    }

    @Test func explorationWatchesEveryOtherAccountNotOnlyTheLeastKnown() {
        // c has no data and b some: exploration draws still split evenly between them.
        var firsts: [UUID: Int] = [:]
        for i in 0..<4_000 {
            let ranking = rank(
                [a, b, c], [row(a, 950, 50), row(b, 30, 10)], settings: settings(share: 1), key: "order-\(i)")
            firsts[ranking[0].accountId, default: 0] += 1
        }
        #expect(firsts[a] == nil)
        #expect((1_800...2_200).contains(firsts[b] ?? 0))
        #expect((1_800...2_200).contains(firsts[c] ?? 0))
    }

    @Test func theCheapestAccountWithinTheRateLossGoesFirst() {
        // a: 95 %, b: 94.8 %, c: 90 %; fees for 100.00 EUR: a 205, b 125, c 30.
        let stats = [row(a, 9_500, 500), row(b, 9_480, 520), row(c, 9_000, 1_000)]
        let fees: [UUID: FeeModel] = [
            a: FeeModel(fixed: 25, basisPoints: 180), b: FeeModel(fixed: 25, basisPoints: 100),
            c: FeeModel(fixed: 0, basisPoints: 30),
        ]
        let ranking = rank([a, b, c], stats, fees: fees, settings: settings(loss: 0.5))
        #expect(ranking.map(\.accountId) == [b, a, c])
        #expect(ranking[0].reason == "within 0.2 pp of best and 39 % cheaper")
        #expect(ranking.map(\.fee) == [125, 205, 30])
        #expect(rank([a, b, c], stats, fees: fees, settings: settings(loss: 0.1)).first?.accountId == a)
        #expect(rank([a, b, c], stats, fees: fees, settings: settings(loss: 10)).first?.accountId == c)
        #expect(rank([a, b, c], stats, fees: fees).first?.accountId == a)
    }

    @Test func anAccountWithoutAFeeIsNeverPreferredForCost() {
        let stats = [row(a, 9_500, 500), row(b, 9_480, 520)]
        #expect(
            rank([a, b], stats, fees: [a: FeeModel(fixed: 25, basisPoints: 180)], settings: settings(loss: 1)).first?
                .accountId == a)
        #expect(
            rank([a, b], stats, fees: [b: FeeModel(fixed: 0, basisPoints: 0)], settings: settings(loss: 1)).first?
                .accountId == a)
        // Nor is an account with too few answers, however cheap.
        let few = [row(a, 9_500, 500), row(b, 10, 0)]
        let fees: [UUID: FeeModel] = [a: FeeModel(fixed: 500, basisPoints: 0), b: FeeModel(fixed: 0, basisPoints: 0)]
        #expect(rank([a, b], few, fees: fees, settings: settings(loss: 10)).first?.accountId == a)
    }

    @Test func extremesStayFinite() {
        let stats = [
            row(a, 0, 50), row(b, 50, 0), row(c, Int.max, 1),
        ]
        let fees: [UUID: FeeModel] = [
            a: FeeModel(fixed: FeeModel.maximumFixed, basisPoints: FeeModel.maximumBasisPoints),
            b: FeeModel(fixed: Int64.max, basisPoints: 1),
        ]
        let huge = PaymentDescription(amount: Int64.max, currency: "EUR", country: "FR", method: "card")
        for amount in [payment, huge] {
            let ranking = AdaptiveRanker.rank(
                [a, b, c].map { AdaptiveRanker.Candidate(accountId: $0, fee: fees[$0]) }, stats: stats, payment: amount,
                settings: settings(share: 0.05, loss: 100), routingKey: key(exploring: false, share: 0.05))
            #expect(Set(ranking.map(\.accountId)) == [a, b, c])
            for rank in ranking {
                for value in [rank.estimatedRate, rank.lowerBound, rank.upperBound].compactMap({ $0 }) {
                    #expect(value.isFinite && (0...1).contains(value))
                }
            }
            #expect(ranking.first { $0.accountId == c }?.samples == 0)
            #expect(ranking.first?.accountId == b)
        }
        #expect(rank([a], [row(a, 0, 0)]).first?.reason == "not enough data (0 of 20): rule order")
    }
}
