import Foundation

/// What a draft routing would have done over logged traffic, next to what the live routing does: pure,
/// deterministic, no I/O.
///
/// The first attempt's choice is scored: each logged decision is the account routing put first, the
/// probability it had to, and whether that attempt was authorised (failover attempts are not scored).
/// Both routings are evaluated the same way: each payment is routed again by the pure router (accounts'
/// breakers ignored; adaptive rules rank by the logged answers) to get the probability of each account
/// going first, and ``OffPolicyEstimator`` turns those into a rate per segment and overall. Fees are the
/// accounts' fee models applied to the logged amounts, weighted by the same probabilities.
public struct RoutingReplay: Sendable {
    /// A routing to evaluate: its rules and the tenant's accounts (with manifests) they name.
    public struct Policy: Sendable {
        public var rules: [RoutingRule]
        public var accounts: [UUID: RoutingCandidate]
        /// The adaptive routing knobs adaptive rules rank with.
        public var adaptive: PlatformPolicy.AdaptiveRouting

        public init(
            rules: [RoutingRule], accounts: [UUID: RoutingCandidate], adaptive: PlatformPolicy.AdaptiveRouting = .init()
        ) {
            self.rules = rules
            self.accounts = accounts.mapValues { RoutingCandidate(account: $0.account, manifest: $0.manifest) }
            self.adaptive = adaptive
        }
    }

    /// One routing's result on a set of payments.
    public struct Outcome: Sendable, Equatable {
        public var estimate: OffPolicyEstimate
        /// Expected fees in minor units per currency; nil when an account it would use has no fee model.
        public var fees: [String: Int64]?
        /// Expected share (0…1) of the payments each account would take first.
        public var shares: [UUID: Double]
        /// Payments no rule or account of the routing could take (counted as not authorised).
        public var unrouted: Int
    }

    /// Both routings on one segment.
    public struct Segment: Sendable, Equatable {
        public var segment: RoutingSegment
        public var observed: OffPolicyEstimate
        public var draft: Outcome
        public var live: Outcome
    }

    /// A payment the draft would send first to another account than the logged one.
    public struct Change: Sendable, Equatable {
        public var paymentId: String
        public var segment: RoutingSegment
        public var decidedAt: Date
        public var from: UUID
        /// The draft's first account, nil when the draft finds no route.
        public var to: UUID?
    }

    /// The whole answer.
    public struct Report: Sendable, Equatable {
        public var payments: Int
        public var observed: OffPolicyEstimate
        public var draft: Outcome
        public var live: Outcome
        public var segments: [Segment]
        /// Newest first, like the decisions.
        public var changes: [Change]
    }

    public var tenant: UUID
    public var estimator: OffPolicyEstimator

    public init(tenant: UUID, estimator: OffPolicyEstimator = OffPolicyEstimator()) {
        self.tenant = tenant
        self.estimator = estimator
    }

    /// Replays `decisions` (newest first) under `draft` and `live`.
    public func run(_ decisions: [LoggedDecision], draft: Policy, live: Policy) -> Report {
        let model = OffPolicyEstimator.Model(decisions, z: estimator.z)
        let stats = model.stats()
        let drafted = decisions.map { route($0, draft, stats: stats) }
        let current = decisions.map { route($0, live, stats: stats) }
        let bySegment = Dictionary(grouping: decisions.indices) { decisions[$0].segment }
        let segments = bySegment.keys.sorted().map { segment -> Segment in
            let indices = bySegment[segment] ?? []
            let logged = indices.map { decisions[$0] }
            return Segment(
                segment: segment, observed: estimator.observed(logged),
                draft: outcome(logged, indices.map { drafted[$0].targets }, draft, model),
                live: outcome(logged, indices.map { current[$0].targets }, live, model))
        }
        var draftOverall = outcome(decisions, drafted.map { $0.targets }, draft, model)
        var liveOverall = outcome(decisions, current.map { $0.targets }, live, model)
        if segments.contains(where: { !$0.draft.estimate.enoughEvidence }) { draftOverall.estimate.withdraw() }
        if segments.contains(where: { !$0.live.estimate.enoughEvidence }) { liveOverall.estimate.withdraw() }
        let changes = zip(decisions, drafted).compactMap { d, routed in
            routed.first == d.accountId
                ? nil
                : Change(
                    paymentId: d.paymentId, segment: d.segment, decidedAt: d.decidedAt, from: d.accountId,
                    to: routed.first)
        }
        return Report(
            payments: decisions.count, observed: estimator.observed(decisions), draft: draftOverall,
            live: liveOverall, segments: segments, changes: changes)
    }

    /// The probability of each account going first under `policy` for a logged payment, and the account
    /// its own routing key puts first.
    func route(_ d: LoggedDecision, _ policy: Policy, stats: [AuthorizationStats]) -> (
        targets: [UUID: Double], first: UUID?
    ) {
        let payment = PaymentDescription(
            amount: d.amount, currency: d.segment.currency, country: d.segment.country, method: d.segment.method)
        let key = PaymentRouter.routingKey(
            tenant: tenant, reference: d.reference ?? d.paymentId, amount: d.amount, currency: d.segment.currency)
        let decision = PaymentRouter.explain(
            payment, routingKey: key, rules: policy.rules, accounts: policy.accounts,
            adaptive: PaymentRouter.AdaptiveInput(stats: stats, policy: policy.adaptive)
        ).decision
        var targets: [UUID: Double] = [:]
        for p in decision?.propensities ?? [] where p.probability > 0 {
            targets[p.accountId, default: 0] += p.probability
        }
        return (targets, decision?.candidates.first)
    }

    /// A routing's estimate, fees and shares over `decisions`.
    func outcome(
        _ decisions: [LoggedDecision], _ targets: [[UUID: Double]], _ policy: Policy, _ model: OffPolicyEstimator.Model
    ) -> Outcome {
        var shares: [UUID: Double] = [:]
        var fees: [String: Double]? = [:]
        for (d, target) in zip(decisions, targets) {
            for (account, p) in OffPolicyEstimator.ordered(target) {
                shares[account, default: 0] += p / Double(decisions.count)
                let fee = policy.accounts[account]?.account.fees[d.segment.currency]?.fee(for: d.amount)
                if let fee { fees?[d.segment.currency, default: 0] += p * Double(fee) } else { fees = nil }
            }
        }
        return Outcome(
            estimate: estimator.estimate(decisions, targets: targets, model: model),
            fees: fees.flatMap(Self.wholeFees), shares: shares,
            unrouted: targets.filter(\.isEmpty).count)
    }
}

extension RoutingReplay {
    /// Expected fees rounded to whole minor units, nil when a total does not fit.
    static func wholeFees(_ fees: [String: Double]) -> [String: Int64]? {
        var whole: [String: Int64] = [:]
        for (currency, fee) in fees {
            guard let value = Int64(exactly: fee.rounded()) else { return nil }
            whole[currency] = value
        }
        return whole
    }
}

extension OffPolicyEstimate {
    /// Drops the number: part of what it covers has not enough evidence.
    mutating func withdraw() {
        (rate, lower, upper) = (nil, nil, nil)
    }
}
