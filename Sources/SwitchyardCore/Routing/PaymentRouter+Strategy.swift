import Foundation

extension PaymentRouter {
    /// What adaptive rules rank by: the tenant's statistics (nil when they could not be read) and its
    /// effective adaptive routing policy.
    public struct AdaptiveInput: Sendable {
        public var stats: [AuthorizationStats]?
        public var policy: PlatformPolicy.AdaptiveRouting

        public init(stats: [AuthorizationStats]? = [], policy: PlatformPolicy.AdaptiveRouting = .init()) {
            self.stats = stats
            self.policy = policy
        }
    }

    /// The rules looked at, in order, and the first that matches the payment.
    public static func matching(_ payment: PaymentDescription, rules: [RoutingRule])
        -> (checks: [RoutingExplanation.RuleCheck], rule: RoutingRule?)
    {
        var checks: [RoutingExplanation.RuleCheck] = []
        for rule in rules {
            if let reason = rule.match.mismatch(payment) {
                checks.append(.init(ruleId: rule.id, ruleName: rule.name, matched: false, reason: reason))
            } else {
                checks.append(.init(ruleId: rule.id, ruleName: rule.name, matched: true, reason: nil))
                return (checks, rule)
            }
        }
        return (checks, nil)
    }

    /// The suitable, healthy accounts of `rule` in the order to try them, each with why it stands there,
    /// and the probability with which the rule puts each first (see ``RoutingDecision/Propensity``).
    static func ranking(
        _ rule: RoutingRule, suitable: [(id: UUID, weight: Int)], payment: PaymentDescription, routingKey: String,
        accounts: [UUID: RoutingCandidate], adaptive: AdaptiveInput
    ) -> (ranking: [RoutingDecision.Rank], propensities: [RoutingDecision.Propensity]) {
        func fee(_ id: UUID) -> FeeModel? { accounts[id]?.account.fees[payment.currency] }
        switch rule.strategy {
        case .adaptive:
            let decided = AdaptiveRanker.decide(
                suitable.map { AdaptiveRanker.Candidate(accountId: $0.id, fee: fee($0.id)) }, stats: adaptive.stats,
                payment: payment, settings: AdaptiveRanker.Settings(adaptive.policy, maxRateLoss: rule.maxRateLoss),
                routingKey: routingKey)
            return (decided.ranking, decided.propensities)
        case .weighted:
            let ranking = weightedOrder(suitable, key: routingKey).enumerated().map { index, id in
                RoutingDecision.Rank(
                    accountId: id, position: index + 1, fee: fee(id)?.fee(for: payment.amount),
                    reason: index == 0 ? "weighted draw" : "fallback after the weighted draw")
            }
            return (ranking, weightedPropensities(suitable))
        case .ordered:
            let ranking = suitable.enumerated().map { index, candidate in
                RoutingDecision.Rank(
                    accountId: candidate.id, position: index + 1, fee: fee(candidate.id)?.fee(for: payment.amount),
                    reason: "rule order")
            }
            return (ranking, suitable.first.map { [.init(accountId: $0.id, probability: 1)] } ?? [])
        }
    }
}
